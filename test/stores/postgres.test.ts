import { createPostgresStore } from 'graded-tools/postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { pendingConfirmation, storeContract } from '../confirm/store-contract.js';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';

const table = uniqueTable('gt_store');
const dropped: string[] = [table];
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  for (const name of dropped) await admin.query(`DROP TABLE IF EXISTS ${name}`);
  await admin.end();
});

await describePostgres('PostgreSQL store', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 2 });

  storeContract('PostgreSQL', async () => {
    const store = createPostgresStore({ connectionString: url, table, poolConfig: { max: 8 } });
    await store.migrate();
    return { store, cleanup: () => store.close() };
  });

  it('migrates idempotently, even from several instances at once', async () => {
    const name = uniqueTable('gt_migrate');
    dropped.push(name);
    const stores = Array.from({ length: 4 }, () =>
      createPostgresStore({ connectionString: url, table: name }),
    );
    await Promise.all(stores.map((s) => s.migrate()));
    await stores[0]?.migrate();
    const original = pendingConfirmation();
    await stores[1]?.create(original);
    expect(await stores[2]?.get(original.id)).toEqual(original);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('says to call migrate() when the table is missing', async () => {
    const store = createPostgresStore({ connectionString: url, table: uniqueTable('gt_missing') });
    await expect(store.get('abcdefghijkl')).rejects.toThrow(/migrate\(\)/);
    await store.close();
  });

  it('uses a pool you pass without ending it, in a schema-qualified table', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const name = `public.${uniqueTable('gt_own')}`;
    dropped.push(name);
    const store = createPostgresStore({ pool, table: name });
    await store.migrate();
    const original = pendingConfirmation();
    await store.create(original);
    await store.close();
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${name}`);
    expect(rows[0]).toEqual({ n: 1 });
    await pool.end();
  });

  it("skips the flush wait only for creating and finishing under 'decisions' (claims wait)", async () => {
    const statements: string[] = [];
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    Object.assign(pool, {
      query: (text: string, values?: unknown[]) => {
        statements.push(text.includes("SET status = 'delivering'") ? `CLAIM ${text}` : text);
        return query(text, values);
      },
    });
    const name = uniqueTable('gt_sync');
    dropped.push(name);
    for (const synchronous of ['decisions', 'full'] as const) {
      statements.length = 0;
      const store = createPostgresStore({ pool, table: name, synchronous });
      await store.migrate();
      const original = pendingConfirmation();
      await store.create(original);
      const claimed = await store.claim(original.id, { now: Date.parse(original.createdAt) + 1 });
      expect(claimed.ok).toBe(true);
      await store.finish(original.id, {
        now: Date.parse(original.createdAt) + 2,
        status: 'delivered',
        attempt: 1,
      });
      const relaxed = (kind: string) =>
        statements
          .filter((text) => text.startsWith(kind))
          .map((text) => text.includes("set_config('synchronous_commit', 'off', true)"));
      expect(relaxed('INSERT')).toEqual([synchronous === 'decisions']);
      expect(relaxed('CLAIM')).toEqual([false]);
      expect(relaxed('UPDATE')).toEqual([synchronous === 'decisions']);
      expect((await store.get(original.id))?.status).toBe('delivered');
    }
    expect(() => createPostgresStore({ pool, synchronous: 'normal' as never })).toThrow(RangeError);
    await pool.end();
  });

  it.each(['x; DROP TABLE users', 'a"b', 'a.b.c', '', 'x'.repeat(64)])(
    'refuses the table name %j',
    (name) => {
      expect(() => createPostgresStore({ connectionString: url, table: name })).toThrow(TypeError);
    },
  );
});
