import type { LoggedAction } from '../../audit/audit-drafts.js';
import type { Confirmation, ConfirmationStatus, CountedLimit } from '../../confirmation.js';
import type { ApprovalRequirement } from '../../rule.js';
import { listStart, pageOf } from '../list-page.js';
import type {
  ApprovalsSwap,
  ApproveChange,
  ConfirmationQuery,
  DecisionChange,
  FullConfirmationStore,
  PayloadEdit,
  StoreCapability,
  StoreWith,
  TransitionOutcome,
} from '../store.js';
import { FINISHED_STATUSES } from '../store.js';
import {
  approvalsJson,
  clampLimit,
  DECISIONS,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from '../transitions.js';
import type { BoundSql, SqlDialect, SqlStatement } from './dialect.js';
import { pruneInBatches } from './prune-batches.js';
import { rowChanges } from './row-change.js';
import type { sqlAuditChain } from './sql-audit.js';
import { sqlEscalations } from './sql-escalations.js';
import { sqlLimits } from './sql-limits.js';
import { sqlLinks } from './sql-links.js';
import { sqlPasskeys } from './sql-passkeys.js';
import {
  appendedHistory,
  COLUMNS,
  type ConfirmationRow,
  confirmationRow,
  rowToConfirmation,
  rowValues,
  statusLiteral,
  withEdit,
} from './sql-row.js';
import { sqlRuns } from './sql-runs.js';
import { noticesTableOf } from './table-name.js';

/** Reminders one `remindDue` claims at most; the next sweep takes the rest. */
const REMIND_BATCH = 500;
/** How many rows the engine remembers from its own reads and writes (see `known` below). */
const KNOWN_ROWS = 256;

/** Internal switches of the engine; the public stores take none of them. */
export interface SqlStoreOptions {
  /** Remember rows so a change can skip the read before it (default true; off for the differential test). */
  readonly rememberRows?: boolean;
}

type Write = keyof FullConfirmationStore;
type Move = 'claim' | 'reclaim' | 'reject' | 'markDelivered' | 'deliverDue' | 'cancel';

/**
 * The last millisecond of year 9999 (the latest ISO time both databases read) and the largest 64-bit
 * row number: a cursor past them starts from the top.
 */
const MAX_TIME = 253_402_300_799_999;
const MAX_ORDER = 9_223_372_036_854_775_807n;
const orderDigits = (digits: string): string => (BigInt(digits) > MAX_ORDER ? MAX_ORDER.toString() : digits);

/**
 * Every `ConfirmationStore` method, written once over a `SqlDialect`. Each change of a confirmation is
 * one conditional `UPDATE … WHERE id = $1 AND revision = $2` of the row it was planned from, committed
 * together with its audit entry (`rowChanges`), so of any number of concurrent callers, in any number
 * of processes, exactly one changes the row, and no change is without its entry; which commits must
 * reach the disk is `DECISIONS`, told to the dialect with each statement.
 */
export function createSqlStore(
  dialect: SqlDialect,
  audit: ReturnType<typeof sqlAuditChain>,
  options: SqlStoreOptions = {},
): StoreWith<Exclude<StoreCapability, 'watch'>> {
  const { table, insertionOrder: order } = dialect;
  const write = (name: Write, sql: string): SqlStatement => dialect.prepare(sql, DECISIONS.has(name));
  const fromRow = (row: ConfirmationRow): Confirmation => rowToConfirmation(row, dialect.isoOf);

  // The row as this store last read or wrote it: a change plans from it and is conditional on its
  // `revision`, so a stale one costs a failed write and a read, never a wrong write.
  const known = new Map<string, ConfirmationRow>();
  const remembering = options.rememberRows !== false;
  const remember = (row: ConfirmationRow): void => {
    if (!remembering) return;
    known.delete(row.id);
    known.set(row.id, row);
    if (known.size > KNOWN_ROWS) known.delete(known.keys().next().value as string);
  };

  const insert = `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((column, i) =>
    column === 'history' && !DECISIONS.has('create') ? dialect.relaxed(`$${i + 1}`) : `$${i + 1}`,
  ).join(', ')})`;
  const selectOne = dialect.prepare(`SELECT * FROM ${table} WHERE id = $1`, false);
  const selectKeyed = dialect.prepare(`SELECT * FROM ${table} WHERE idempotency_key = $1`, false);
  const selectAlike = dialect.prepare(
    `SELECT id, CASE WHEN digest = $1 THEN 1 ELSE 0 END AS same_payload FROM ${table}` +
      ` WHERE (digest = $1 OR ref = $4) AND tool = $2 AND status = 'pending' AND expires_at > $3` +
      ' ORDER BY same_payload DESC, created_at DESC LIMIT 1',
    false,
  );
  const read = async (id: string): Promise<ConfirmationRow | undefined> => {
    const [row] = (await selectOne([id])).rows;
    if (row === undefined) known.delete(id);
    else remember(row);
    return row;
  };
  const { pruneLimits, countStatements, spendStatements, firstOver, ...limits } = sqlLimits(dialect);
  const rows = rowChanges(dialect, {
    recordOf: audit.recordOf,
    read,
    known: (id) => known.get(id),
    remember,
    fromRow,
    countStatements,
  });
  const ms = (stored: unknown): number =>
    typeof stored === 'number' ? stored : Date.parse(dialect.isoOf(stored));

  /** A move of the state machine (`TRANSITIONS`) as a row step, with its guards checked on the row read. */
  const move = (
    name: Move | 'approve' | 'hold',
    id: string,
    change: DecisionChange & {
      readonly edit?: PayloadEdit | undefined;
      readonly requires?: ApprovalRequirement | undefined;
      readonly counted?: readonly CountedLimit[] | undefined;
      readonly quorum?: ApprovalsSwap | undefined;
      readonly approval?: ApproveChange['approval'];
      readonly deliverAt?: number | undefined;
    },
    action: LoggedAction,
  ): Promise<TransitionOutcome> => {
    const transition: Transition = TRANSITIONS[name];
    const { edit, requires, counted, quorum, approval, deliverAt, now } = change;
    const entry = JSON.stringify(historyEntry(change, transition.to, edit, approval));
    const time = dialect.time(now);
    return rows.change(id, {
      action,
      now,
      by: change.by,
      link: change.link,
      passkey: 'passkey' in change ? change.passkey : undefined,
      decision: DECISIONS.has(name === 'hold' ? 'claim' : name),
      plan: (row) => {
        if (
          !transition.from.includes(row.status as ConfirmationStatus) ||
          (edit !== undefined && row.digest !== edit.fromDigest) ||
          (quorum !== undefined && (row.approvals ?? '[]') !== approvalsJson(quorum.expected)) ||
          (name === 'deliverDue' && (row.deliver_at == null || ms(row.deliver_at) > now))
        )
          return { ok: false, reason: 'wrong-status' };
        if (transition.refusedWhenExpired === true && ms(row.expires_at) <= now)
          return { ok: false, reason: 'expired' };
        const after: ConfirmationRow = {
          ...row,
          status: transition.to,
          updated_at: time,
          attempt: Number(row.attempt) + (transition.startsAttempt === true ? 1 : 0),
          history: appendedHistory(row.history, entry),
          ...(edit === undefined ? {} : { payload: edit.payloadJson, digest: edit.digest }),
          // A stricter requirement and the edited call's counts are stored with the edit, in the same write.
          ...(edit === undefined ? {} : { about: withEdit(row.about, { requires, counted }) }),
          ...(quorum === undefined ? {} : { approvals: approvalsJson(quorum.next) }),
          ...(deliverAt === undefined ? {} : { deliver_at: dialect.time(deliverAt) }),
        };
        return { ok: true, after };
      },
    });
  };

  // The sweeps read the rows due, then change each as one row step (its entry with it): a row another
  // instance changed meanwhile is refused and left out.
  const SWEEP_BATCH = 500;
  const dueToExpire = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at LIMIT ${SWEEP_BATCH}`,
    false,
  );
  const staleDeliveries = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'delivering' AND updated_at < $1` +
      ` AND id NOT IN (${dialect.jsonTextElements('$2')}) ORDER BY updated_at LIMIT ${SWEEP_BATCH}`,
    false,
  );
  const changeEach = async (
    due: () => Promise<readonly ConfirmationRow[]>,
    change: (row: ConfirmationRow) => Promise<TransitionOutcome>,
  ): Promise<Confirmation[]> => {
    const changed: Confirmation[] = [];
    for (;;) {
      const batch = await due();
      let moved = 0;
      for (const row of batch) {
        const outcome = await change(row);
        if (outcome.ok) {
          changed.push(outcome.confirmation);
          moved++;
        }
      }
      // Every row of a full batch changed: there may be more.
      if (batch.length < SWEEP_BATCH || moved < batch.length) return changed;
    }
  };
  const expireRow = (id: string, now: number): Promise<TransitionOutcome> => {
    const entry = JSON.stringify(historyEntry({ now }, 'expired'));
    return rows.change(id, {
      action: 'expired',
      now,
      by: undefined,
      decision: DECISIONS.has('expire'),
      plan: (row) =>
        row.status === 'pending' && ms(row.expires_at) <= now
          ? {
              ok: true,
              after: {
                ...row,
                status: 'expired',
                updated_at: dialect.time(now),
                history: appendedHistory(row.history, entry),
              },
            }
          : { ok: false, reason: 'wrong-status' },
    });
  };

  // One status at a time, so each batch is one range of the (status, updated_at) index.
  const pruneBatches = FINISHED_STATUSES.map((status) =>
    write(
      'prune',
      `DELETE FROM ${table} WHERE id IN (SELECT ${DECISIONS.has('prune') ? 'id' : dialect.relaxed('id')} FROM ${table}` +
        ` WHERE status = ${statusLiteral(status)} AND updated_at < $1 LIMIT $2)`,
    ),
  );
  const dueHeld = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'scheduled' AND deliver_at <= $1 ORDER BY deliver_at LIMIT $2`,
    false,
  );
  const lists = new Map<string, SqlStatement>();
  // Reminders: the due ones not claimed yet, then one claim each — the primary key lets one instance in.
  const notices = noticesTableOf(table);
  const dueForReminder = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'pending' AND expires_at > $1 AND expires_at <= $2` +
      ` AND NOT EXISTS (SELECT 1 FROM ${notices} WHERE confirmation_id = ${table}.id AND kind = 'reminder')` +
      ` ORDER BY expires_at LIMIT ${REMIND_BATCH}`,
    false,
  );
  const claimReminder = write(
    'remindDue',
    `INSERT INTO ${notices} (confirmation_id, kind, claimed_at) VALUES ($1, ${dialect.relaxed("'reminder'")}, $2) ON CONFLICT DO NOTHING`,
  );
  // Claims of reminders older than a prune's cutoff, in batches like the prune; never one for a
  // confirmation still pending (that would let its reminder go out again).
  const forgetNotices = write(
    'prune',
    `DELETE FROM ${notices} WHERE (confirmation_id, kind) IN (SELECT confirmation_id, kind FROM ${notices}` +
      ` WHERE claimed_at < $1 AND NOT EXISTS (SELECT 1 FROM ${table} WHERE ${table}.id = ${notices}.confirmation_id` +
      ` AND ${table}.status = 'pending') LIMIT $2)`,
  );

  const { pruneLinks, ...links } = sqlLinks(dialect);
  const { prunePasskeyChallenges, ...passkeys } = sqlPasskeys(dialect, audit.recordOf);

  return {
    ...links,
    ...passkeys,
    ...limits,
    ...sqlEscalations(dialect, rows.change),
    ...sqlRuns(dialect),
    audit,

    async create(confirmation) {
      const row = confirmationRow(confirmation, dialect.time);
      await rows.insert(
        { sql: insert, values: rowValues(row) },
        row,
        confirmation.actor,
        DECISIONS.has('create'),
      );
    },

    async createBundle(confirmations, spends = []) {
      const created = confirmations.map((confirmation) => confirmationRow(confirmation, dialect.time));
      // One multi-row INSERT: a taken id fails the statement, so every row is stored or none is.
      let insert: BoundSql;
      if (dialect.jsonRows !== undefined) {
        const columns = COLUMNS.map((column, i) =>
          column === 'history' && !DECISIONS.has('create') ? dialect.relaxed(`c${i}`) : `c${i}`,
        );
        const sql = `INSERT INTO ${table} (${COLUMNS.join(', ')}) SELECT ${columns.join(', ')} FROM (${dialect.jsonRows('$1', COLUMNS.length)})`;
        insert = { sql, values: [JSON.stringify(created.map(rowValues))] };
      } else {
        const values: unknown[] = [];
        const tuples = created.map((row) => {
          const first = values.length;
          values.push(...rowValues(row));
          return `(${COLUMNS.map((column, i) =>
            column === 'history' && !DECISIONS.has('create')
              ? dialect.relaxed(`$${first + i + 1}`)
              : `$${first + i + 1}`,
          ).join(', ')})`;
        });
        insert = { sql: `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values };
      }
      try {
        // The counts are records of the insert: a spend past its `max` fails the transaction whole.
        await rows.insertMany(insert, created, DECISIONS.has('create'), spendStatements(spends));
      } catch (error) {
        const over = spends.length === 0 ? undefined : await firstOver(spends).catch(() => undefined);
        if (over === undefined) throw error;
        return { ok: false, code: 'limit-reached', ...over };
      }
      return { ok: true };
    },

    async findAlike({ tool, digest, ref, now }) {
      const [row] = (await selectAlike([digest, tool, dialect.time(now), ref ?? null]))
        .rows as unknown as readonly {
        id: string;
        same_payload: number | string;
      }[];
      if (row === undefined) return undefined;
      return Number(row.same_payload) === 1 ? { id: row.id, by: 'payload' } : { id: row.id, by: 'ref' };
    },

    async findKeyed(key) {
      const [row] = (await selectKeyed([key])).rows;
      if (row === undefined) return undefined;
      remember(row);
      return fromRow(row);
    },

    async get(id) {
      const row = await read(id);
      return row === undefined ? undefined : fromRow(row);
    },

    async list(query: ConfirmationQuery = {}) {
      const limit = clampLimit(query.limit);
      const start = listStart(query);
      const where: string[] = [];
      const values: unknown[] = [];
      // The filtered columns lead the ORDER BY, in the indexes' column order, so only the index that
      // starts with them gives the order (see `SqlDialect.pinned`).
      const pinned: string[] = [];
      const pin = (column: 'status' | 'tool', value: string) => {
        values.push(value);
        where.push(dialect.pinned(column, `$${values.length}`));
        pinned.push(`${column} DESC, `);
      };
      if (query.status !== undefined) pin('status', query.status);
      if (query.tool !== undefined) pin('tool', query.tool);
      if (query.expiresAfter !== undefined) {
        values.push(dialect.time(query.expiresAfter));
        where.push(`expires_at > $${values.length}`);
      }
      if (start !== undefined) {
        // Keyset: a row value comparison, one range of the same index the first page reads.
        values.push(
          dialect.time(Math.min(start.createdAt, MAX_TIME)),
          dialect.order(orderDigits(start.order)),
        );
        where.push(`(created_at, ${order}) < ($${values.length - 1}, $${values.length})`);
      }
      values.push(limit + 1);
      const key = where.join(' AND ');
      let statement = lists.get(key);
      if (statement === undefined) {
        statement = dialect.prepare(
          `SELECT *, CAST(${order} AS TEXT) AS list_order FROM ${table}${key === '' ? '' : ` WHERE ${key}`}` +
            ` ORDER BY ${pinned.join('')}created_at DESC, ${order} DESC LIMIT $${values.length}`,
          false,
        );
        lists.set(key, statement);
      }
      const { rows } = await statement(values);
      return pageOf(rows, limit, fromRow, (row) => ({
        createdAt: Date.parse(dialect.isoOf(row.created_at)),
        order: String(row.list_order),
      }));
    },

    claim: (id, change) => move(change.deliverAt === undefined ? 'claim' : 'hold', id, change, 'confirmed'),
    deliverDue: (id, change) => move('deliverDue', id, change, 'delivering'),
    cancel: (id, change) => move('cancel', id, change, 'cancelled'),
    async dueScheduled({ now, limit }) {
      const { rows: due } = await dueHeld([dialect.time(now), limit]);
      return due.map(fromRow);
    },
    approve: (id, change) => move('approve', id, change, 'approved'),
    reclaim: (id, change) => move('reclaim', id, change, 'confirmed'),
    reject: (id, change) => move('reject', id, change, 'rejected'),
    markDelivered: (id, change) => move('markDelivered', id, change, 'delivered'),

    async finish(id, change) {
      const from = finishFrom(change.status);
      const entry = JSON.stringify(
        historyEntry({ now: change.now, by: change.by, note: change.note ?? change.error }, change.status),
      );
      return rows.change(id, {
        action: change.status,
        now: change.now,
        by: change.by,
        decision: DECISIONS.has('finish'),
        plan: (row) =>
          from.includes(row.status as ConfirmationStatus) && Number(row.attempt) === change.attempt
            ? {
                ok: true,
                after: {
                  ...row,
                  status: change.status,
                  updated_at: dialect.time(change.now),
                  // An earlier attempt's result or error does not describe this one: both are replaced.
                  result: change.resultJson ?? null,
                  error: change.error ?? null,
                  history: appendedHistory(row.history, entry),
                },
              }
            : { ok: false, reason: 'wrong-status' },
      });
    },

    async expire({ now, id }) {
      if (id !== undefined) {
        const outcome = await expireRow(id, now);
        return outcome.ok ? [outcome.confirmation] : [];
      }
      return changeEach(
        async () => (await dueToExpire([dialect.time(now)])).rows,
        (row) => expireRow(row.id, now),
      );
    },

    async recoverStale({ now, olderThanMs, running = [] }) {
      const note = staleNote(olderThanMs);
      const entry = JSON.stringify(historyEntry({ now, note }, 'unknown'));
      const cutoff = now - olderThanMs;
      return changeEach(
        async () => (await staleDeliveries([dialect.time(cutoff), JSON.stringify(running)])).rows,
        (stale) =>
          rows.change(stale.id, {
            action: 'unknown',
            now,
            by: undefined,
            decision: DECISIONS.has('recoverStale'),
            plan: (row) =>
              row.status === 'delivering' && ms(row.updated_at) < cutoff && !running.includes(row.id)
                ? {
                    ok: true,
                    after: {
                      ...row,
                      status: 'unknown',
                      updated_at: dialect.time(now),
                      error: note,
                      history: appendedHistory(row.history, entry),
                    },
                  }
                : { ok: false, reason: 'wrong-status' },
          }),
      );
    },

    async prune({ before }) {
      const cutoff = dialect.time(before);
      let pruned = 0;
      for (const batch of pruneBatches) pruned += await pruneInBatches(batch, cutoff);
      await pruneInBatches(forgetNotices, cutoff);
      await pruneLinks(before);
      await prunePasskeyChallenges(before);
      await pruneLimits(before);
      return pruned;
    },

    async remindDue({ now, within }) {
      const { rows } = await dueForReminder([dialect.time(now), dialect.time(now + within)]);
      const claimed: Confirmation[] = [];
      for (const row of rows) {
        if ((await claimReminder([row.id, dialect.time(now)])).changed === 1) claimed.push(fromRow(row));
      }
      return claimed;
    },
  };
}
