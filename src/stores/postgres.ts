import { createRequire } from 'node:module';
import type { Pool, PoolConfig, QueryResultRow } from 'pg';
import { toIso } from '../confirm/iso-time.js';
import type {
  ConfirmationQuery,
  ConfirmationStore,
  StoreChange,
  TransitionOutcome,
} from '../confirm/store.js';
import { FINISHED_STATUSES } from '../confirm/store.js';
import {
  clampLimit,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from '../confirm/transitions.js';
import { CONFIRMATION_STATUSES, type Confirmation } from '../confirm/types.js';
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

// `history` is a JSON array kept as text (exactly as written; jsonb would reject a \u0000 escape and
// reorder keys); appending in SQL keeps every change a single statement.
const APPEND_HISTORY = (param: string) =>
  `history = left(history, -1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${param} || ']'`;

/**
 * Inside a statement, `set_config(…, true)` is `SET LOCAL` for that statement's own transaction, so this
 * one commit does not wait for the WAL flush. Appended to a text value as an empty string.
 */
const WITHOUT_FLUSH_WAIT = "left(set_config('synchronous_commit', 'off', true), 0)";

const isoOf = (time: unknown): string =>
  time instanceof Date ? time.toISOString() : new Date(String(time)).toISOString();

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
  // Commits that decide nothing about sending skip the flush wait under 'decisions'.
  const relaxed = synchronous === 'decisions' ? ` || ${WITHOUT_FLUSH_WAIT}` : '';
  if (owned && typeof options.connectionString !== 'string') {
    throw new TypeError('createPostgresStore: pass { pool } (a pg Pool) or { connectionString }.');
  }
  const pool = options.pool ?? createPool(options.connectionString as string, options.poolConfig);

  const query = async (text: string, values: unknown[]): Promise<QueryResultRow[]> => {
    try {
      return (await pool.query(text, values)).rows;
    } catch (error) {
      if ((error as { code?: unknown }).code === '42P01') {
        throw new Error(
          `the table ${table} does not exist: call store.migrate() once before using the store`,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
  };
  const fromRow = (row: QueryResultRow): Confirmation => rowToConfirmation(row as ConfirmationRow, isoOf);

  const selectSql = `SELECT * FROM ${table} WHERE id = $1`;
  /** Why a conditional update matched nothing, read after the fact (for the message only). */
  const refusal = async (
    id: string,
    transition: Transition | undefined,
    now: number,
  ): Promise<TransitionOutcome> => {
    const [row] = await query(selectSql, [id]);
    if (row === undefined) return { ok: false, reason: 'not-found' };
    const current = fromRow(row);
    const expired =
      transition?.refusedWhenExpired === true &&
      transition.from.includes(current.status) &&
      Date.parse(current.expiresAt) <= now;
    return { ok: false, reason: expired ? 'expired' : 'wrong-status', confirmation: current };
  };

  const moveSql = new Map<Transition, string>();
  const move = async (
    id: string,
    transition: Transition,
    change: StoreChange,
  ): Promise<TransitionOutcome> => {
    let sql = moveSql.get(transition);
    if (sql === undefined) {
      sql =
        `UPDATE ${table} SET status = ${statusLiteral(transition.to)}, updated_at = $2, ${APPEND_HISTORY('$3')}` +
        (transition.startsAttempt ? ', attempt = attempt + 1' : '') +
        ` WHERE id = $1 AND status IN (${statusList(transition.from)})` +
        (transition.refusedWhenExpired ? ' AND expires_at > $2' : '') +
        ' RETURNING *';
      moveSql.set(transition, sql);
    }
    const entry = JSON.stringify(historyEntry(change, transition.to));
    const [row] = await query(sql, [id, toIso(change.now), entry]);
    return row === undefined ? refusal(id, transition, change.now) : { ok: true, confirmation: fromRow(row) };
  };

  const expireSql = `UPDATE ${table} SET status = 'expired', updated_at = $1, ${APPEND_HISTORY('$2')} WHERE status = 'pending' AND expires_at <= $1`;

  return {
    table,

    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // Two instances creating the same table at once can collide in the catalog; serialise them.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`graded-tools:${table}`]);
        await client.query(`
          CREATE TABLE IF NOT EXISTS ${table} (
            id text PRIMARY KEY,
            tool text NOT NULL,
            status text NOT NULL ${statusCheck(CONFIRMATION_STATUSES)},
            input text NOT NULL,
            payload text NOT NULL,
            digest text NOT NULL,
            actor text,
            scope text,
            created_at timestamptz NOT NULL,
            expires_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            attempt integer NOT NULL DEFAULT 0,
            result text,
            error text,
            history text NOT NULL,
            seq bigint GENERATED ALWAYS AS IDENTITY
          )`);
        await client.query(
          `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'status_created')} ON ${table} (status, created_at)`,
        );
        await client.query(
          `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'created')} ON ${table} (created_at)`,
        );
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

    async create(confirmation) {
      await query(
        `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((column, i) => `$${i + 1}${column === 'history' ? relaxed : ''}`).join(', ')})`,
        confirmationValues(confirmation, (iso) => iso),
      );
    },

    async get(id) {
      const [row] = await query(selectSql, [id]);
      return row === undefined ? undefined : fromRow(row);
    },

    async list(q: ConfirmationQuery = {}) {
      const where: string[] = [];
      const values: unknown[] = [];
      if (q.status !== undefined) {
        values.push(q.status);
        where.push(`status = $${values.length}`);
      }
      if (q.tool !== undefined) {
        values.push(q.tool);
        where.push(`tool = $${values.length}`);
      }
      if (q.expiresAfter !== undefined) {
        values.push(toIso(q.expiresAfter));
        where.push(`expires_at > $${values.length}`);
      }
      values.push(clampLimit(q.limit));
      const rows = await query(
        `SELECT * FROM ${table}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY created_at DESC, seq DESC LIMIT $${values.length}`,
        values,
      );
      return rows.map(fromRow);
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
      const [row] = await query(
        `UPDATE ${table} SET status = ${statusLiteral(change.status)}, updated_at = $2, result = $4, error = $5, ${APPEND_HISTORY('$6')}${relaxed}` +
          ` WHERE id = $1 AND attempt = $3 AND status IN (${statusList(finishFrom(change.status))}) RETURNING *`,
        [id, toIso(change.now), change.attempt, change.resultJson ?? null, change.error ?? null, entry],
      );
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
      const rows =
        id === undefined
          ? await query(`${expireSql} RETURNING *`, [toIso(now), entry])
          : await query(`${expireSql} AND id = $3 RETURNING *`, [toIso(now), entry, id]);
      return rows.map(fromRow);
    },

    async recoverStale({ now, olderThanMs }) {
      const note = staleNote(olderThanMs);
      const entry = JSON.stringify(historyEntry({ now, note }, 'unknown'));
      const rows = await query(
        `UPDATE ${table} SET status = 'unknown', updated_at = $1, error = $3, ${APPEND_HISTORY('$4')}` +
          " WHERE status = 'delivering' AND updated_at < $2 RETURNING *",
        [toIso(now), toIso(now - olderThanMs), note, entry],
      );
      return rows.map(fromRow);
    },

    async prune({ before }) {
      const rows = await query(
        `DELETE FROM ${table} WHERE status IN (${statusList(FINISHED_STATUSES)}) AND updated_at < $1 RETURNING id`,
        [toIso(before)],
      );
      return rows.length;
    },
  };
}
