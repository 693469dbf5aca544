import { CONFIRMATION_STATUSES } from '../../confirm/types.js';
import type { SqlDialect } from './dialect.js';
import { statusCheck } from './sql-row.js';
import { indexName } from './table-name.js';

/**
 * The table and its indexes, each statement safe to run again (`IF NOT EXISTS`), so a database made
 * by an older version gains the newer indexes on the next open or `migrate()`.
 */
export function schemaStatements(dialect: SqlDialect): string[] {
  const { table, tableName, types } = dialect;
  const index = (suffix: string, columns: string) =>
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, suffix)} ON ${table} (${columns})`;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      id ${types.text} PRIMARY KEY NOT NULL,
      tool ${types.text} NOT NULL,
      status ${types.text} NOT NULL ${statusCheck(CONFIRMATION_STATUSES)},
      input ${types.text} NOT NULL,
      payload ${types.text} NOT NULL,
      digest ${types.text} NOT NULL,
      actor ${types.text},
      scope ${types.text},
      created_at ${types.time} NOT NULL,
      expires_at ${types.time} NOT NULL,
      updated_at ${types.time} NOT NULL,
      attempt ${types.integer} NOT NULL DEFAULT 0,
      result ${types.text},
      error ${types.text},
      history ${types.text} NOT NULL${dialect.extraColumns}
    )`,
    // `list({ status })`, newest first.
    index('status_created', 'status, created_at'),
    // `list()`, newest first.
    index('created', 'created_at'),
    // `list({ tool })`, newest first: without it, a scan of the whole table.
    index('tool_created', `tool, created_at${dialect.indexedInsertionOrder}`),
    // `prune` (finished, changed before) and `recoverStale` (delivering, changed before) walk ranges.
    index('status_updated', 'status, updated_at'),
  ];
}
