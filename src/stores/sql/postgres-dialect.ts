import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { AuditWriteError } from '../../audit/audit-chain.js';
import { chained, headOf, sequencerOf } from './audit-sequencer.js';
import { type BoundSql, CHANGED, type SqlDialect } from './dialect.js';
import { type AuditRow, type AuditSequencer, UNSEQUENCED_COLUMNS } from './sql-audit.js';
import type { ConfirmationRow } from './sql-row.js';
import { indexName } from './table-name.js';

/**
 * Inside a statement, `set_config(…, true)` is `SET LOCAL` for that statement's own transaction, so its
 * commit does not wait for the WAL flush. Appended to a text value as an empty string.
 */
const WITHOUT_FLUSH_WAIT = "left(set_config('synchronous_commit', 'off', true), 0)";

const names = new Map<string, string>();
/**
 * A statement the server parses and plans once per connection (a named prepared statement), not on
 * every call: the store issues a few texts over and over.
 */
function prepared(
  text: string,
  values: readonly unknown[],
): { name: string; text: string; values: unknown[] } {
  let name = names.get(text);
  if (name === undefined) {
    name = `graded_tools_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}

/** Whether `change` runs without error on its own (in a transaction that is rolled back). */
async function succeedsAlone(pool: Pool, change: BoundSql): Promise<boolean> {
  const client = await pool.connect().catch(() => undefined);
  if (client === undefined) return false;
  try {
    await client.query('BEGIN');
    await client.query(change.sql, change.values as unknown[]);
    return true;
  } catch {
    return false;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}

const isoOf = (stored: unknown): string =>
  stored instanceof Date ? stored.toISOString() : new Date(String(stored)).toISOString();

/** The driver's error for a missing table, turned into what to do about it. */
function explained(error: unknown, table: string): unknown {
  if ((error as { code?: unknown }).code !== '42P01') return error;
  return new Error(`the table ${table} does not exist: call store.migrate() once before using the store`, {
    cause: error,
  });
}

/** `sql` with its parameters `$n` renumbered from `$n + offset`. */
const shifted = (sql: string, offset: number): string =>
  offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);

/**
 * A change and its records as one statement: the change a data-modifying CTE that returns a row per
 * row it changed, each record a CTE of its own that writes only when that CTE returned one. One
 * statement is one transaction: all commit, or (any of them failing) none.
 */
function composed(change: BoundSql, records: readonly BoundSql[]): BoundSql {
  const values = [...change.values];
  const parts = [`changed AS (${change.sql} RETURNING 1)`];
  for (const [i, record] of records.entries()) {
    const sql = shifted(record.sql, values.length).replace(CHANGED, 'EXISTS (SELECT 1 FROM changed)');
    parts.push(`record_${i} AS (${sql})`);
    values.push(...record.values);
  }
  return { sql: `WITH ${parts.join(', ')} SELECT count(*)::int AS changed FROM changed`, values };
}

/**
 * PostgreSQL for the SQL engine: `timestamptz` times, an identity column for insertion order, and a
 * commit that waits for the WAL flush unless the statement says otherwise — so under `'decisions'`
 * every write outside `DECISIONS` carries `WITHOUT_FLUSH_WAIT`.
 */
export function postgresDialect({
  pool,
  table,
  tableName,
  relax,
}: {
  readonly pool: Pool;
  readonly table: string;
  readonly tableName: string;
  /** Let writes outside `DECISIONS` skip the flush wait (`synchronous: 'decisions'`). */
  readonly relax: boolean;
}): SqlDialect {
  return {
    table,
    tableName,
    types: { text: 'text', integer: 'integer', time: 'timestamptz', real: 'double precision' },
    extraColumns: ',\n      seq bigint GENERATED ALWAYS AS IDENTITY',
    addColumnIfMissing: (column, type) => [
      `ALTER TABLE IF EXISTS ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`,
    ],
    // Replaced (by its name, as PostgreSQL named it) only when it lacks one of the statuses.
    widenStatusCheck(statuses) {
      const current = statuses.map((status) => `def LIKE '%''${status}''%'`).join(' AND ');
      const list = statuses.map((status) => `'${status}'`).join(', ');
      return [
        `DO $do$ DECLARE stale text; BEGIN
  SELECT conname INTO stale FROM (SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = to_regclass('${table}') AND contype = 'c') AS checks
    WHERE def LIKE '%status%' AND NOT (${current}) LIMIT 1;
  IF stale IS NOT NULL THEN
    EXECUTE format('ALTER TABLE ${table} DROP CONSTRAINT %I', stale);
    ALTER TABLE ${table} ADD CONSTRAINT ${indexName(tableName, 'status_check')} CHECK (status IN (${list}));
  END IF;
END $do$`,
      ];
    },
    insertionOrder: 'seq',
    indexedInsertionOrder: ', seq',
    order: (digits) => digits,
    // A range, not `=`: an equality to a constant drops the column from the ORDER BY, and the planner
    // then prefers the heap-correlated (created_at, seq) index, filtering every newer row.
    pinned: (column, param) => `${column} BETWEEN ${param} AND ${param}`,
    time: (ms) => new Date(ms).toISOString(),
    isoOf,
    jsonTextElements: (param) => `SELECT json_array_elements_text(${param}::json)`,
    // `history` is a JSON array kept as text (exactly as written; jsonb would reject a \u0000 escape and
    // reorder keys); appending in SQL keeps every change a single statement.
    appendHistory: (entry) =>
      `left(history, -1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${entry} || ']'`,
    relaxed: (text) => (relax ? `${text} || ${WITHOUT_FLUSH_WAIT}` : text),
    async together(change, records) {
      const { sql, values } = composed(change, records);
      try {
        const result = await pool.query<{ changed: number }>(prepared(sql, values));
        return Number(result.rows[0]?.changed ?? 0);
      } catch (error) {
        // Which part failed: the change alone, tried in a transaction rolled back at once.
        if (records.length > 0 && (await succeedsAlone(pool, change))) throw new AuditWriteError(error);
        throw explained(error, table);
      }
    },
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
 * PostgreSQL's sequencer: a transaction per batch under a transaction-scoped advisory lock (one key
 * per audit table), so one instance sequences at a time — the sequencer alone waits for it, never a
 * decision. An entry whose transaction commits later than a later `id`'s is simply chained later.
 */
export function postgresSequencer(pool: Pool, audit: string): AuditSequencer {
  const lockKey = `graded-tools-audit-sequencer:${audit}`;
  return sequencerOf(async (limit) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
      const head = await client.query(
        `SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      );
      const { rows } = await client.query<AuditRow>(
        `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT $1`,
        [limit],
      );
      const links = chained(headOf(head.rows[0]), rows);
      if (links.length > 0)
        await client.query(
          `UPDATE ${audit} AS a SET seq = v.seq, prev_hash = v.prev_hash, hash = v.hash` +
            ' FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS v(id, seq, prev_hash, hash)' +
            ' WHERE a.id = v.id AND a.seq IS NULL',
          [
            links.map((l) => l.id),
            links.map((l) => l.seq),
            links.map((l) => l.prevHash),
            links.map((l) => l.hash),
          ],
        );
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  });
}
