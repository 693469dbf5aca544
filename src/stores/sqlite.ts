import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { toIso } from '../confirm/iso-time.js';
import type { ConfirmationQuery, ConfirmationStore, TransitionOutcome } from '../confirm/store.js';
import { FINISHED_STATUSES } from '../confirm/store.js';
import {
  clampLimit,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from '../confirm/transitions.js';
import { CONFIRMATION_STATUSES, type Confirmation, type ConfirmationStatus } from '../confirm/types.js';
import {
  COLUMNS,
  type ConfirmationRow,
  confirmationValues,
  rowToConfirmation,
  statusCheck,
  statusList,
  statusLiteral,
} from './sql-row.js';
import { DEFAULT_TABLE, indexName, quoteTableName } from './table-name.js';

/** Where the SQLite store keeps its data: a file it opens, or a `better-sqlite3` database you own. */
export type SqliteStoreSource =
  | { readonly path: string; readonly database?: never }
  | { readonly database: BetterSqlite3.Database; readonly path?: never };

/** Options for `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** The table (default `graded_tools_confirmations`); created if missing. */
  readonly table?: string;
  /**
   * How long a write waits for another process's lock before failing with `STORE_FAILED` (default
   * 5,000 ms). Only set on a database the store opens.
   */
  readonly busyTimeoutMs?: number;
  /**
   * When commits reach the disk (only set on a database the store opens):
   * - `'decisions'` (default): every commit that could let a send go out twice or a refusal be undone —
   *   a claim, a reject, a markDelivered — is synced before it returns, and every earlier commit with it
   *   (WAL is one file). Creating a confirmation and recording how a delivery ended ride on the next
   *   sync: a power cut can lose them, which leaves a confirmation missing (ask again) or `delivering`
   *   (`recoverStale` makes it `unknown` for a person to settle) — never sent twice.
   * - `'full'`: every commit is synced; about three times slower.
   * - `'normal'`: no commit waits for the disk; still safe when the process crashes, but a power cut can
   *   lose a claim, so a confirmed send could come back `pending`.
   */
  readonly synchronous?: 'decisions' | 'full' | 'normal';
}

/** A `ConfirmationStore` on SQLite, with a way to close the file it opened. */
export interface SqliteConfirmationStore extends ConfirmationStore {
  /** The quoted table name in use. */
  readonly table: string;
  /** Closes the database if the store opened it (one passed as `database` is left open). */
  close(): void;
}

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

function openDatabase(path: string): Database {
  let Driver: typeof BetterSqlite3;
  try {
    Driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(
      'graded-tools/sqlite needs the better-sqlite3 package (an optional peer dependency): npm install better-sqlite3@12',
      { cause: error },
    );
  }
  return new Driver(path);
}

// `history` is a JSON array kept as text; appending in SQL keeps every change a single statement.
const APPEND_HISTORY =
  "history = substr(history, 1, length(history) - 1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || @entry || ']'";

/**
 * A confirmation store in one SQLite file (`better-sqlite3@12`, an optional peer dependency). WAL
 * mode, so readers never block the writer; every status change is one conditional
 * `UPDATE … WHERE id = ? AND status = … RETURNING *`, so of any number of processes confirming the
 * same id, exactly one claims it. Survives restarts. For several hosts, use `graded-tools/postgres`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createSqliteStore } from 'graded-tools/sqlite';
 *
 * const store = createSqliteStore({ path: './confirmations.db' });
 * const registry = new ToolRegistry({ confirmations: store });
 * // … on shutdown:
 * store.close();
 * ```
 */
export function createSqliteStore(options: SqliteStoreSource & SqliteStoreOptions): SqliteConfirmationStore {
  const tableName = options.table ?? DEFAULT_TABLE;
  const table = quoteTableName(tableName, false);
  const owned = options.database === undefined;
  if (owned && typeof options.path !== 'string') {
    throw new TypeError(
      'createSqliteStore: pass { path } (a file to open) or { database } (a better-sqlite3 Database).',
    );
  }
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new RangeError('createSqliteStore: `busyTimeoutMs` must be a non-negative integer.');
  }
  const synchronous = options.synchronous ?? 'decisions';
  if (!['decisions', 'full', 'normal'].includes(synchronous)) {
    throw new RangeError("createSqliteStore: `synchronous` must be 'decisions', 'full' or 'normal'.");
  }
  const db = options.database ?? openDatabase(options.path as string);
  if (owned) {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${table} (
      id TEXT PRIMARY KEY NOT NULL,
      tool TEXT NOT NULL,
      status TEXT NOT NULL ${statusCheck(CONFIRMATION_STATUSES)},
      input TEXT NOT NULL,
      payload TEXT NOT NULL,
      digest TEXT NOT NULL,
      actor TEXT,
      scope TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      attempt INTEGER NOT NULL DEFAULT 0,
      result TEXT,
      error TEXT,
      history TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'status_created')} ON ${table} (status, created_at);
    CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'created')} ON ${table} (created_at);
  `);

  const fromRow = (row: unknown): Confirmation =>
    rowToConfirmation(row as ConfirmationRow, (time) => toIso(Number(time)));
  const insert = db.prepare(
    `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
  );
  const selectOne = db.prepare(`SELECT * FROM ${table} WHERE id = ?`);
  const listStatements = new Map<string, Statement>();

  const moves = new Map<Transition, Statement>();
  const moveStatement = (transition: Transition): Statement => {
    let statement = moves.get(transition);
    if (statement === undefined) {
      statement = db.prepare(
        `UPDATE ${table} SET status = ${statusLiteral(transition.to)}, updated_at = @now, ${APPEND_HISTORY}` +
          (transition.startsAttempt ? ', attempt = attempt + 1' : '') +
          ` WHERE id = @id AND status IN (${statusList(transition.from)})` +
          (transition.refusedWhenExpired ? ' AND expires_at > @now' : '') +
          ' RETURNING *',
      );
      moves.set(transition, statement);
    }
    return statement;
  };
  const finishStatements = new Map<string, Statement>();
  const finishStatement = (status: 'delivered' | 'failed' | 'unknown'): Statement => {
    let statement = finishStatements.get(status);
    if (statement === undefined) {
      statement = db.prepare(
        `UPDATE ${table} SET status = ${statusLiteral(status)}, updated_at = @now, result = @result, error = @error, ${APPEND_HISTORY}` +
          ` WHERE id = @id AND attempt = @attempt AND status IN (${statusList(finishFrom(status))}) RETURNING *`,
      );
      finishStatements.set(status, statement);
    }
    return statement;
  };
  const expireSql = `UPDATE ${table} SET status = 'expired', updated_at = @now, ${APPEND_HISTORY} WHERE status = 'pending' AND expires_at <= @now`;
  const expireAll = db.prepare(`${expireSql} RETURNING *`);
  const expireOne = db.prepare(`${expireSql} AND id = @id RETURNING *`);
  const recoverStatement = db.prepare(
    `UPDATE ${table} SET status = 'unknown', updated_at = @now, error = @note, ${APPEND_HISTORY}` +
      " WHERE status = 'delivering' AND updated_at < @cutoff RETURNING *",
  );
  const pruneStatement = db.prepare(
    `DELETE FROM ${table} WHERE status IN (${statusList(FINISHED_STATUSES)}) AND updated_at < ?`,
  );

  /** Why a conditional update matched nothing, read after the fact (for the message only). */
  const refusal = (id: string, transition: Transition | undefined, now: number): TransitionOutcome => {
    const row = selectOne.get(id);
    if (row === undefined) return { ok: false, reason: 'not-found' };
    const current = fromRow(row);
    const expired =
      transition?.refusedWhenExpired === true &&
      transition.from.includes(current.status) &&
      Date.parse(current.expiresAt) <= now;
    return { ok: false, reason: expired ? 'expired' : 'wrong-status', confirmation: current };
  };

  // 'decisions': the commits that decide whether something is sent are synced, the rest ride along.
  const syncDecisions = owned && synchronous === 'decisions';
  const syncFull = syncDecisions ? db.prepare('PRAGMA synchronous = FULL') : undefined;
  const syncNormal = syncDecisions ? db.prepare('PRAGMA synchronous = NORMAL') : undefined;
  const durably = <T>(write: () => T): T => {
    if (syncFull === undefined || syncNormal === undefined) return write();
    syncFull.run();
    try {
      return write();
    } finally {
      syncNormal.run();
    }
  };

  const move = (
    id: string,
    transition: Transition,
    change: { now: number; by?: string | undefined; note?: string | undefined },
  ): TransitionOutcome => {
    const entry = JSON.stringify(historyEntry(change, transition.to));
    const row = durably(() => moveStatement(transition).get({ id, now: change.now, entry }));
    return row === undefined ? refusal(id, transition, change.now) : { ok: true, confirmation: fromRow(row) };
  };

  return {
    table,

    close() {
      if (owned && db.open) db.close();
    },

    async create(confirmation) {
      insert.run(...confirmationValues(confirmation, (iso) => Date.parse(iso)));
    },

    async get(id) {
      const row = selectOne.get(id);
      return row === undefined ? undefined : fromRow(row);
    },

    async list(query: ConfirmationQuery = {}) {
      const where: string[] = [];
      const params: Record<string, unknown> = { limit: clampLimit(query.limit) };
      if (query.status !== undefined) {
        where.push('status = @status');
        params.status = query.status;
      }
      if (query.tool !== undefined) {
        where.push('tool = @tool');
        params.tool = query.tool;
      }
      if (query.expiresAfter !== undefined) {
        where.push('expires_at > @expiresAfter');
        params.expiresAfter = query.expiresAfter;
      }
      const key = where.join(' AND ');
      let statement = listStatements.get(key);
      if (statement === undefined) {
        statement = db.prepare(
          `SELECT * FROM ${table}${key === '' ? '' : ` WHERE ${key}`} ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
        );
        listStatements.set(key, statement);
      }
      return statement.all(params).map(fromRow);
    },

    async claim(id, change) {
      return move(id, TRANSITIONS.claim, change);
    },

    async reclaim(id, change) {
      return move(id, TRANSITIONS.reclaim, change);
    },

    async finish(id, change) {
      const entry = JSON.stringify(
        historyEntry({ now: change.now, by: change.by, note: change.note ?? change.error }, change.status),
      );
      const row = finishStatement(change.status).get({
        id,
        now: change.now,
        attempt: change.attempt,
        result: change.resultJson ?? null,
        error: change.error ?? null,
        entry,
      });
      return row === undefined
        ? refusal(id, undefined, change.now)
        : { ok: true, confirmation: fromRow(row) };
    },

    async reject(id, change) {
      return move(id, TRANSITIONS.reject, change);
    },

    async markDelivered(id, change) {
      return move(id, TRANSITIONS.markDelivered, change);
    },

    async expire({ now, id }) {
      const entry = JSON.stringify(historyEntry({ now }, 'expired'));
      const rows = id === undefined ? expireAll.all({ now, entry }) : expireOne.all({ now, id, entry });
      return rows.map(fromRow);
    },

    async recoverStale({ now, olderThanMs }) {
      const note = staleNote(olderThanMs);
      const entry = JSON.stringify(historyEntry({ now, note }, 'unknown' satisfies ConfirmationStatus));
      return recoverStatement.all({ now, cutoff: now - olderThanMs, note, entry }).map(fromRow);
    },

    async prune({ before }) {
      return pruneStatement.run(before).changes;
    },
  };
}
