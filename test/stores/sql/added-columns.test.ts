import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingConfirmation } from '../../confirm/store-contract.js';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The table as the version before `note`, `links` and `ref` made it (no `about` column). */
const OLD_TABLE = (table: string, time: string, extra = '') => `CREATE TABLE ${table} (
  id TEXT PRIMARY KEY NOT NULL, tool TEXT NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,
  payload TEXT NOT NULL, digest TEXT NOT NULL, actor TEXT, scope TEXT, created_at ${time} NOT NULL,
  expires_at ${time} NOT NULL, updated_at ${time} NOT NULL, attempt INTEGER NOT NULL DEFAULT 0,
  result TEXT, error TEXT, history TEXT NOT NULL${extra})`;

const about = { note: 'why', links: [{ label: 'Desk', url: 'https://desk.example/c/1' }], ref: 'conv-1' };
const dir = tempDir();
afterAll(() => dir.remove());

describe('a table made by an older version gains the new column', () => {
  it('SQLite: opening the store adds `about`, and old rows read back without it', async () => {
    const path = join(dir.path, 'old.db');
    const old = new BetterSqlite3(path);
    old.exec(OLD_TABLE('graded_tools_confirmations', 'INTEGER'));
    const legacy = pendingConfirmation();
    old
      .prepare(
        'INSERT INTO graded_tools_confirmations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)',
      )
      .run(
        legacy.id,
        legacy.tool,
        'pending',
        JSON.stringify(legacy.input),
        JSON.stringify(legacy.payload),
        legacy.digest,
        legacy.actor,
        legacy.scope,
        Date.parse(legacy.createdAt),
        Date.parse(legacy.expiresAt),
        Date.parse(legacy.updatedAt),
        0,
        JSON.stringify(legacy.history),
      );
    old.close();
    const store = createSqliteStore({ path });
    expect(await store.get(legacy.id)).toEqual(legacy);
    const fresh = pendingConfirmation(about);
    await store.create(fresh);
    expect(await store.get(fresh.id)).toEqual(fresh);
    store.close();
    // Opening again does nothing more (the column is there).
    createSqliteStore({ path }).close();
  });
});

const table = uniqueTable('gt_old');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

await describePostgres('PostgreSQL: migrate() adds the new column to an older table', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 1 });
  it('keeps the old rows and stores note, links and ref after migrate()', async () => {
    await admin?.query(OLD_TABLE(table, 'timestamptz', ', seq bigint GENERATED ALWAYS AS IDENTITY'));
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    await store.migrate();
    const fresh = pendingConfirmation(about);
    await store.create(fresh);
    expect(await store.get(fresh.id)).toEqual(fresh);
    await store.close();
  });
});
