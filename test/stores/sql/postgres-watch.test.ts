import { join } from 'node:path';
import { createPostgresStore } from 'graded-tools/postgres';
import { pendingConfirmation } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { notifyChannel } from '../../../src/stores/sql/postgres-watch.js';
import { startApp } from '../../helpers/app-process.js';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { heardNotices, pause } from './notices.js';

const table = uniqueTable('gt_watch');
const dir = tempDir();
let admin: pg.Pool | undefined;
afterAll(async () => {
  dir.remove();
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});
const T = Date.parse('2030-01-01T00:00:00.000Z');

/** The backend that LISTENs on this table's channel, if any. */
async function listeningBackends(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()',
    [`LISTEN "${notifyChannel(table)}"`],
  );
  return rows.map((r) => r.pid);
}

await describePostgres('createPostgresStore: watch', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 2 });

  it('hears what another instance creates and decides as { id }, and stops when unwatched', async () => {
    const watching = createPostgresStore({ connectionString: url, table });
    await watching.migrate();
    const writing = createPostgresStore({ connectionString: url, table });
    const notices = heardNotices();
    const unwatch = watching.watch(notices.listener);
    // The LISTEN is in place once a backend shows it.
    for (let i = 0; i < 100 && (await listeningBackends(admin as pg.Pool)).length === 0; i++) await pause(50);

    const original = pendingConfirmation({}, T);
    const created = notices.next((n) => n.id === original.id);
    await writing.create(original);
    expect(await created).toEqual({ id: original.id });
    // A claim is not announced (it would serialise every claim's commit); its outcome is.
    await writing.claim(original.id, { now: T + 1, by: 'lead-2' });
    const finished = notices.next((n) => n.id === original.id);
    await writing.finish(original.id, { now: T + 2, attempt: 1, status: 'failed', error: 'SMTP 550' });
    await finished;
    expect(notices.heard.filter((n) => n.id === original.id)).toHaveLength(2);
    const rejected = pendingConfirmation({}, T);
    const announced = notices.next((n) => n.id === rejected.id);
    await writing.create(rejected);
    await announced;
    const decided = notices.next((n) => n.id === rejected.id);
    await writing.reject(rejected.id, { now: T + 1, by: 'lead-2' });
    await decided;

    unwatch();
    // The connection it held is let go (destroyed, not returned to the pool still listening).
    for (let i = 0; i < 100 && (await listeningBackends(admin as pg.Pool)).length > 0; i++) await pause(50);
    expect(await listeningBackends(admin as pg.Pool)).toEqual([]);
    const count = notices.heard.length;
    await writing.markDelivered(original.id, { now: T + 3, by: 'lead-2' });
    await pause(300);
    expect(notices.heard).toHaveLength(count);
    await watching.close();
    await writing.close();
  });

  it('hears a confirmation another OS process asked for, with its id', async () => {
    const watching = createPostgresStore({ connectionString: url, table });
    await watching.migrate();
    const notices = heardNotices();
    watching.watch(notices.listener);
    for (let i = 0; i < 100 && (await listeningBackends(admin as pg.Pool)).length === 0; i++) await pause(50);
    const app = startApp({
      mode: 'invoke',
      store: { kind: 'postgres', url, table },
      deliveries: { kind: 'file', path: join(dir.path, 'deliveries.txt') },
    });
    const { id } = await app.waitFor<{ id: string }>('id');
    expect((await app.exited).code).toBe(0);
    await notices.some((n) => n.id === id, 30_000);
    expect((await watching.get(id))?.status).toBe('pending');
    await watching.close();
  }, 180_000);

  it("listens again after its connection is lost, and then says 'read again'", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    pool.on('error', () => {});
    const watching = createPostgresStore({ pool, table });
    const writing = createPostgresStore({ connectionString: url, table });
    const notices = heardNotices();
    watching.watch(notices.listener);
    let backends: number[] = [];
    for (let i = 0; i < 100 && backends.length === 0; i++) {
      await pause(50);
      backends = await listeningBackends(admin as pg.Pool);
    }
    expect(backends).toHaveLength(1);
    expect(pool.totalCount - pool.idleCount).toBe(1);

    const readAgain = notices.next((n) => n.id === undefined);
    await admin?.query('SELECT pg_terminate_backend($1)', [backends[0]]);
    expect(await readAgain).toEqual({});
    const after = pendingConfirmation({}, T);
    const heard = notices.next((n) => n.id === after.id);
    await writing.create(after);
    await heard;
    expect(await listeningBackends(admin as pg.Pool)).toHaveLength(1);

    // close() stops it and hands the connection back to nobody: the pool you own stays usable.
    await watching.close();
    for (let i = 0; i < 100 && (await listeningBackends(admin as pg.Pool)).length > 0; i++) await pause(50);
    expect(await listeningBackends(admin as pg.Pool)).toEqual([]);
    expect(pool.totalCount - pool.idleCount).toBe(0);
    const count = notices.heard.length;
    await writing.create(pendingConfirmation({}, T));
    await pause(300);
    expect(notices.heard).toHaveLength(count);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await writing.close();
    await pool.end();
  });

  it('migrate() adds the trigger once, however often it runs', async () => {
    const store = createPostgresStore({ connectionString: url, table });
    await Promise.all([store.migrate(), store.migrate(), store.migrate()]);
    const { rows } = await (admin as pg.Pool).query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal',
      [table],
    );
    expect(rows).toEqual([{ n: 1 }]);
    await store.close();
  });
});
