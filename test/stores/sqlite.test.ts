// The SQLite store on each driver this Node has. better-sqlite3's native addon is built for the Node
// that installed it (Node 20 here): under another Node (the pinned Node 24 of scripts/runtimes.mjs) its
// cases are skipped with the reason printed, and only the node:sqlite ones run. node:sqlite needs
// Node >= 22.5: on Node 20 those are skipped, with the reason printed. To run them here:
//   $(node scripts/runtimes.mjs path node24) node_modules/vitest/vitest.mjs run test/stores/sqlite.test.ts
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore, type NodeSqliteDatabase } from 'graded-tools/sqlite';
import { pendingConfirmation, storeContract } from 'graded-tools/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/stores/cursor.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** Why better-sqlite3 does not load in this Node, or undefined when it does. */
const betterSqlite3Missing = ((): string | undefined => {
  try {
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
})();
// Through a constant: Node 20's types have no node:sqlite.
const NODE_SQLITE = 'node:sqlite';
const nodeSqlite = await import(NODE_SQLITE).then(
  (loaded) => loaded as { DatabaseSync: new (path: string) => NodeSqliteDatabase },
  () => undefined,
);

if (betterSqlite3Missing !== undefined) {
  console.warn(
    `[sqlite.test] skipping the better-sqlite3 cases on Node ${process.versions.node}: ${betterSqlite3Missing} (its addon is built for the Node that installed it)`,
  );
  describe.skip('SQLite store on better-sqlite3 (its addon does not load in this Node)', () => {
    it('runs the contract and the better-sqlite3 cases', () => {});
  });
} else {
  betterSqlite3Cases();
}

if (nodeSqlite === undefined) {
  console.warn(
    `[sqlite.test] skipping the node:sqlite cases: node:sqlite needs Node >= 22.5, this is Node ${process.versions.node} (run this file under Node 24: see its first lines)`,
  );
  describe.skip('SQLite store on node:sqlite (needs Node >= 22.5)', () => {
    it('runs the contract and the node:sqlite cases', () => {});
  });
} else {
  nodeSqliteCases(nodeSqlite.DatabaseSync);
}

function nodeSqliteCases(DatabaseSync: new (path: string) => NodeSqliteDatabase): void {
  if (betterSqlite3Missing === undefined)
    console.warn(
      '[sqlite.test] skipping the { path } fallback to node:sqlite: better-sqlite3 loads here, so { path } opens with it',
    );
  storeContract('SQLite on node:sqlite', async () => {
    const db = new DatabaseSync(join(dir.path, 'node-contract.db'));
    db.exec('PRAGMA journal_mode = WAL');
    const store = createSqliteStore({ database: db });
    const second = new DatabaseSync(join(dir.path, 'node-contract.db'));
    return {
      store,
      another: () => createSqliteStore({ database: second }),
      cleanup: () => {
        store.close();
        db.close();
        second.close();
      },
    };
  });

  describe('createSqliteStore on node:sqlite', () => {
    it('uses a DatabaseSync you pass without closing it, in a table you name', async () => {
      const db = new DatabaseSync(join(dir.path, 'node-own.db'));
      const store = createSqliteStore({ database: db, table: 'app_confirmations' });
      const original = pendingConfirmation();
      await store.create(original);
      expect((await store.claim(original.id, { now: Date.parse(original.createdAt) + 1 })).ok).toBe(true);
      store.close();
      expect(db.prepare('SELECT count(*) AS n FROM app_confirmations').get()).toEqual({ n: 1 });
      db.close();
    });

    it('tells a watcher when another connection changed the file', async () => {
      const path = join(dir.path, 'node-watch.db');
      const here = createSqliteStore({ database: new DatabaseSync(path), watchIntervalMs: 20 });
      const there = createSqliteStore({ database: new DatabaseSync(path) });
      const heard = new Promise((resolve) => here.watch(resolve));
      await there.create(pendingConfirmation());
      await expect(heard).resolves.toEqual({});
      here.close();
      there.close();
    });

    it.runIf(betterSqlite3Missing !== undefined)(
      'opens { path } with node:sqlite when better-sqlite3 does not load: WAL, and data kept across a reopen',
      async () => {
        const path = join(dir.path, 'node-path.db');
        const first = createSqliteStore({ path });
        const original = pendingConfirmation();
        await first.create(original);
        first.close();
        await expect(first.get(original.id)).rejects.toBeDefined();
        const db = new DatabaseSync(path);
        expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
        db.close();
        const second = createSqliteStore({ path });
        expect(await second.get(original.id)).toEqual(original);
        second.close();
      },
    );
  });
}

function betterSqlite3Cases(): void {
  storeContract('SQLite (a file on disk)', async () => {
    const store = createSqliteStore({ path: join(dir.path, 'contract.db') });
    const second = createSqliteStore({ path: join(dir.path, 'contract.db') });
    return {
      store,
      another: () => second,
      cleanup: () => {
        store.close();
        second.close();
      },
    };
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

    it('prunes a big backlog in batches, letting other work run between them', async () => {
      const store = createSqliteStore({ path: join(dir.path, 'prune-batches.db'), synchronous: 'normal' });
      const T = Date.parse('2030-01-01T00:00:00.000Z');
      for (let i = 0; i < 3_000; i++) {
        const c = pendingConfirmation({}, T);
        await store.create(c);
        await store.reject(c.id, { now: T + 1, by: 'x' });
      }
      const order: string[] = [];
      // Scheduled before the prune starts: one unbroken DELETE would finish first.
      setTimeout(() => order.push('timer'), 0);
      const pruned = await store.prune({ before: T + 60_000 });
      order.push('pruned');
      expect(pruned).toBe(3_000);
      expect(order).toEqual(['timer', 'pruned']);
      store.close();
    });

    it('lists by tool through an index, added to a table an older version made', () => {
      const path = join(dir.path, 'old-schema.db');
      const old = new Database(path);
      // The table and indexes as graded-tools 0.1.0 created them.
      old.exec(`
      CREATE TABLE graded_tools_confirmations (
        id TEXT PRIMARY KEY NOT NULL, tool TEXT NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,
        payload TEXT NOT NULL, digest TEXT NOT NULL, actor TEXT, scope TEXT, created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, attempt INTEGER NOT NULL DEFAULT 0,
        result TEXT, error TEXT, history TEXT NOT NULL);
      CREATE INDEX graded_tools_confirmations_status_created ON graded_tools_confirmations (status, created_at);
      CREATE INDEX graded_tools_confirmations_created ON graded_tools_confirmations (created_at);`);
      old.close();
      createSqliteStore({ path }).close();
      const db = new Database(path, { readonly: true });
      const plan = (sql: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join('; ');
      const byTool = plan(
        "SELECT * FROM graded_tools_confirmations WHERE tool = 'a.b' ORDER BY created_at DESC, rowid DESC LIMIT 100",
      );
      expect(byTool).toMatch(/USING INDEX \S*tool/);
      expect(byTool).not.toMatch(/TEMP B-TREE/);
      const pruning = plan(
        "SELECT id FROM graded_tools_confirmations WHERE status = 'delivered' AND updated_at < 5 LIMIT 500",
      );
      expect(pruning).toMatch(/USING (COVERING )?INDEX \S*status_updated/);
      db.close();
    });

    it("reads every list the console makes as one index range, a deep page too (the store's own statements)", async () => {
      const db = new Database(join(dir.path, 'plans.db'));
      db.pragma('journal_mode = WAL');
      const ran: { sql: string; values: unknown }[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        const statement = prepare(sql);
        if (!sql.startsWith('SELECT *, CAST')) return statement;
        const all = statement.all.bind(statement);
        return Object.assign(statement, {
          all: (values: unknown) => {
            ran.push({ sql, values });
            return all(values as never);
          },
        });
      }) as typeof db.prepare;
      const store = createSqliteStore({ database: db });
      const T = Date.parse('2030-01-01T00:00:00.000Z');
      const deep = encodeCursor({ createdAt: T, order: '7' });
      const table = 'graded_tools_confirmations';
      const shapes = [
        [{ status: 'pending', expiresAfter: T }, 'status_created'],
        [{ tool: 'a.b' }, 'tool_created'],
        [{ status: 'pending', tool: 'a.b' }, 'status_tool_created'],
        [{}, 'created'],
      ] as const;
      for (const [query, index] of shapes) {
        for (const cursor of [undefined, deep]) {
          await store.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
          const { sql, values } = ran.at(-1) as { sql: string; values: unknown };
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values as never) as { detail: string }[])
            .map((r) => r.detail)
            .join('; ');
          // A range of the index (SEARCH), or for the unfiltered first page that index read in order.
          const unfiltered = index === 'created' && cursor === undefined;
          expect(plan).toMatch(
            new RegExp(`^${unfiltered ? 'SCAN' : 'SEARCH'} ${table} USING INDEX ${table}_${index}( |$)`),
          );
          expect(plan).not.toMatch(/TEMP B-TREE/);
          // The cursor is part of the range, not a filter over everything newer.
          if (cursor !== undefined) expect(plan).toMatch(/created_at<\?\)/);
        }
      }
      store.close();
      db.close();
    });

    it('sees what another process changed before writing, and hands back the row as it now is', async () => {
      const path = join(dir.path, 'two-instances.db');
      const here = createSqliteStore({ path });
      const there = createSqliteStore({ path });
      const T = Date.parse('2030-01-01T00:00:00.000Z');
      const original = pendingConfirmation({}, T);
      await here.create(original);
      expect((await here.get(original.id))?.status).toBe('pending');
      // The other instance claims and fails it: what `here` read is now two changes behind.
      await there.claim(original.id, { now: T + 1, by: 'lead-2' });
      await there.finish(original.id, { now: T + 2, attempt: 1, status: 'failed', error: 'SMTP 550' });
      await expect(here.claim(original.id, { now: T + 3 })).resolves.toMatchObject({
        ok: false,
        confirmation: { status: 'failed' },
      });
      const retried = await here.reclaim(original.id, { now: T + 4, by: 'lead-3' });
      expect(retried.ok && retried.confirmation).toMatchObject({ status: 'delivering', attempt: 2 });
      expect(retried.ok && retried.confirmation.history.map((h) => h.status)).toEqual([
        'pending',
        'delivering',
        'failed',
        'delivering',
      ]);
      // `there` remembers it as failed at attempt 1; its finish of attempt 1 must not land.
      await expect(
        there.finish(original.id, { now: T + 5, attempt: 1, status: 'delivered' }),
      ).resolves.toMatchObject({ ok: false, reason: 'wrong-status' });
      const done = await here.finish(original.id, { now: T + 6, attempt: 2, status: 'delivered' });
      expect(done.ok && done.confirmation).toEqual(await there.get(original.id));
      here.close();
      there.close();
    });
  });
}
