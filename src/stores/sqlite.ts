import { schemaStatements } from './sql/schema.js';
import { sequencingTimer } from './sql/sequencing-timer.js';
import { auditSchemaStatements, auditTableOf, sqlAuditChain } from './sql/sql-audit.js';
import { createSqlStore } from './sql/sql-store.js';
import { sqliteDialect, sqliteSequencer } from './sql/sqlite-dialect.js';
import { type SqliteDatabase, type SqliteDriver, sqliteDriverOf } from './sql/sqlite-driver.js';
import { sqliteOpener } from './sql/sqlite-open.js';
import { watchDataVersion } from './sql/sqlite-watch.js';
import { DEFAULT_TABLE, quoteTableName } from './sql/table-name.js';
import type { FullConfirmationStore, StoreNotice } from './store.js';

export type {
  BetterSqlite3Database,
  BunSqliteDatabase,
  NodeSqliteDatabase,
  SqliteDatabase,
} from './sql/sqlite-driver.js';

/**
 * Where the SQLite store keeps its data: a file it opens (with `bun:sqlite` on Bun, otherwise
 * better-sqlite3 when installed, otherwise Node's `node:sqlite`), or a database you own of any of the
 * three drivers.
 */
export type SqliteStoreSource =
  | { readonly path: string; readonly database?: never }
  | { readonly database: SqliteDatabase; readonly path?: never };

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
   *   a claim (or a retry's reclaim), a reject, a markDelivered, an approval toward a quorum, a limit's
   *   spend: `DECISIONS` — is synced before it returns, and every earlier commit with it (WAL is one file). Creating a confirmation and recording how a delivery ended ride on the next
   *   sync: a power cut can lose them, which leaves a confirmation missing (ask again) or `delivering`
   *   (`recoverStale` makes it `unknown` for a person to settle) — never sent twice.
   * - `'full'`: every commit is synced; about three times slower.
   * - `'normal'`: no commit waits for the disk; still safe when the process crashes, but a power cut can
   *   lose a claim, so a confirmed send could come back `pending`.
   */
  readonly synchronous?: 'decisions' | 'full' | 'normal';
  /**
   * How often `watch` checks whether another connection (another process) changed the file (default
   * 1,000 ms): one cheap `PRAGMA data_version` read per interval, only while something watches.
   */
  readonly watchIntervalMs?: number;
}

/** A `ConfirmationStore` on SQLite, with a way to close the file it opened. */
export interface SqliteConfirmationStore extends FullConfirmationStore {
  /** The quoted table name in use. */
  readonly table: string;
  /**
   * Calls `listener` with `{}` (read again) within about `watchIntervalMs` after another connection to
   * the file commits a change; this store's own writes are not reported (its registry does that).
   */
  watch(listener: (notice: StoreNotice) => void): () => void;
  /**
   * Stops watching and the audit log's timer, chains the entries still pending, and closes the
   * database if the store opened it (one passed as `database` is left open).
   */
  close(): void;
}

// Found once when the entry loads; a missing driver is an error only when a file is to be opened.
const opener = await sqliteOpener().catch((error: unknown) => error as Error);

function openDatabase(path: string): SqliteDriver {
  if (typeof opener === 'function') return opener(path);
  throw new Error(opener.message.replace('graded-tools needs', 'graded-tools/sqlite needs'), {
    cause: opener.cause,
  });
}

/**
 * A confirmation store in one SQLite file, through better-sqlite3 (`better-sqlite3@12`, an optional
 * peer dependency), Node's built-in `node:sqlite` (Node >= 22.5, Deno) or Bun's `bun:sqlite`. WAL
 * mode, so readers never block the writer; every status change is one conditional
 * `UPDATE … WHERE id = $1 AND status IN (…)`, so of any number of processes confirming the same id,
 * exactly one claims it. `prune` deletes in batches of a few hundred rows, letting other work (and
 * other processes' writes) in between. Survives restarts. For several hosts, use `graded-tools/postgres`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createSqliteStore } from 'graded-tools/sqlite';
 *
 * const store = createSqliteStore({ path: './confirmations.db', watchIntervalMs: 500 });
 * const registry = new ToolRegistry({ confirmations: store });
 * // Another process (a second app instance, a worker) changed the file: read the inbox again.
 * const unwatch = store.watch(() => void registry.confirmations.list({ status: 'pending' }));
 * // … on shutdown:
 * unwatch();
 * store.close();
 * ```
 */
export function createSqliteStore(options: SqliteStoreSource & SqliteStoreOptions): SqliteConfirmationStore {
  const tableName = options.table ?? DEFAULT_TABLE;
  const table = quoteTableName(tableName, false);
  const owned = options.database === undefined;
  if (owned && typeof options.path !== 'string') {
    throw new TypeError(
      'createSqliteStore: pass { path } (a file to open) or { database } (a better-sqlite3, node:sqlite or bun:sqlite database).',
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
  const watchIntervalMs = options.watchIntervalMs ?? 1_000;
  if (!Number.isInteger(watchIntervalMs) || watchIntervalMs < 1) {
    throw new RangeError('createSqliteStore: `watchIntervalMs` must be a positive integer.');
  }
  const db =
    options.database === undefined ? openDatabase(options.path as string) : sqliteDriverOf(options.database);
  if (owned) {
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  }
  const audit = auditTableOf(table);
  // Chained off the decision path by the store's own timer: covered with nothing called by the app.
  const sequencer = sqliteSequencer(db, audit);
  const sequencing = sequencingTimer(sequencer.sequence);
  const dialect = sqliteDialect({
    db,
    table,
    tableName,
    syncDecisions: owned && synchronous === 'decisions',
  });
  const auditColumns = (db.prepare(`PRAGMA table_info(${audit})`).all([]) as { name: string }[]).map(
    ({ name }) => name,
  );
  db.exec(
    [...schemaStatements(dialect), ...auditSchemaStatements(table, 'sqlite', auditColumns)].join(';\n'),
  );
  const store = createSqlStore(
    dialect,
    sqlAuditChain(dialect, sequencer.sequence, { onRecord: sequencing.start }),
  );
  const watcher = watchDataVersion(db, watchIntervalMs);
  return {
    ...store,
    table,
    watch: watcher.watch,
    close() {
      watcher.close();
      sequencing.halt();
      // What is still pending is chained now; one that cannot be is left for `verify` to count.
      if (db.isOpen)
        try {
          sequencer.drain();
        } catch {}
      if (owned && db.isOpen) db.close();
    },
  };
}
