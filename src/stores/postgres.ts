import { createRequire } from 'node:module';
import type { Pool, PoolConfig } from 'pg';
import type { ConfirmationStore } from '../confirm/store.js';
import type { SqlDialect } from './sql/dialect.js';
import { schemaStatements } from './sql/schema.js';
import type { ConfirmationRow } from './sql/sql-row.js';
import { createSqlStore } from './sql/sql-store.js';
import { DEFAULT_TABLE, quoteTableName } from './sql/table-name.js';

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
   * - `'decisions'` (default): a claim, a reject and a markDelivered — the commits that decide whether
   *   something is sent — wait for the flush, which also makes every earlier commit durable (the WAL is
   *   sequential). Creating a confirmation and recording how a delivery ended commit without waiting: a
   *   server crash can lose them, which leaves a confirmation missing (ask again) or `delivering`
   *   (`recoverStale` makes it `unknown` for a person to settle) — never sent twice.
   * - `'full'`: every commit waits for the server's `synchronous_commit` setting as configured.
   */
  readonly synchronous?: 'decisions' | 'full';
}

/** A `ConfirmationStore` on PostgreSQL, with its schema step and a way to close its own pool. */
export interface PostgresConfirmationStore extends ConfirmationStore {
  /** The quoted table name in use. */
  readonly table: string;
  /**
   * Creates the table and its indexes if missing. Call it once at deploy or startup; it takes an
   * advisory lock, so many instances starting together do not trip over each other.
   */
  migrate(): Promise<void>;
  /** Ends the pool if the store created it (a pool passed as `pool` is left open). */
  close(): Promise<void>;
}

function createPool(connectionString: string, config: Omit<PoolConfig, 'connectionString'> = {}): Pool {
  let pg: typeof import('pg');
  try {
    pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  } catch (error) {
    throw new Error(
      'graded-tools/postgres needs the pg package (an optional peer dependency): npm install pg@8',
      {
        cause: error,
      },
    );
  }
  const pool = new pg.Pool({ ...config, connectionString });
  // An idle client losing its connection is reported as a pool 'error' event; unheard, Node would end
  // the process. The next query fails instead, and the caller gets STORE_FAILED.
  pool.on('error', () => {});
  return pool;
}

/**
 * Inside a statement, `set_config(…, true)` is `SET LOCAL` for that statement's own transaction, so its
 * commit does not wait for the WAL flush. Appended to a text value as an empty string.
 */
const WITHOUT_FLUSH_WAIT = "left(set_config('synchronous_commit', 'off', true), 0)";

const isoOf = (stored: unknown): string =>
  stored instanceof Date ? stored.toISOString() : new Date(String(stored)).toISOString();

/** The driver's error for a missing table, turned into what to do about it. */
function explained(error: unknown, table: string): unknown {
  if ((error as { code?: unknown }).code !== '42P01') return error;
  return new Error(`the table ${table} does not exist: call store.migrate() once before using the store`, {
    cause: error,
  });
}

/**
 * PostgreSQL for the SQL engine: `timestamptz` times, an identity column for insertion order, and a
 * commit that waits for the WAL flush unless the statement says otherwise — so under `'decisions'`
 * every write outside `DECISIONS` carries `WITHOUT_FLUSH_WAIT`.
 */
function postgresDialect(pool: Pool, table: string, tableName: string, relax: boolean): SqlDialect {
  return {
    table,
    tableName,
    types: { text: 'text', integer: 'integer', time: 'timestamptz' },
    extraColumns: ',\n      seq bigint GENERATED ALWAYS AS IDENTITY',
    insertionOrder: 'seq',
    indexedInsertionOrder: ', seq',
    time: (ms) => new Date(ms).toISOString(),
    isoOf,
    // `history` is a JSON array kept as text (exactly as written; jsonb would reject a \u0000 escape and
    // reorder keys); appending in SQL keeps every change a single statement.
    appendHistory: (entry) =>
      `left(history, -1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${entry} || ']'`,
    relaxed: (text) => (relax ? `${text} || ${WITHOUT_FLUSH_WAIT}` : text),
    prepare(sql) {
      // A decision needs nothing here: a commit waits for the flush unless relaxed.
      return async (values) => {
        try {
          const result = await pool.query<ConfirmationRow>(sql, values as unknown[]);
          return { rows: result.rows, changed: result.rowCount ?? 0 };
        } catch (error) {
          throw explained(error, table);
        }
      };
    },
  };
}

/**
 * A confirmation store on PostgreSQL (`pg@8`, an optional peer dependency), shared by every instance
 * of the app. Each status change is one conditional `UPDATE … WHERE id = $1 AND status = … RETURNING *`:
 * row locking makes exactly one of any number of concurrent confirms — on any host — win the claim.
 * Create the schema with `migrate()` first.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createPostgresStore } from 'graded-tools/postgres';
 *
 * const store = createPostgresStore({ connectionString: 'postgres://app@127.0.0.1:5432/app' });
 * await store.migrate();
 * const registry = new ToolRegistry({ confirmations: store });
 * // … on shutdown:
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
  const dialect = postgresDialect(pool, table, tableName, synchronous === 'decisions');
  const store: ConfirmationStore = createSqlStore(dialect);

  return {
    ...store,
    table,

    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Two instances creating the same table at once can collide in the catalog; serialise them.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`graded-tools:${table}`]);
        for (const statement of schemaStatements(dialect)) await client.query(statement);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },

    async close() {
      if (owned) await pool.end();
    },
  };
}
