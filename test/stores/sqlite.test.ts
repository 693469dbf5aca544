import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingConfirmation, storeContract } from '../confirm/store-contract.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

storeContract('SQLite (a file on disk)', async () => {
  const store = createSqliteStore({ path: join(dir.path, 'contract.db') });
  return { store, cleanup: () => store.close() };
});

describe('createSqliteStore', () => {
  it('opens the file in WAL mode with a busy timeout, and checks the sync mode', () => {
    const path = join(dir.path, 'pragmas.db');
    const store = createSqliteStore({ path });
    store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    for (const synchronous of ['normal', 'full', 'decisions'] as const) {
      createSqliteStore({ path, synchronous, busyTimeoutMs: 250 }).close();
    }
    expect(() => createSqliteStore({ path, synchronous: 'off' as never })).toThrow(RangeError);
  });

  it("confirms and finishes in 'full' mode as in the default 'decisions' mode", async () => {
    const store = createSqliteStore({ path: join(dir.path, 'full.db'), synchronous: 'full' });
    const original = pendingConfirmation();
    await store.create(original);
    const now = Date.parse(original.createdAt);
    expect((await store.claim(original.id, { now: now + 1 })).ok).toBe(true);
    expect((await store.finish(original.id, { now: now + 2, status: 'delivered', attempt: 1 })).ok).toBe(
      true,
    );
    store.close();
  });

  it('keeps confirmations across a close and reopen (an app restart)', async () => {
    const path = join(dir.path, 'restart.db');
    const first = createSqliteStore({ path });
    const original = pendingConfirmation();
    await first.create(original);
    first.close();
    const second = createSqliteStore({ path });
    expect(await second.get(original.id)).toEqual(original);
    expect((await second.claim(original.id, { now: Date.parse(original.createdAt) + 1 })).ok).toBe(true);
    second.close();
  });

  it('uses a database you pass without closing it, in a table you name', async () => {
    const db = new Database(join(dir.path, 'own.db'));
    const store = createSqliteStore({ database: db, table: 'app_confirmations' });
    expect(store.table).toBe('"app_confirmations"');
    const original = pendingConfirmation();
    await store.create(original);
    store.close();
    expect(db.open).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM app_confirmations').get()).toEqual({ n: 1 });
    db.close();
  });

  it.each(['x; DROP TABLE users', 'a"b', '1table', 'main.table', '', 'x'.repeat(64)])(
    'refuses the table name %j',
    (table) => {
      expect(() => createSqliteStore({ path: join(dir.path, 'names.db'), table })).toThrow(TypeError);
    },
  );

  it('refuses to be created without a path or database', () => {
    expect(() => createSqliteStore({} as never)).toThrow(TypeError);
  });

  it('rejects (and the registry answers STORE_FAILED) once closed, instead of crashing', async () => {
    const store = createSqliteStore({ path: join(dir.path, 'closed.db') });
    store.close();
    await expect(store.get('abcdefghijkl')).rejects.toBeDefined();
  });
});
