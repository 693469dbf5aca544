import { join } from 'node:path';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { passkeyCases } from './passkey-cases.js';

const dir = tempDir();
afterAll(() => dir.remove());

describe('passkey approvals: SQLite file', () => {
  let n = 0;
  passkeyCases(async () => {
    const store = createSqliteStore({ path: join(dir.path, `passkeys-${++n}.db`) });
    return { store, close: async () => store.close() };
  });
});

await describePostgres('passkey approvals: PostgreSQL', (url) => {
  const tables: string[] = [];
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    for (const table of tables)
      for (const suffix of [
        '',
        '_passkeys',
        '_passkey_challenges',
        '_links',
        '_limits',
        '_notices',
        '_audit',
      ])
        await pool.query(`DROP TABLE IF EXISTS ${table}${suffix}`).catch(() => {});
    await pool.end();
  });
  passkeyCases(async () => {
    const table = uniqueTable('gt_passkeys');
    tables.push(table);
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    return { store, close: () => store.close() };
  });
});
