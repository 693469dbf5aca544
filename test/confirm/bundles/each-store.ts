import { join } from 'node:path';
import { createMemoryStore } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Runs `suite` against the memory store, a SQLite file and PostgreSQL; `open` gives a fresh, empty store. */
export async function describeEachStore(
  title: string,
  suite: (open: () => Promise<ConfirmationStore>) => void,
): Promise<void> {
  const dir = tempDir();
  afterAll(() => dir.remove());
  describe(`${title}: memory store`, () => {
    suite(async () => createMemoryStore());
  });
  describe(`${title}: SQLite file`, () => {
    let n = 0;
    const opened: { close(): void }[] = [];
    afterAll(() => {
      for (const store of opened) store.close();
    });
    suite(async () => {
      const store = createSqliteStore({ path: join(dir.path, `store-${++n}.db`) });
      opened.push(store);
      return store;
    });
  });
  await describePostgres(`${title}: PostgreSQL`, (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const tables: string[] = [];
    afterAll(async () => {
      for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
      await pool.end();
    });
    suite(async () => {
      const table = uniqueTable('gt_bundle_each');
      tables.push(table);
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      return store;
    });
  });
}
