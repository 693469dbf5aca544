import type { Pool, PoolConfig } from 'pg';
import { postgresDialect, postgresSequencer } from './sql/postgres-dialect.js';
import { notifyChannel, notifyStatements, watchNotifications } from './sql/postgres-watch.js';
import { schemaStatements } from './sql/schema.js';
import { sequencingTimer } from './sql/sequencing-timer.js';
import { auditSchemaStatements, auditTableOf, sqlAuditChain } from './sql/sql-audit.js';
import { createSqlStore } from './sql/sql-store.js';
import { DEFAULT_TABLE, quoteTableName } from './sql/table-name.js';
import type { FullConfirmationStore, StoreNotice } from './store.js';

/** Where the PostgreSQL store connects: a `pg` pool you own, or a connection string it pools itself. */
export type PostgresStoreSource =
  | { readonly pool: Pool; readonly connectionString?: never }
  | {
      readonly connectionString: string;
      readonly pool?: never;
      readonly poolConfig?: Omit<PoolConfig, 'connectionString'>;
    };

/** Options for `createPostgresStore`. */
export interface PostgresStoreOptions {
  /** The table, optionally `schema.table` (default `graded_tools_confirmations`). */
  readonly table?: string;
  /**
   * Which commits wait for the WAL flush:
   * - `'decisions'` (default): a claim (or a retry's reclaim), a reject, a markDelivered, an approval
   *   toward a quorum and a limit's spend — the commits that decide whether something is sent or a call
   *   refused, `DECISIONS` — wait for the flush, which also makes
   *   every earlier commit durable (the WAL is sequential). Every other write commits without waiting
   *   (creating, recording how a delivery ended, expire, recoverStale, prune): a server crash can lose
   *   them, which leaves a confirmation missing (ask again), `delivering` (`recoverStale` makes it
   *   `unknown` for a person to settle) or still to sweep — never sent twice.
   * - `'full'`: every commit waits for the server's `synchronous_commit` setting as configured.
   */
  readonly synchronous?: 'decisions' | 'full';
}

/** A `ConfirmationStore` on PostgreSQL, with its schema step and a way to close its own pool. */
export interface PostgresConfirmationStore extends FullConfirmationStore {
  /** The quoted table name in use. */
  readonly table: string;
  /**
   * Creates the table, its indexes and the trigger that announces changes (`NOTIFY`) if missing. Call
   * it once at deploy or startup; it takes an advisory lock, so many instances starting together do
   * not trip over each other.
   */
  migrate(): Promise<void>;
  /**
   * Calls `listener` with `{ id }` soon after any instance (this one included) creates or changes a
   * confirmation, through `LISTEN/NOTIFY` (the trigger `migrate()` adds): every change but a claim's
   * move to `delivering`, whose outcome follows. While anything watches, one
   * of the pool's connections is held for it (size the pool for that); after a lost connection it
   * listens again and calls `listener` with `{}` (read again).
   */
  watch(listener: (notice: StoreNotice) => void): () => void;
  /** Stops watching, and ends the pool if the store created it (a pool passed as `pool` is left open). */
  close(): Promise<void>;
}

// Loaded once with the entry, by `import` (bundlers see it); a missing `pg` is only an error once a
// pool is to be made, so `{ pool }` users and type-only importers never hit it.
const pg: { readonly Pool: typeof Pool } | { readonly missing: unknown } = await import('pg').then(
  (loaded) => ({ Pool: (loaded.default ?? loaded).Pool }),
  (error: unknown) => ({ missing: error }),
);

function createPool(connectionString: string, config: Omit<PoolConfig, 'connectionString'> = {}): Pool {
  if ('missing' in pg) {
    throw new Error(
      'graded-tools/postgres needs the pg package (an optional peer dependency): npm install pg@8',
      { cause: pg.missing },
    );
  }
  const pool = new pg.Pool({ ...config, connectionString });
  // An idle client losing its connection is reported as a pool 'error' event; unheard, Node would end
  // the process. The next query fails instead, and the caller gets STORE_FAILED.
  pool.on('error', () => {});
  return pool;
}

/**
 * A confirmation store on PostgreSQL (`pg@8`, an optional peer dependency), shared by every instance
 * of the app. Each status change is one conditional `UPDATE … WHERE id = $1 AND status IN (…)`: row
 * locking makes exactly one of any number of concurrent confirms — on any host — win the claim.
 * `prune` deletes in batches, counting in the database. Create the schema with `migrate()` first.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createPostgresStore } from 'graded-tools/postgres';
 *
 * const store = createPostgresStore({ connectionString: 'postgres://app@127.0.0.1:5432/app' });
 * await store.migrate();
 * const registry = new ToolRegistry({ confirmations: store });
 * // Any instance created or changed a confirmation: `id` says which.
 * const unwatch = store.watch(({ id }) => {
 *   if (id !== undefined) void registry.confirmations.get(id);
 * });
 * // … on shutdown:
 * unwatch();
 * await store.close();
 * ```
 */
export function createPostgresStore(
  options: PostgresStoreSource & PostgresStoreOptions,
): PostgresConfirmationStore {
  const tableName = options.table ?? DEFAULT_TABLE;
  const table = quoteTableName(tableName, true);
  const owned = options.pool === undefined;
  const synchronous = options.synchronous ?? 'decisions';
  if (synchronous !== 'decisions' && synchronous !== 'full') {
    throw new RangeError("createPostgresStore: `synchronous` must be 'decisions' or 'full'.");
  }
  if (owned && typeof options.connectionString !== 'string') {
    throw new TypeError('createPostgresStore: pass { pool } (a pg Pool) or { connectionString }.');
  }
  const pool = options.pool ?? createPool(options.connectionString as string, options.poolConfig);
  const dialect = postgresDialect({ pool, table, tableName, relax: synchronous === 'decisions' });
  const sequence = postgresSequencer(pool, auditTableOf(table));
  // Many instances write at once: a timer of each that commits entries chains them, off the decision.
  const sequencing = sequencingTimer(sequence);
  const audit = sqlAuditChain(dialect, sequence, { onRecord: sequencing.start });
  const store = createSqlStore(dialect, audit);
  const watcher = watchNotifications(pool, notifyChannel(tableName));

  return {
    ...store,
    table,

    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Two instances creating the same table at once can collide in the catalog; serialise them.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`graded-tools:${table}`]);
        for (const statement of [
          ...schemaStatements(dialect),
          ...notifyStatements(table, tableName),
          ...auditSchemaStatements(table, 'postgres'),
        ])
          await client.query(statement);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },

    watch: watcher.watch,

    async close() {
      watcher.close();
      await sequencing.stop();
      if (owned) await pool.end();
    },
  };
}
