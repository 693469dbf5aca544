import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Confirmation } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { pendingConfirmation } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The table as the version before `note`, `links` and `ref` made it (no `about` column). */
const OLD_TABLE = (table: string, time: string, extra = '') => `CREATE TABLE ${table} (
  id TEXT PRIMARY KEY NOT NULL, tool TEXT NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,
  payload TEXT NOT NULL, digest TEXT NOT NULL, actor TEXT, scope TEXT, created_at ${time} NOT NULL,
  expires_at ${time} NOT NULL, updated_at ${time} NOT NULL, attempt INTEGER NOT NULL DEFAULT 0,
  result TEXT, error TEXT, history TEXT NOT NULL${extra})`;

/** The table as the version before rules made it (`about`, but no `approvals`; no limits table). */
const ABOUT_TABLE = (table: string, time: string, extra = '') =>
  OLD_TABLE(table, time, `, about TEXT${extra}`);

/**
 * `legacy` as a row of an old table, its columns in order (`time` turns epoch ms into the stored
 * time), then `extra`; and the positional insert of it (`?` for SQLite, `$n` for PostgreSQL).
 */
function oldRow(legacy: Confirmation, time: (ms: number) => unknown, ...extra: unknown[]): unknown[] {
  const { input, payload, digest, actor, scope, createdAt, expiresAt, updatedAt, history } = legacy;
  return [
    ...[legacy.id, legacy.tool, 'pending', JSON.stringify(input), JSON.stringify(payload), digest],
    ...[actor, scope, time(Date.parse(createdAt)), time(Date.parse(expiresAt)), time(Date.parse(updatedAt))],
    ...[0, null, null, JSON.stringify(history), ...extra],
  ];
}
const insertOld = (table: string, row: readonly unknown[], mark: (n: number) => string) =>
  `INSERT INTO ${table} VALUES (${row.map((_, i) => mark(i + 1)).join(', ')})`;

/** A row of the version before rules: a pending confirmation asked with a note. */
const beforeRules = () => pendingConfirmation({ note: 'asked before rules' });

/**
 * What a store opened over a table of the version before rules must do: read its rows as they were,
 * approve one (its approvals column empty), keep `requires` and count a limit.
 */
async function expectRulesWork(store: ConfirmationStore, legacy: ReturnType<typeof beforeRules>) {
  expect(await store.get(legacy.id)).toEqual(legacy);
  const now = Date.parse(legacy.createdAt) + 1;
  const next = [{ by: 'li', at: new Date(now).toISOString(), digest: legacy.digest }];
  const approved = await store.approve?.(legacy.id, {
    now,
    by: 'li',
    quorum: { expected: [], next },
    approval: { count: 1, needed: 2 },
  });
  expect(approved).toMatchObject({ ok: true, confirmation: { status: 'pending', approvals: next } });
  const fresh = pendingConfirmation({ requires: { approvals: 2, approverFlags: [], rules: ['#1'] } });
  await store.create(fresh);
  expect(await store.get(fresh.id)).toEqual(fresh);
  const spend = { key: `old:${legacy.id}`, windowStart: now, windowEnd: now + 60_000, amount: 2, max: 3 };
  expect(await store.spendLimit?.(spend)).toEqual({ ok: true, used: 2 });
  expect(await store.spendLimit?.(spend)).toEqual({ ok: false, used: 2 });
}

const about = { note: 'why', links: [{ label: 'Desk', url: 'https://desk.example/c/1' }], ref: 'conv-1' };
const dir = tempDir();
afterAll(() => dir.remove());

describe('a table made by an older version gains the new column', () => {
  it('SQLite: opening the store adds `about`, and old rows read back without it', async () => {
    const path = join(dir.path, 'old.db');
    const old = new BetterSqlite3(path);
    old.exec(OLD_TABLE('graded_tools_confirmations', 'INTEGER'));
    const legacy = pendingConfirmation();
    const row = oldRow(legacy, (ms) => ms);
    old.prepare(insertOld('graded_tools_confirmations', row, () => '?')).run(...row);
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

  it('SQLite: opening the store adds `approvals` and the limits table to a table made before rules', async () => {
    const path = join(dir.path, 'before-rules.db');
    const old = new BetterSqlite3(path);
    old.exec(ABOUT_TABLE('graded_tools_confirmations', 'INTEGER'));
    const legacy = beforeRules();
    const row = oldRow(legacy, (ms) => ms, JSON.stringify({ note: legacy.note }));
    old.prepare(insertOld('graded_tools_confirmations', row, () => '?')).run(...row);
    old.close();
    const store = createSqliteStore({ path });
    await expectRulesWork(store, legacy);
    store.close();
    createSqliteStore({ path }).close();
  });
});

const table = uniqueTable('gt_old');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
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

  it('adds `approvals` and the limits table to a table made before rules, keeping its rows', async () => {
    await admin?.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await admin?.query(ABOUT_TABLE(table, 'timestamptz', ', seq bigint GENERATED ALWAYS AS IDENTITY'));
    const legacy = beforeRules();
    const iso = (ms: number) => new Date(ms).toISOString();
    const row = oldRow(legacy, iso, JSON.stringify({ note: legacy.note }));
    await admin?.query(
      insertOld(table, row, (n) => `$${n}`),
      row,
    );
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    await store.migrate();
    await expectRulesWork(store, legacy);
    await store.close();
  });
});
