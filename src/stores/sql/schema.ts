import { CONFIRMATION_STATUSES } from '../../confirmation.js';
import type { SqlDialect } from './dialect.js';
import { statusCheck } from './sql-row.js';
import { runsSchema } from './sql-runs.js';
import {
  indexName,
  limitsTableOf,
  linksTableOf,
  noticesTableOf,
  passkeyChallengesTableOf,
  passkeysTableOf,
} from './table-name.js';

/**
 * The table and its indexes, each statement safe to run again (`IF NOT EXISTS`), so a database made
 * by an older version gains the newer indexes on the next open or `migrate()`.
 */
export function schemaStatements(dialect: SqlDialect): string[] {
  const { table, tableName, types } = dialect;
  const seq = dialect.indexedInsertionOrder;
  const ordered = (suffix: string) => (seq === '' ? suffix : `${suffix}_seq`);
  const index = (suffix: string, columns: string) =>
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, suffix)} ON ${table} (${columns})`;
  const createAs = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
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
      history ${types.text} NOT NULL,
      about ${types.text},
      approvals ${types.text},
      deliver_at ${types.time},
      escalated ${types.integer},
      revision ${types.integer} NOT NULL DEFAULT 0,
      idempotency_key ${types.text},
      ref ${types.text}${dialect.extraColumns}
    )`;
  return [
    // Columns a later version added, for a table an earlier one made: before CREATE (which then does
    // nothing), since SQLite's check reads whether the table exists.
    ...dialect.addColumnIfMissing('about', types.text),
    ...dialect.addColumnIfMissing('approvals', types.text),
    ...dialect.addColumnIfMissing('deliver_at', types.time),
    ...dialect.addColumnIfMissing('escalated', types.integer),
    // Every change of a row adds one, and every change is conditional on the one it read.
    ...dialect.addColumnIfMissing('revision', `${types.integer} NOT NULL DEFAULT 0`),
    // Step "idempotency" (#32): `propose`'s `idempotencyKey`, scoped and digested (unique index below).
    ...dialect.addColumnIfMissing('idempotency_key', types.text),
    // Step "alike by ref" (#32): `propose`'s `ref` in a column of its own, for `findAlike` (index below).
    ...dialect.addColumnIfMissing('ref', types.text),
    // The undo window's `scheduled` and `cancelled`, for a table whose CHECK predates them.
    ...dialect.widenStatusCheck(CONFIRMATION_STATUSES, createAs),
    createAs(table),
    // Every list the console makes is one range of one of these, newest first, a cursor's
    // `(created_at, order) < (…)` included: the tie-break is the last key (SQLite's rowid always is).
    // PostgreSQL's first two lacked `seq` once, so theirs have new names; the old ones stay.
    index(ordered('status_created'), `status, created_at${seq}`),
    index(ordered('created'), `created_at${seq}`),
    index('tool_created', `tool, created_at${seq}`),
    index('status_tool_created', `status, tool, created_at${seq}`),
    // `prune` (finished, changed before) and `recoverStale` (delivering, changed before) walk ranges.
    index('status_updated', 'status, updated_at'),
    // The sweep's held sends that are due: one range of (status, deliver_at).
    index('status_deliver_at', 'status, deliver_at'),
    // Step "idempotency" (#32): one kept confirmation per idempotency key, across every process (NULLs
    // are distinct: confirmations proposed without a key never clash). `prune` frees a key.
    `CREATE UNIQUE INDEX IF NOT EXISTS ${indexName(tableName, 'idempotency_key')} ON ${table} (idempotency_key)`,
    // A proposal's look for another pending one with the same payload (`findAlike`): one digest's rows.
    index('digest', 'digest'),
    // … and another pending one with the same `ref` (rows from before the column have none).
    index('ref', 'ref'),
    // Which reminders were claimed, and by the first instance only (a primary key decides). Finding the
    // due ones walks the pending range of `status_created`: an index on (status, expires_at) would tempt
    // both planners away from it for the inbox's own list, which also filters on `expires_at`.
    `CREATE TABLE IF NOT EXISTS ${noticesTableOf(table)} (
      confirmation_id ${types.text} NOT NULL,
      kind ${types.text} NOT NULL,
      claimed_at ${types.time} NOT NULL,
      PRIMARY KEY (confirmation_id, kind)
    )`,
    // One-time approval links: only the token's hash, the binding (confirmation, digest, approver as
    // JSON text) and the times; `used_at` is set by one conditional UPDATE. `prune` walks `expires_at`.
    `CREATE TABLE IF NOT EXISTS ${linksTableOf(table)} (
      token_hash ${types.text} PRIMARY KEY NOT NULL,
      confirmation_id ${types.text} NOT NULL,
      digest ${types.text} NOT NULL,
      approver ${types.text} NOT NULL,
      created_at ${types.time} NOT NULL,
      expires_at ${types.time} NOT NULL,
      used_at ${types.time}
    )`,
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'links_expires')} ON ${linksTableOf(table)} (expires_at)`,
    // Limit counters: one row per counter and window, `used` changed only by one conditional upsert
    // (sums may be fractional). `prune` walks `window_end`.
    `CREATE TABLE IF NOT EXISTS ${limitsTableOf(table)} (
      limit_key ${types.text} NOT NULL,
      window_start ${types.time} NOT NULL,
      window_end ${types.time} NOT NULL,
      used ${types.real} NOT NULL,
      PRIMARY KEY (limit_key, window_start)
    )`,
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'limits_window_end')} ON ${limitsTableOf(table)} (window_end)`,
    // Approvers' passkeys (#33): the public key (base64url COSE) and the counter, which one conditional
    // UPDATE moves forward; the challenges the registry made, each taken once by a DELETE … RETURNING.
    `CREATE TABLE IF NOT EXISTS ${passkeysTableOf(table)} (
      id ${types.text} PRIMARY KEY NOT NULL,
      approver ${types.text} NOT NULL,
      public_key ${types.text} NOT NULL,
      counter ${types.integer} NOT NULL,
      transports ${types.text} NOT NULL,
      label ${types.text},
      created_at ${types.time} NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'passkeys_approver')} ON ${passkeysTableOf(table)} (approver, created_at)`,
    `CREATE TABLE IF NOT EXISTS ${passkeyChallengesTableOf(table)} (
      nonce ${types.text} PRIMARY KEY NOT NULL,
      approver ${types.text} NOT NULL,
      binding ${types.text} NOT NULL,
      purpose ${types.text} NOT NULL,
      expires_at ${types.time} NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${indexName(tableName, 'passkey_challenges_expires')} ON ${passkeyChallengesTableOf(table)} (expires_at)`,
    // Agent runs, what their agents read and their texts; `pruneRuns` walks each `expires_at`.
    ...runsSchema(
      dialect,
      (on, suffix, columns) =>
        `CREATE INDEX IF NOT EXISTS ${indexName(tableName, suffix)} ON ${on} (${columns})`,
    ),
  ];
}
