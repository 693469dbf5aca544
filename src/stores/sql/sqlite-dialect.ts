import { AuditWriteError } from '../../audit/audit-chain.js';
import { chained, headOf, sequencerOf } from './audit-sequencer.js';
import { CHANGED, type SqlDialect, type SqlResult } from './dialect.js';
import { type AuditRow, type AuditSequencer, SEQUENCE_BATCH, UNSEQUENCED_COLUMNS } from './sql-audit.js';
import { type ConfirmationRow, statusList } from './sql-row.js';
import type { SqliteDriver, SqliteStatement } from './sqlite-driver.js';
import { SQLITE_SQL } from './sqlite-sql.js';

/**
 * SQLite for the SQL engine: integer epoch-ms times, `rowid` for insertion order, and decisions made
 * durable by syncing their one commit (WAL is one file, so every earlier commit is synced with it).
 */
export function sqliteDialect({
  db,
  table,
  tableName,
  syncDecisions,
}: {
  readonly db: SqliteDriver;
  readonly table: string;
  readonly tableName: string;
  /** Sync each decision's commit (the store opened the database, under `synchronous: 'decisions'`). */
  readonly syncDecisions: boolean;
}): SqlDialect {
  const syncFull = syncDecisions ? db.prepare('PRAGMA synchronous = FULL') : undefined;
  const syncNormal = syncDecisions ? db.prepare('PRAGMA synchronous = NORMAL') : undefined;
  const statements = new Map<string, SqliteStatement>();
  const statement = (sql: string): SqliteStatement => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      // Run only after the change was made, in the same transaction: the condition holds.
      prepared = db.prepare(sql.replace(CHANGED, '1 = 1'));
      statements.set(sql, prepared);
    }
    return prepared;
  };
  /** A change and its records in one synchronous `BEGIN IMMEDIATE` transaction: nothing else runs between. */
  const changeWith = db.immediate(
    (
      change: { sql: string; values: readonly unknown[] },
      records: readonly { sql: string; values: readonly unknown[] }[],
    ) => {
      const changed = statement(change.sql).run(change.values);
      if (changed === 0) return 0;
      for (const record of records) {
        try {
          statement(record.sql).run(record.values);
        } catch (error) {
          throw new AuditWriteError(error);
        }
      }
      return changed;
    },
  );
  return {
    table,
    tableName,
    ...SQLITE_SQL,
    // SQLite has no ADD COLUMN IF NOT EXISTS: the table's columns are read first (none: not made yet).
    addColumnIfMissing(column, type) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all([]) as { name: string }[];
      if (columns.length === 0 || columns.some((existing) => existing.name === column)) return [];
      return [`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`];
    },
    // The CHECK is part of the table's stored SQL: a table whose CHECK lacks a status is copied into a
    // table made as today, its rows (and rowids, the list order) kept, in one savepoint.
    widenStatusCheck(statuses, createAs) {
      const made = db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1")
        .get([tableName]) as { sql: string } | undefined;
      if (made === undefined || !made.sql.includes('CHECK') || made.sql.includes(statusList(statuses)))
        return [];
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all([]) as { name: string }[])
        .map(({ name }) => `"${name}"`)
        .join(', ');
      const copy = `"${tableName}__widened"`;
      return [
        'SAVEPOINT graded_tools_widen',
        `DROP TABLE IF EXISTS ${copy}`,
        createAs(copy),
        `INSERT INTO ${copy} (rowid, ${columns}) SELECT rowid, ${columns} FROM ${table}`,
        `DROP TABLE ${table}`,
        `ALTER TABLE ${copy} RENAME TO ${table}`,
        'RELEASE graded_tools_widen',
      ];
    },
    order: (digits) => BigInt(digits),
    relaxed: (text) => text,
    async together(change, records, decision) {
      if (!decision || syncFull === undefined || syncNormal === undefined) return changeWith(change, records);
      syncFull.run([]);
      try {
        return changeWith(change, records);
      } finally {
        syncNormal.run([]);
      }
    },
    prepare(sql, decision) {
      const statement = db.prepare(sql);
      const run = (values: readonly unknown[]): SqlResult => {
        if (statement.reader) {
          const rows = statement.all(values) as ConfirmationRow[];
          return { rows, changed: rows.length };
        }
        return { rows: [], changed: statement.run(values) };
      };
      if (!decision || syncFull === undefined || syncNormal === undefined)
        return async (values) => run(values);
      return async (values) => {
        syncFull.run([]);
        try {
          return run(values);
        } finally {
          syncNormal.run([]);
        }
      };
    },
  };
}

/**
 * SQLite's sequencer. The database has one writer at a time, so a `BEGIN IMMEDIATE` transaction is
 * the only sequencer while it runs: `sequence` chains what is pending batch by batch, each batch a
 * transaction of its own; `drain` does the same synchronously (a store's `close`). Entries are chained
 * in `id` order, which is commit order.
 */
export function sqliteSequencer(
  db: SqliteDriver,
  audit: string,
): { readonly sequence: AuditSequencer; drain(): void } {
  let statements: Record<'head' | 'unsequenced' | 'link', SqliteStatement> | undefined;
  const chainPending = (limit: number): number => {
    statements ??= {
      head: db.prepare(`SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`),
      unsequenced: db.prepare(
        `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT $1`,
      ),
      link: db.prepare(
        `UPDATE ${audit} SET seq = $1, prev_hash = $2, hash = $3 WHERE id = $4 AND seq IS NULL`,
      ),
    };
    const { head, unsequenced, link } = statements;
    const rows = unsequenced.all([limit]) as AuditRow[];
    if (rows.length === 0) return 0;
    for (const { id, seq, prevHash, hash } of chained(headOf(head.get([]) as AuditRow | undefined), rows))
      link.run([seq, prevHash, hash, Number(id)]);
    return rows.length;
  };
  let batch: ((limit: number) => number) | undefined;
  const chainBatch = (limit: number): number => {
    batch ??= db.immediate(chainPending);
    return batch(limit);
  };
  return {
    sequence: sequencerOf(async (limit) => chainBatch(limit)),
    drain() {
      while (chainBatch(SEQUENCE_BATCH) === SEQUENCE_BATCH);
    },
  };
}
