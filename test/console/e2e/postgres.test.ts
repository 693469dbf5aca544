import { createPostgresStore } from 'graded-tools/postgres';
import pg from 'pg';
import { afterAll } from 'vitest';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { describeLinkScenarios } from './link-scenarios.js';
import { describeConsoleScenarios, type TestStore } from './scenarios.js';

const tables: string[] = [];
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  for (const table of tables)
    await admin.query(`DROP TABLE IF EXISTS ${table}, ${table}_notices, ${table}_links`);
  await admin.end();
});

await describePostgres('approvals console on PostgreSQL', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 2 });
  const pool = admin;
  const openStore = async (): Promise<TestStore> => {
    const table = uniqueTable('gt_console_e2e');
    tables.push(table);
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    return {
      store,
      async tamperPayload(id, payload) {
        await pool.query(`UPDATE ${table} SET payload = $1 WHERE id = $2`, [JSON.stringify(payload), id]);
      },
      close: () => store.close(),
    };
  };
  describeConsoleScenarios('PostgreSQL', openStore);
  describeLinkScenarios('PostgreSQL', openStore);
});
