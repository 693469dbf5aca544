import type { SqlDialect } from './dialect.js';

/**
 * SQLite's SQL as the engine writes it, whoever drives the database (a local file, Cloudflare D1):
 * integer epoch-ms times, `rowid` for insertion order, JSON through `json_each`.
 */
export const SQLITE_SQL = {
  types: { text: 'TEXT', integer: 'INTEGER', time: 'INTEGER', real: 'REAL' },
  extraColumns: '',
  insertionOrder: 'rowid',
  indexedInsertionOrder: '',
  // An equality: SQLite then takes the cursor's row value as part of the same index range.
  pinned: (column: string, param: string) => `${column} = ${param}`,
  time: (ms: number) => ms,
  isoOf: (stored: unknown) => new Date(Number(stored)).toISOString(),
  jsonTextElements: (param: string) => `SELECT value FROM json_each(${param})`,
  // `history` is a JSON array kept as text; appending in SQL keeps every change a single statement.
  appendHistory: (entry: string) =>
    `substr(history, 1, length(history) - 1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${entry} || ']'`,
} satisfies Partial<SqlDialect>;
