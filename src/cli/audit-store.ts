import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { AuditLog, auditLogOf } from '../audit/audit-log.js';
import { sqliteSequencer } from '../stores/sql/audit-sequencer.js';
import { auditTableOf, sqlAuditChain } from '../stores/sql/sql-audit.js';
import { sqliteDialect } from '../stores/sql/sqlite-dialect.js';
import { sqliteDriverOf } from '../stores/sql/sqlite-driver.js';
import { DEFAULT_TABLE, quoteTableName } from '../stores/sql/table-name.js';

/** An opened log and how to let go of it. */
export interface OpenedAudit {
  readonly log: AuditLog;
  close(): Promise<void>;
}

/**
 * The audit log behind `--store sqlite:FILE` (opened read-only: verifying writes nothing) or
 * `--store postgres:URL`; a string saying why not.
 */
export async function openAudit(
  spec: string,
  cwd: string,
  table = DEFAULT_TABLE,
): Promise<OpenedAudit | string> {
  if (spec.startsWith('sqlite:')) {
    const path = resolve(cwd, spec.slice('sqlite:'.length));
    if (!existsSync(path)) return `there is no SQLite file at ${path}.`;
    const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const db = new Driver(path, { readonly: true, fileMustExist: true });
    const quoted = quoteTableName(table, false);
    const driver = sqliteDriverOf(db);
    const dialect = sqliteDialect({ db: driver, table: quoted, tableName: table, syncDecisions: false });
    // Read-only: entries not sequenced yet cannot be sequenced here, and `verify` says how many.
    const chain = sqlAuditChain(dialect, sqliteSequencer(driver, auditTableOf(quoted)));
    return { log: new AuditLog(chain), close: async () => void db.close() };
  }
  if (spec.startsWith('postgres:') || spec.startsWith('postgresql:')) {
    const { createPostgresStore } = await import('../stores/postgres.js');
    // `postgres:postgres://…` or the URL itself.
    const rest = spec.slice(spec.indexOf(':') + 1);
    const connectionString = rest.includes('://') ? rest : spec;
    const store = createPostgresStore({ connectionString, table, poolConfig: { max: 1 } });
    return { log: auditLogOf(store), close: () => store.close() };
  }
  return 'give --store as sqlite:FILE or postgres:URL.';
}
