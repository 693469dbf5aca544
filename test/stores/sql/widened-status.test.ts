import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { pendingConfirmation } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The table as the version before the undo window made it: a status CHECK of seven, no deliver_at. */
const BEFORE_HOLD = (table: string, time: string, extra = '') => `CREATE TABLE ${table} (
  id TEXT PRIMARY KEY NOT NULL, tool TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed', 'rejected', 'expired', 'unknown')),
  input TEXT NOT NULL, payload TEXT NOT NULL, digest TEXT NOT NULL, actor TEXT, scope TEXT,
  created_at ${time} NOT NULL, expires_at ${time} NOT NULL, updated_at ${time} NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0, result TEXT, error TEXT, history TEXT NOT NULL, about TEXT,
  approvals TEXT${extra})`;

/** An older row is kept, and a send can now be held and cancelled in the table. */
async function expectHeldWork(store: ConfirmationStore, older: ReturnType<typeof pendingConfirmation>) {
  expect(await store.get(older.id)).toEqual(older);
  const now = Date.parse(older.createdAt) + 1;
  const held = await store.claim(older.id, { now, by: 'li', deliverAt: now + 1_000 });
  expect(held).toMatchObject({ ok: true, confirmation: { status: 'scheduled' } });
  expect(await store.cancel?.(older.id, { now: now + 1, by: 'li' })).toMatchObject({
    ok: true,
    confirmation: { status: 'cancelled' },
  });
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('a table made before the undo window', () => {
  it('SQLite: opening copies it into one whose CHECK holds scheduled and cancelled, rows and order kept', async () => {
    const path = join(dir.path, 'before-hold.db');
    const older = pendingConfirmation();
    const second = pendingConfirmation({}, Date.parse(older.createdAt));
    const db = new BetterSqlite3(path);
    db.exec(BEFORE_HOLD('graded_tools_confirmations', 'INTEGER'));
    for (const c of [older, second]) {
      const { id, tool, input, payload, digest, actor, scope, createdAt, expiresAt, updatedAt, history } = c;
      db.prepare('INSERT INTO graded_tools_confirmations VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)').run(
        ...[id, tool, 'pending', JSON.stringify(input), JSON.stringify(payload), digest, actor, scope],
        ...[Date.parse(createdAt), Date.parse(expiresAt), Date.parse(updatedAt), 0, null, null],
        ...[JSON.stringify(history), null, null],
      );
    }
    db.close();
    const store = createSqliteStore({ path });
    // Same creation time: the list's tie-break (rowid) still puts the later insert first.
    expect((await store.list()).confirmations.map((c) => c.id)).toEqual([second.id, older.id]);
    await expectHeldWork(store, older);
    store.close();
    // Opening again changes nothing.
    const again = createSqliteStore({ path });
    expect((await again.get(older.id))?.status).toBe('cancelled');
    again.close();
  });
});

await describePostgres('a PostgreSQL table made before the undo window', (url) => {
  const table = uniqueTable('gt_before_hold');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it('migrate() replaces the status CHECK, keeping the rows', async () => {
    const older = pendingConfirmation();
    await pool.query(BEFORE_HOLD(`"${table}"`, 'timestamptz', ', seq bigint GENERATED ALWAYS AS IDENTITY'));
    const { id, tool, input, payload, digest, actor, scope, createdAt, expiresAt, updatedAt, history } =
      older;
    await pool.query(
      `INSERT INTO "${table}" (id, tool, status, input, payload, digest, actor, scope, created_at, expires_at, updated_at, history)
       VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        tool,
        JSON.stringify(input),
        JSON.stringify(payload),
        digest,
        actor,
        scope,
        createdAt,
        expiresAt,
        updatedAt,
        JSON.stringify(history),
      ],
    );
    const store = createPostgresStore({ pool, table });
    await store.migrate();
    await store.migrate();
    await expectHeldWork(store, older);
  });
});
