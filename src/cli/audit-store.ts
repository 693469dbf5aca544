import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuditLog } from '../audit/audit-log.js';
import type { PasskeyVerifier } from '../passkeys/passkey-verifier.js';
import { sqlAuditChain } from '../stores/sql/sql-audit.js';
import { sqliteDialect } from '../stores/sql/sqlite-dialect.js';
import { DEFAULT_TABLE, quoteTableName } from '../stores/sql/table-name.js';

/** An opened log and how to let go of it. */
export interface OpenedAudit {
  readonly log: AuditLog;
  close(): Promise<void>;
}

/** A reader sequences nothing: what is not sequenced is counted by `verify`, never written. */
const readsOnly = async () => 0;

/**
 * The audit log behind `--store sqlite:FILE` (opened read-only, with whichever SQLite driver this
 * runtime has) or `--store postgres:URL`, as a reader's log that never writes; a string saying why not.
 */
export async function openAudit(
  spec: string,
  cwd: string,
  table = DEFAULT_TABLE,
  passkeys?: PasskeyVerifier,
): Promise<OpenedAudit | string> {
  if (spec.startsWith('sqlite:')) {
    const path = resolve(cwd, spec.slice('sqlite:'.length));
    if (!existsSync(path)) return `there is no SQLite file at ${path}.`;
    const { sqliteOpener } = await import('../stores/sql/sqlite-open.js');
    const driver = (await sqliteOpener())(path, { readOnly: true });
    const quoted = quoteTableName(table, false);
    const dialect = sqliteDialect({ db: driver, table: quoted, tableName: table, syncDecisions: false });
    const chain = sqlAuditChain(dialect, readsOnly);
    return { log: new AuditLog(chain, { readOnly: true, passkeys }), close: async () => void driver.close() };
  }
  if (spec.startsWith('postgres:') || spec.startsWith('postgresql:')) {
    const { createPostgresStore } = await import('../stores/postgres.js');
    // `postgres:postgres://…` or the URL itself.
    const rest = spec.slice(spec.indexOf(':') + 1);
    const connectionString = rest.includes('://') ? rest : spec;
    const store = createPostgresStore({ connectionString, table, poolConfig: { max: 1 } });
    return { log: new AuditLog(store.audit, { readOnly: true, passkeys }), close: () => store.close() };
  }
  return 'give --store as sqlite:FILE or postgres:URL.';
}
