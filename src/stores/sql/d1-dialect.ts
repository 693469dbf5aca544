import { AuditWriteError } from '../../audit/audit-chain.js';
import { chained, headOf, sequencerOf } from './audit-sequencer.js';
import { type BoundSql, CHANGED, type SqlDialect, type SqlResult } from './dialect.js';
import { type AuditRow, type AuditSequencer, UNSEQUENCED_COLUMNS } from './sql-audit.js';
import type { ConfirmationRow } from './sql-row.js';
import { SQLITE_SQL } from './sqlite-sql.js';
import { marksTableOf } from './table-name.js';

/** What one D1 statement gave back (the part the store reads). */
export interface D1Result<Row = Record<string, unknown>> {
  readonly results: readonly Row[];
  readonly meta: { readonly changes?: number };
}

/** A D1 statement, before or after `bind` (the part the store uses). */
export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  all<Row = Record<string, unknown>>(): Promise<D1Result<Row>>;
}

/**
 * A Cloudflare D1 database binding (`env.DB`), declared by shape so the package needs no
 * `@cloudflare/workers-types`: the `D1Database` of Workers fits it.
 */
export interface D1Database {
  prepare(query: string): D1PreparedStatement;
  /** Runs the statements in order as one transaction: all commit, or (one failing) none. */
  batch<Row = Record<string, unknown>>(statements: D1PreparedStatement[]): Promise<D1Result<Row>[]>;
}

/** D1 takes `?NNN` parameters (not `$NNN`), and no `bigint` or `undefined` values. */
const d1Sql = (sql: string): string => sql.replace(/\$(\d+)/g, '?$1');
const d1Value = (value: unknown): unknown =>
  typeof value === 'bigint' ? Number(value) : value === undefined ? null : value;
/** Statements whose rows the store reads (`changed` is then their row count, as on SQLite). */
const READS = /^\s*(SELECT|PRAGMA)\b|\bRETURNING\b/i;

/** The marker table's DDL: one row per batch in flight, deleted by the batch that wrote it. */
export const marksSchema = (table: string): string =>
  `CREATE TABLE IF NOT EXISTS ${marksTableOf(table)} (token TEXT PRIMARY KEY NOT NULL)`;

/**
 * Cloudflare D1 for the SQL engine: SQLite's SQL over an async binding with no interactive
 * transactions. A change and its records are one `batch` (one transaction); since nothing can be
 * checked between its statements, the change leaves a marker row when it changed something
 * (`… WHERE changes() > 0`), each record is conditioned on the marker, and the batch deletes it.
 * D1 makes every commit durable itself, so `decision` asks nothing more. `ready` is awaited before
 * every statement (the schema, made once).
 */
export function d1Dialect({
  db,
  table,
  tableName,
  ready,
  chainAfterRecords,
}: {
  readonly db: D1Database;
  readonly table: string;
  readonly tableName: string;
  readonly ready: () => Promise<void>;
  /**
   * Chains the audit entries pending, after a change with records committed (no timer runs across
   * requests on Workers, so the write that commits an entry chains it before it resolves).
   */
  readonly chainAfterRecords?: () => Promise<unknown>;
}): SqlDialect {
  const marks = marksTableOf(table);
  const prepared = new Map<string, D1PreparedStatement>();
  const bound = (sql: string, values: readonly unknown[]): D1PreparedStatement => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = db.prepare(d1Sql(sql));
      prepared.set(sql, statement);
    }
    return statement.bind(...values.map(d1Value));
  };
  const mark = `INSERT INTO ${marks} (token) SELECT $1 WHERE changes() > 0`;
  const unmark = `DELETE FROM ${marks} WHERE token = $1`;
  /** A record conditioned on the batch's marker, its token bound after the record's own values. */
  const conditioned = (record: BoundSql, token: string): D1PreparedStatement =>
    bound(
      record.sql.replace(
        CHANGED,
        `EXISTS (SELECT 1 FROM ${marks} WHERE token = $${record.values.length + 1})`,
      ),
      [...record.values, token],
    );
  /** Whether `change` runs without error on its own: a batch that ends in a failure of ours, so rolls back. */
  const succeedsAlone = async (change: BoundSql): Promise<boolean> => {
    try {
      await db.batch([
        bound(change.sql, change.values),
        db.prepare(`INSERT INTO ${marks} (token) VALUES (NULL)`),
      ]);
      return false;
    } catch (error) {
      return /NOT NULL constraint failed: \S*_marks\.token/.test(String((error as Error)?.message));
    }
  };
  return {
    ...SQLITE_SQL,
    table,
    tableName,
    // A D1 table is never older than this store: no column to add, no CHECK to widen yet.
    addColumnIfMissing: () => [],
    widenStatusCheck: () => [],
    // D1 binds no bigint: a row number beyond 2^53 is rounded, which only moves a cursor past every row.
    order: (digits) => Number(digits),
    relaxed: (text) => text,
    // D1 binds at most 100 parameters a statement: a bundle's rows come as one JSON parameter.
    jsonRows: (param, width) =>
      `SELECT ${Array.from({ length: width }, (_, i) => `json_extract(value, '$[${i}]') AS c${i}`).join(', ')}` +
      ` FROM json_each(${param}) ORDER BY key`,
    async together(change, records) {
      await ready();
      const token = crypto.randomUUID();
      const batch =
        records.length === 0
          ? [bound(change.sql, change.values)]
          : [
              bound(change.sql, change.values),
              bound(mark, [token]),
              ...records.map((record) => conditioned(record, token)),
              bound(unmark, [token]),
            ];
      try {
        const [changed] = await db.batch(batch);
        const count = changed?.meta.changes ?? 0;
        // The decision is made: a failure to chain leaves its entry pending for the next write or sweep.
        if (count > 0 && records.length > 0) await chainAfterRecords?.().catch(() => {});
        return count;
      } catch (error) {
        if (records.length > 0 && (await succeedsAlone(change))) throw new AuditWriteError(error);
        throw error;
      }
    },
    prepare(sql) {
      const reads = READS.test(sql);
      return async (values): Promise<SqlResult> => {
        await ready();
        const { results, meta } = await bound(sql, values).all<ConfirmationRow>();
        return { rows: results, changed: reads ? results.length : (meta.changes ?? 0) };
      };
    },
  };
}

/**
 * D1's sequencer, safe with any number of isolates at once: read the head and the entries not yet
 * sequenced (one batch, one snapshot), chain them here, then write the links in one batch whose first
 * statement fails the whole batch when the head moved since the read (`json()` of non-JSON raises) —
 * another isolate sequenced meanwhile, so read again. Entries are chained in `id` order, which is
 * commit order (D1 has one writer).
 */
export function d1Sequencer(db: D1Database, audit: string, ready: () => Promise<void>): AuditSequencer {
  const head = `SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`;
  const unsequenced = `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT ?1`;
  const guard =
    `SELECT CASE WHEN coalesce((SELECT max(seq) FROM ${audit}), 0) = ?1 THEN 1` +
    ` ELSE json('graded-tools: the audit head moved') END`;
  const link =
    `UPDATE ${audit} SET seq = json_extract(v.value, '$[1]'), prev_hash = json_extract(v.value, '$[2]'),` +
    ` hash = json_extract(v.value, '$[3]') FROM json_each(?1) AS v` +
    ` WHERE ${audit}.id = json_extract(v.value, '$[0]') AND ${audit}.seq IS NULL`;
  return sequencerOf(async (limit) => {
    await ready();
    const [last, pending] = await db.batch<AuditRow>([db.prepare(head), db.prepare(unsequenced).bind(limit)]);
    const rows = pending?.results ?? [];
    if (rows.length === 0) return 0;
    const start = headOf(last?.results[0]);
    const links = chained(start, rows).map((l) => [Number(l.id), l.seq, l.prevHash, l.hash]);
    try {
      await db.batch([db.prepare(guard).bind(start.seq), db.prepare(link).bind(JSON.stringify(links))]);
      return rows.length;
    } catch (error) {
      if (
        String((error as Error)?.message)
          .toLowerCase()
          .includes('malformed json')
      )
        return undefined;
      throw error;
    }
  });
}
