import type { CountedLimit } from '../../confirmation.js';
import type { LimitSpend, LimitStore } from '../store.js';
import { DECISIONS } from '../transitions.js';
import { type BoundSql, CHANGED, type SqlDialect } from './dialect.js';
import { pruneInBatches } from './prune-batches.js';
import { limitsTableOf } from './table-name.js';

/**
 * The store's limit counters over a `SqlDialect`. A spend is one upsert whose update only happens
 * while the sum stays within `max` (`… DO UPDATE … WHERE used + amount <= max RETURNING used`): the
 * row lock makes it exact for any number of callers in any number of processes, in one round trip.
 * No row back means refused; only then is the counter read again, to say where it stands.
 */
export function sqlLimits(dialect: SqlDialect): LimitStore & {
  /** Deletes counters whose window ended before `before` (epoch ms), in batches. */
  pruneLimits(before: number): Promise<void>;
  /**
   * The statements that give back (or count again, uncapped) what a confirmation counted: records of a
   * row change (`together`), so they commit with the status change that calls for them, or not at all.
   */
  countStatements(move: 'give-back' | 'count-again', counted: readonly CountedLimit[]): BoundSql[];
  /**
   * The statements that spend `spends` as records of a change (a bundle's insert): each counter's sum
   * within its `max` or the statement fails (`used` is NOT NULL), so the whole transaction rolls back.
   */
  spendStatements(spends: readonly LimitSpend[]): BoundSql[];
  /** The first of `spends` (those on one counter added up) that does not fit now, and where it stands. */
  firstOver(spends: readonly LimitSpend[]): Promise<{ spend: LimitSpend; used: number } | undefined>;
} {
  const limits = limitsTableOf(dialect.table);
  const upsert =
    `INSERT INTO ${limits} AS counter (limit_key, window_start, window_end, used) VALUES ($1, $2, $3, $4)` +
    ' ON CONFLICT (limit_key, window_start) DO UPDATE SET used = counter.used + excluded.used';
  const spendable = DECISIONS.has('spendLimit');
  // `Infinity` cannot be bound: an uncapped spend (a shadow rule) has no condition at all.
  const spendCapped = dialect.prepare(
    `${upsert} WHERE counter.used + excluded.used <= $5 RETURNING used`,
    spendable,
  );
  const spendUncapped = dialect.prepare(`${upsert} RETURNING used`, spendable);
  const refund = dialect.prepare(
    `UPDATE ${limits} SET used = CASE WHEN used > $3 THEN used - $3 ELSE 0 END` +
      ' WHERE limit_key = $1 AND window_start = $2',
    false,
  );
  const select = dialect.prepare(
    `SELECT used FROM ${limits} WHERE limit_key = $1 AND window_start = $2`,
    false,
  );
  const prune = dialect.prepare(
    `DELETE FROM ${limits} WHERE (limit_key, window_start) IN` +
      ` (SELECT limit_key, window_start FROM ${limits} WHERE window_end < $1 LIMIT $2)`,
    false,
  );
  const usedOf = (rows: readonly unknown[]): number | undefined => {
    const [row] = rows as readonly { used: number | string }[];
    return row === undefined ? undefined : Number(row.used);
  };
  const peek = async (key: string, windowStart: number): Promise<number> =>
    usedOf((await select([key, dialect.time(windowStart)])).rows) ?? 0;

  const { types } = dialect;
  const giveBack =
    `UPDATE ${limits} SET used = CASE WHEN used > $3 THEN used - $3 ELSE 0 END` +
    ` WHERE limit_key = $1 AND window_start = $2 AND ${CHANGED}`;
  const countAgain =
    `INSERT INTO ${limits} AS counter (limit_key, window_start, window_end, used)` +
    ` SELECT CAST($1 AS ${types.text}), CAST($2 AS ${types.time}), CAST($3 AS ${types.time}), CAST($4 AS ${types.real})` +
    ` WHERE ${CHANGED} ON CONFLICT (limit_key, window_start) DO UPDATE SET used = counter.used + excluded.used`;

  // Past `max` the new sum is NULL, which the NOT NULL `used` refuses: the statement fails, not skips.
  const spendWithin =
    `INSERT INTO ${limits} AS counter (limit_key, window_start, window_end, used)` +
    ` SELECT CAST($1 AS ${types.text}), CAST($2 AS ${types.time}), CAST($3 AS ${types.time}),` +
    ` CASE WHEN CAST($4 AS ${types.real}) <= CAST($5 AS ${types.real}) THEN CAST($4 AS ${types.real}) END` +
    ` WHERE ${CHANGED} ON CONFLICT (limit_key, window_start) DO UPDATE SET used =` +
    ` CASE WHEN counter.used + excluded.used <= CAST($5 AS ${types.real}) THEN counter.used + excluded.used END`;
  /** `spends` added up per counter (one statement may change a row once), under the lowest `max`. */
  const perCounter = (spends: readonly LimitSpend[]): LimitSpend[] => {
    const byCounter = new Map<string, LimitSpend>();
    for (const spend of spends) {
      const slot = JSON.stringify([spend.key, spend.windowStart]);
      const seen = byCounter.get(slot);
      byCounter.set(
        slot,
        seen === undefined
          ? spend
          : { ...seen, amount: seen.amount + spend.amount, max: Math.min(seen.max, spend.max) },
      );
    }
    return [...byCounter.values()];
  };

  return {
    spendStatements(spends) {
      return perCounter(spends).map(({ key, windowStart, windowEnd, amount, max }) =>
        max === Infinity
          ? { sql: countAgain, values: [key, dialect.time(windowStart), dialect.time(windowEnd), amount] }
          : {
              sql: spendWithin,
              values: [key, dialect.time(windowStart), dialect.time(windowEnd), amount, max],
            },
      );
    },
    async firstOver(spends) {
      for (const spend of perCounter(spends)) {
        const used = await peek(spend.key, spend.windowStart);
        if (!(used + spend.amount <= spend.max)) return { spend, used };
      }
      return undefined;
    },
    countStatements(move, counted) {
      // One statement per counter: PostgreSQL runs the records as CTEs of one statement, and one
      // statement may change a row only once.
      const byCounter = new Map<string, CountedLimit>();
      for (const entry of counted) {
        const slot = JSON.stringify([entry.key, entry.windowStart]);
        const seen = byCounter.get(slot);
        byCounter.set(slot, seen === undefined ? entry : { ...seen, amount: seen.amount + entry.amount });
      }
      return [...byCounter.values()].map(({ key, windowStart, windowEnd, amount }) =>
        move === 'give-back'
          ? { sql: giveBack, values: [key, dialect.time(windowStart), amount] }
          : {
              sql: countAgain,
              values: [key, dialect.time(windowStart), dialect.time(windowEnd), amount],
            },
      );
    },

    async spendLimit({ key, windowStart, windowEnd, amount, max }) {
      // A fresh counter is inserted unconditionally: an amount over `max` alone is refused here.
      if (!(amount <= max)) return { ok: false, used: await peek(key, windowStart) };
      const values = [key, dialect.time(windowStart), dialect.time(windowEnd), amount];
      const { rows } = max === Infinity ? await spendUncapped(values) : await spendCapped([...values, max]);
      const used = usedOf(rows);
      return used === undefined ? { ok: false, used: await peek(key, windowStart) } : { ok: true, used };
    },
    async refundLimit({ key, windowStart, amount }) {
      await refund([key, dialect.time(windowStart), amount]);
    },
    peekLimit: peek,
    async pruneLimits(before) {
      await pruneInBatches(prune, dialect.time(before));
    },
  };
}
