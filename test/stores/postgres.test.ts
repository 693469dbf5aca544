import { createPostgresStore } from 'graded-tools/postgres';
import { pendingConfirmation, storeContract } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { encodeCursor } from '../../src/stores/cursor.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';

const table = uniqueTable('gt_store');
const dropped: string[] = [table];
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  for (const name of dropped) await admin.query(`DROP TABLE IF EXISTS ${storeTables(name)}`);
  await admin.end();
});

await describePostgres('PostgreSQL store', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 2 });

  storeContract('PostgreSQL', async () => {
    const store = createPostgresStore({ connectionString: url, table, poolConfig: { max: 8 } });
    await store.migrate();
    const second = createPostgresStore({ connectionString: url, table, poolConfig: { max: 2 } });
    return {
      store,
      another: () => second,
      cleanup: async () => {
        await store.close();
        await second.close();
      },
    };
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
    const query = pool.query.bind(pool) as (
      text: string | pg.QueryConfig,
      values?: unknown[],
    ) => Promise<pg.QueryResult>;
    Object.assign(pool, {
      query: (asked: string | pg.QueryConfig, given?: unknown[]) => {
        // A decision's statement comes as a named prepared statement ({ name, text, values }).
        const text = typeof asked === 'string' ? asked : asked.text;
        const values = typeof asked === 'string' ? given : asked.values;
        // A change and its audit entry are one statement (`WITH changed AS (…)`): named by what it writes.
        const kind = !text.startsWith('WITH changed AS (')
          ? 'OTHER'
          : text.startsWith('WITH changed AS (INSERT')
            ? 'INSERT'
            : values?.[2] === 'delivering'
              ? 'CLAIM'
              : 'UPDATE';
        statements.push(`${kind} ${text}`);
        return query(asked, given);
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

  it('prunes in bounded batches that send no ids back to Node', async () => {
    const statements: string[] = [];
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const rowsBack: number[] = [];
    Object.assign(pool, {
      query: async (text: string, values?: unknown[]) => {
        statements.push(text);
        const result = await query(text, values);
        if (text.startsWith('DELETE')) rowsBack.push(result.rows.length);
        return result;
      },
    });
    const name = uniqueTable('gt_prune');
    dropped.push(name);
    const store = createPostgresStore({ pool, table: name });
    await store.migrate();
    const T = Date.parse('2030-01-01T00:00:00.000Z');
    // Finished rows written straight in: the test is about the delete, not how they got there.
    await pool.query(
      `INSERT INTO ${name} (id, tool, status, input, payload, digest, created_at, expires_at, updated_at, history)
       SELECT 'p' || g, 't', 'delivered', '{}', '{}', 'd', $1, $1, $1, '[]' FROM generate_series(1, 2500) g`,
      [new Date(T).toISOString()],
    );
    statements.length = 0;
    expect(await store.prune({ before: T + 1 })).toBe(2_500);
    const deletes = statements.filter((text) => text.startsWith('DELETE'));
    expect(deletes.length).toBeGreaterThan(1);
    for (const text of deletes) {
      expect(text).toMatch(/LIMIT \$2/);
      expect(text).not.toMatch(/RETURNING/);
    }
    expect(rowsBack.every((n) => n === 0)).toBe(true);
    await store.close();
    await pool.end();
  });

  it('migrate() adds the list, prune and notify parts to a table an older version made', async () => {
    const name = uniqueTable('gt_old');
    dropped.push(name);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query(`CREATE TABLE ${name} (
      id text PRIMARY KEY, tool text NOT NULL, status text NOT NULL, input text NOT NULL,
      payload text NOT NULL, digest text NOT NULL, actor text, scope text, created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, attempt integer NOT NULL DEFAULT 0,
      result text, error text, history text NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY)`);
    await pool.query(`CREATE INDEX ${name}_status_created ON ${name} (status, created_at)`);
    const store = createPostgresStore({ pool, table: name });
    await store.migrate();
    const { rows } = await pool.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE tablename = $1',
      [name],
    );
    const defs = rows.map((r) => r.indexdef);
    // One index range for every list the console makes, a cursor's (created_at, seq) < (…) included.
    for (const columns of [
      'tool, created_at, seq',
      'status, created_at, seq',
      'status, tool, created_at, seq',
      'created_at, seq',
      'status, updated_at',
    ])
      expect(defs.some((d) => d.includes(`(${columns})`))).toBe(true);
    // None dropped: the old one stays.
    expect(defs.some((d) => d.includes('(status, created_at)'))).toBe(true);
    const { rows: triggers } = await pool.query(
      'SELECT 1 FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal',
      [name],
    );
    expect(triggers).toHaveLength(1);
    await store.close();
    await pool.end();
  });

  it("reads each console list through the index that starts with its filters, even when the planner's statistics mislead it", async () => {
    const name = uniqueTable('gt_plans');
    dropped.push(name);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const ran: { text: string; values: unknown[] }[] = [];
    const query = pool.query.bind(pool) as (
      text: string | pg.QueryConfig,
      values?: unknown[],
    ) => Promise<pg.QueryResult>;
    Object.assign(pool, {
      query: (asked: string | pg.QueryConfig, given?: unknown[]) => {
        // A decision's statement comes as a named prepared statement ({ name, text, values }).
        const text = typeof asked === 'string' ? asked : asked.text;
        const values = typeof asked === 'string' ? given : asked.values;
        if (text.startsWith('SELECT *, CAST')) ran.push({ text, values: values ?? [] });
        return query(text, values);
      },
    });
    const store = createPostgresStore({ pool, table: name });
    await store.migrate();
    const T = Date.parse('2030-01-01T00:00:00.000Z');
    // The hard case for a planner: the pending ones are the oldest, every newer one is finished, so
    // the (created_at, seq) index — cheapest by its statistics — would read all of those first.
    await query(
      `INSERT INTO ${name} (id, tool, status, input, payload, digest, created_at, expires_at, updated_at, history)
       SELECT 'p' || g, 'tool.' || (g % 3), CASE WHEN g <= 5000 THEN 'pending' ELSE 'delivered' END, '{}',
              '"' || repeat('x', 300) || '"', 'd', $1::timestamptz + g * interval '1 second', $1::timestamptz + interval '100 days',
              $1::timestamptz, '[]'
       FROM generate_series(1, 100000) g`,
      [new Date(T).toISOString()],
    );
    await query(`VACUUM ANALYZE ${name}`);
    const deep = encodeCursor({ createdAt: T + 4_000_000, order: '4000' });
    const shapes = [
      [{ status: 'pending', expiresAfter: T }, 'status_created_seq'],
      [{ tool: 'tool.1' }, 'tool_created'],
      [{ status: 'pending', tool: 'tool.1' }, 'status_tool_created'],
      [{}, 'created_seq'],
    ] as const;
    for (const [filter, index] of shapes) {
      for (const cursor of [undefined, deep]) {
        await store.list({ ...filter, limit: 50, ...(cursor === undefined ? {} : { cursor }) });
        const { text, values } = ran.at(-1) as { text: string; values: unknown[] };
        const { rows } = await query(`EXPLAIN ${text}`, values);
        const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        expect(plan, plan).toMatch(new RegExp(`Index Scan Backward using ${name}_${index} on`));
        expect(plan, plan).not.toMatch(/Sort/);
        if (cursor !== undefined) expect(plan, plan).toMatch(/Index Cond: .*ROW\(created_at, seq\) </);
      }
    }
    await store.close();
    await pool.end();
  });

  it('sees what another instance changed before writing, and hands back the row as it now is', async () => {
    const here = createPostgresStore({ connectionString: url, table });
    const there = createPostgresStore({ connectionString: url, table });
    const T = Date.parse('2030-01-01T00:00:00.000Z');
    const original = pendingConfirmation({}, T);
    await here.create(original);
    await there.claim(original.id, { now: T + 1, by: 'lead-2' });
    await there.finish(original.id, { now: T + 2, attempt: 1, status: 'failed', error: 'SMTP 550' });
    await expect(here.claim(original.id, { now: T + 3 })).resolves.toMatchObject({
      ok: false,
      confirmation: { status: 'failed' },
    });
    const retried = await here.reclaim(original.id, { now: T + 4, by: 'lead-3' });
    expect(retried.ok && retried.confirmation.history.map((h) => h.status)).toEqual([
      'pending',
      'delivering',
      'failed',
      'delivering',
    ]);
    await expect(
      there.finish(original.id, { now: T + 5, attempt: 1, status: 'delivered' }),
    ).resolves.toMatchObject({ ok: false, reason: 'wrong-status' });
    const done = await here.finish(original.id, { now: T + 6, attempt: 2, status: 'delivered' });
    expect(done.ok && done.confirmation).toEqual(await there.get(original.id));
    await here.close();
    await there.close();
  });
});
