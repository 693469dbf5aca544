import { join } from 'node:path';
import Database from 'better-sqlite3';
import { storeContract } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll } from 'vitest';
import { postgresDialect, postgresSequencer } from '../../../src/stores/sql/postgres-dialect.js';
import { schemaStatements } from '../../../src/stores/sql/schema.js';
import { auditSchemaStatements, auditTableOf, sqlAuditChain } from '../../../src/stores/sql/sql-audit.js';
import { createSqlStore } from '../../../src/stores/sql/sql-store.js';
import { sqliteDialect, sqliteSequencer } from '../../../src/stores/sql/sqlite-dialect.js';
import { sqliteDriverOf } from '../../../src/stores/sql/sqlite-driver.js';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

// The engine with its remembered rows switched off: every change reads its row first.
// The same contract as the public stores, so the shortcut and the plain path cannot drift apart.
const dir = tempDir();
afterAll(() => dir.remove());

storeContract('SQL engine on SQLite, rows not remembered', async () => {
  const raw = new Database(join(dir.path, 'plain.db'));
  raw.pragma('journal_mode = WAL');
  const db = sqliteDriverOf(raw);
  const dialect = sqliteDialect({ db, table: '"plain"', tableName: 'plain', syncDecisions: false });
  db.exec([...schemaStatements(dialect), ...auditSchemaStatements('"plain"', 'sqlite')].join(';\n'));
  const audit = sqlAuditChain(dialect, sqliteSequencer(db, auditTableOf('"plain"')).sequence);
  return { store: createSqlStore(dialect, audit, { rememberRows: false }), cleanup: () => void db.close() };
});

await describePostgres('SQL engine on PostgreSQL, rows not remembered', (url) => {
  const table = uniqueTable('gt_plain');
  storeContract('SQL engine on PostgreSQL, rows not remembered', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    const dialect = postgresDialect({ pool, table: `"${table}"`, tableName: table, relax: true });
    for (const statement of [
      ...schemaStatements(dialect),
      ...auditSchemaStatements(`"${table}"`, 'postgres'),
    ])
      await pool.query(statement);
    const audit = sqlAuditChain(dialect, postgresSequencer(pool, auditTableOf(`"${table}"`)));
    return {
      store: createSqlStore(dialect, audit, { rememberRows: false }),
      cleanup: async () => {
        await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
        await pool.end();
      },
    };
  });
});
