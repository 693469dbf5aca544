import type { ConfirmationStatus } from '../../confirmation.js';
import type { ConfirmationRow } from './sql-row.js';

/** What one statement gave back: its rows (a `SELECT` or `RETURNING`) and how many rows it changed. */
export interface SqlResult {
  readonly rows: readonly ConfirmationRow[];
  readonly changed: number;
}

/** A statement ready to run with its `$1, $2, …` values. */
export type SqlStatement = (values: readonly unknown[]) => Promise<SqlResult>;

/** A statement's text (with `$1, $2, …`) and its values. */
export interface BoundSql {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** In a statement that commits with a change, what stands for "the change was made". */
export const CHANGED = '{{changed}}';

/**
 * What a SQL database supplies to the one engine (`createSqlStore`): the engine writes every statement
 * once, with `$n` parameters, and a dialect only knows its driver, its types and how it makes a commit
 * wait for the disk.
 */
export interface SqlDialect {
  /** The table, quoted (and schema-qualified where allowed). */
  readonly table: string;
  /** The table's own unquoted name, for naming its indexes. */
  readonly tableName: string;
  /** Column types for the DDL. */
  readonly types: {
    readonly text: string;
    readonly integer: string;
    readonly time: string;
    /** A double-precision float (limit sums). */
    readonly real: string;
  };
  /** Extra columns the dialect needs (PostgreSQL: an insertion sequence), each with a leading comma. */
  readonly extraColumns: string;
  /**
   * The statements that add `column` to a table an older version created without it (none when the
   * table is new or has it): `migrate()` and an opening store run them after the `CREATE TABLE`.
   */
  addColumnIfMissing(column: string, type: string): readonly string[];
  /**
   * The statements that let a table an older version created hold every one of `statuses` (its status
   * CHECK names fewer): none when the table is new or current. `createAs(name)` is today's CREATE TABLE
   * under another name (SQLite cannot change a CHECK in place: it copies the table, keeping `rowid`).
   */
  widenStatusCheck(
    statuses: readonly ConfirmationStatus[],
    createAs: (table: string) => string,
  ): readonly string[];
  /** What breaks ties between rows created in the same millisecond, newest first. */
  readonly insertionOrder: string;
  /** `insertionOrder` as trailing index columns (empty where every index holds it already). */
  readonly indexedInsertionOrder: string;
  /** A list position's tie-break (decimal digits, at most a signed 64-bit integer) as it is bound. */
  order(digits: string): unknown;
  /**
   * `column` equal to the parameter `param`, as `list` filters: written so the planner reads the index
   * that starts with `column` (and the ORDER BY that `list` leads with it), not another one.
   */
  pinned(column: string, param: string): string;
  /** A time (epoch ms) as it is bound and stored. */
  time(ms: number): unknown;
  /** A stored time, as the driver hands it back, as an ISO 8601 string. */
  isoOf(stored: unknown): string;
  /** A subquery of the strings in the JSON array text `param` (a parameter), one row each. */
  jsonTextElements(param: string): string;
  /**
   * Where a statement binds few parameters (D1: 100), a bundle's rows are bound as one JSON array of
   * arrays `param`: a SELECT of one row per element, its `width` values as columns `c0, c1, …`, in order.
   * Absent where a multi-row `VALUES` binds any number.
   */
  jsonRows?(param: string, width: number): string;
  /** SQL for the JSON text `history` with the entry `entry` (a parameter) appended. */
  appendHistory(entry: string): string;
  /**
   * A text expression rewritten so that evaluating it lets its statement commit without waiting for the
   * disk; the engine applies it to every write that is not in `DECISIONS`. Identity where the dialect
   * makes decisions durable some other way.
   */
  relaxed(text: string): string;
  /**
   * Prepares `sql` (which uses `$1, $2, …`). `decision`: its commit must be on disk before it resolves
   * (the writes in `DECISIONS`).
   */
  prepare(sql: string, decision: boolean): SqlStatement;
  /**
   * Runs `change` (an `INSERT` or `UPDATE` without `RETURNING`) and, only when it changed a row, each of
   * `records` (the change's audit entry, a link it spends: each a statement whose condition holds
   * `CHANGED`) — in one transaction, so all of them commit or none does. Resolves with the rows
   * `change` changed. When the change alone could be made but its records could not, rejects with an
   * `AuditWriteError` (nothing was changed).
   */
  together(change: BoundSql, records: readonly BoundSql[], decision: boolean): Promise<number>;
}
