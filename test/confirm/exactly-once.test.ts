import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ConfirmRequired, defineTool, type RegistryOptions, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppTask } from '../fixtures/confirm-app.js';
import { startApp } from '../helpers/app-process.js';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

const CONFIRMATIONS = 500;
// Real processes on a shared 2-core CI machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const RACERS = 4;

/** The parent's registry: the same tool as the app processes, but it must never deliver itself. */
function parentRegistry(store: ConfirmationStore, options: RegistryOptions = {}) {
  return new ToolRegistry({ confirmations: store, ...options }).register(
    defineTool({
      name: 'race.send',
      description: 'Send a numbered message.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      prepare: (input: { n: number }) => ({ n: input.n, text: `message ${input.n}` }),
      deliver: () => {
        throw new Error('the test process itself must never deliver');
      },
    }),
  );
}

async function prepareMany(registry: ToolRegistry, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const asked = (await registry.invoke('race.send', { n }, { actor: 'agent' })) as ConfirmRequired;
    expect(asked.requiresConfirm).toBe(true);
    ids.push(asked.confirmationId);
  }
  return ids;
}

interface RaceSummary {
  readonly codes: Record<string, number>;
  readonly won: string[];
}

/** Starts the racers, lets them go at once, and waits for every summary. */
async function race(task: Omit<AppTask, 'mode'>): Promise<RaceSummary[]> {
  const apps = Array.from({ length: RACERS }, () => startApp({ ...task, mode: 'race' }));
  await Promise.all(apps.map((app) => app.waitFor('ready')));
  for (const app of apps) app.child.stdin?.write('go\n');
  const summaries = await Promise.all(apps.map((app) => app.waitFor<RaceSummary>('done')));
  const exits = await Promise.all(apps.map((app) => app.exited));
  for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
  return summaries;
}

/** Exactly one delivery per confirmation, one winner each, and every loser told ALREADY_DECIDED. */
function expectExactlyOnce(ids: string[], delivered: string[], summaries: RaceSummary[]): void {
  expect(delivered).toHaveLength(CONFIRMATIONS);
  expect(new Set(delivered).size).toBe(CONFIRMATIONS);
  expect([...delivered].sort()).toEqual([...ids].sort());
  const won = summaries.flatMap((s) => s.won);
  expect([...won].sort()).toEqual([...ids].sort());
  const codes: Record<string, number> = {};
  for (const summary of summaries) {
    for (const [code, count] of Object.entries(summary.codes)) codes[code] = (codes[code] ?? 0) + count;
  }
  expect(codes).toEqual({ OK: CONFIRMATIONS, ALREADY_DECIDED: CONFIRMATIONS * (RACERS - 1) });
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('exactly-once across processes: SQLite file', () => {
  it(
    `${RACERS} processes racing to confirm the same ${CONFIRMATIONS} confirmations deliver each exactly once`,
    async () => {
      const path = join(dir.path, 'race.db');
      const store = createSqliteStore({ path });
      const ids = await prepareMany(parentRegistry(store), CONFIRMATIONS);
      const idsFile = join(dir.path, 'ids.json');
      writeFileSync(idsFile, JSON.stringify(ids));
      const deliveries = join(dir.path, 'deliveries.txt');
      writeFileSync(deliveries, '');

      const summaries = await race({
        store: { kind: 'sqlite', path },
        deliveries: { kind: 'file', path: deliveries },
        idsFile,
      });
      const delivered = readFileSync(deliveries, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0] ?? '');
      expectExactlyOnce(ids, delivered, summaries);
      const records = (await store.list({ limit: 1_000 })).confirmations;
      expect(records.filter((r) => r.status === 'delivered' && r.attempt === 1)).toHaveLength(CONFIRMATIONS);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'a process killed inside deliver leaves the confirmation unknown after recoverStale, never re-sent',
    async () => {
      const path = join(dir.path, 'kill.db');
      const store = createSqliteStore({ path });
      const [id = ''] = await prepareMany(parentRegistry(store), 1);
      const deliveries = join(dir.path, 'kill.txt');
      writeFileSync(deliveries, '');
      const app = startApp({
        mode: 'hang',
        id,
        store: { kind: 'sqlite', path },
        deliveries: { kind: 'file', path: deliveries },
      });
      await app.waitFor('delivering');
      app.child.kill('SIGKILL');
      expect((await app.exited).signal).toBe('SIGKILL');
      await expectComesBackUnknown(
        store,
        id,
        () => readFileSync(deliveries, 'utf8').trim().split('\n').length,
      );
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'an app restarted between invoke and confirm confirms from the file',
    async () => {
      const path = join(dir.path, 'restart.db');
      const deliveries = join(dir.path, 'restart.txt');
      writeFileSync(deliveries, '');
      const base = {
        store: { kind: 'sqlite', path },
        deliveries: { kind: 'file', path: deliveries },
      } as const;
      await expectRestartConfirms(base, async (id) => {
        const store = createSqliteStore({ path });
        const record = await store.get(id);
        store.close();
        return { record, delivered: readFileSync(deliveries, 'utf8').trim().split('\n').length };
      });
    },
    PROCESS_TIMEOUT_MS,
  );
});

/** After a SIGKILL inside deliver: `delivering`, then `unknown` via recoverStale; confirm refuses. */
async function expectComesBackUnknown(
  store: ConfirmationStore,
  id: string,
  deliveries: () => number | Promise<number>,
) {
  expect((await store.get(id))?.status).toBe('delivering');
  // A later moment, as if the sweep ran at the next startup: no sleeping needed.
  const later = parentRegistry(store, { now: () => Date.now() + 120_000 });
  const swept = await later.recoverStale({ olderThanMs: 60_000 });
  expect(swept.ok && swept.changed.map((c) => c.id)).toEqual([id]);
  expect(await store.get(id)).toMatchObject({ status: 'unknown', attempt: 1 });
  await expect(later.confirm(id, { approvedBy: 'lead' })).resolves.toMatchObject({ code: 'ALREADY_DECIDED' });
  const again = await later.recoverStale({ olderThanMs: 60_000 });
  expect(again.ok && again.changed).toEqual([]);
  expect(await deliveries()).toBe(1);
}

/** Invoke in one process; confirm in a fresh one (new store instance, same data). */
async function expectRestartConfirms(
  base: Omit<AppTask, 'mode'>,
  inspect: (id: string) => Promise<{ record: unknown; delivered: number }>,
) {
  const first = startApp({ ...base, mode: 'invoke' });
  const { id, digest } = await first.waitFor<{ id: string; digest: string }>('id');
  expect((await first.exited).code).toBe(0);
  const second = startApp({ ...base, mode: 'confirm', id, digest });
  const confirmed = await second.waitFor<{ ok: boolean; status?: string }>('ok');
  expect((await second.exited).code).toBe(0);
  expect(confirmed).toEqual({ ok: true, status: 'delivered' });
  const { record, delivered } = await inspect(id);
  expect(record).toMatchObject({ status: 'delivered', actor: 'agent-before-restart' });
  expect((record as { history: { by?: string }[] }).history.map((h) => h.by)).toContain('lead-after-restart');
  expect(delivered).toBe(1);
}

const storeTable = uniqueTable('gt_once');
const deliveryTable = uniqueTable('gt_once_deliveries');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${storeTable}`);
  await admin.query(`DROP TABLE IF EXISTS ${deliveryTable}`);
  await admin.end();
});

await describePostgres('exactly-once across processes: PostgreSQL', (url) => {
  const deliveredIds = async (): Promise<string[]> =>
    ((await admin?.query(`SELECT confirmation_id FROM ${deliveryTable}`))?.rows ?? []).map(
      (row: { confirmation_id: string }) => row.confirmation_id,
    );
  const base = {
    store: { kind: 'postgres', url, table: storeTable },
    deliveries: { kind: 'table', url, table: deliveryTable },
  } as const;
  const open = async () => {
    admin ??= new pg.Pool({ connectionString: url, max: 2 });
    await admin.query(
      `CREATE TABLE IF NOT EXISTS ${deliveryTable} (confirmation_id text NOT NULL, pid integer NOT NULL)`,
    );
    await admin.query(`TRUNCATE ${deliveryTable}`);
    const store = createPostgresStore({ connectionString: url, table: storeTable, poolConfig: { max: 4 } });
    await store.migrate();
    return store;
  };

  it(
    `${RACERS} processes racing to confirm the same ${CONFIRMATIONS} confirmations deliver each exactly once`,
    async () => {
      const store = await open();
      const ids = await prepareMany(parentRegistry(store), CONFIRMATIONS);
      const idsFile = join(dir.path, 'pg-ids.json');
      writeFileSync(idsFile, JSON.stringify(ids));
      const summaries = await race({ ...base, idsFile });
      expectExactlyOnce(ids, await deliveredIds(), summaries);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'a process killed inside deliver leaves the confirmation unknown after recoverStale, never re-sent',
    async () => {
      const store = await open();
      const [id = ''] = await prepareMany(parentRegistry(store), 1);
      const app = startApp({ ...base, mode: 'hang', id });
      await app.waitFor('delivering');
      app.child.kill('SIGKILL');
      expect((await app.exited).signal).toBe('SIGKILL');
      await expectComesBackUnknown(store, id, async () => (await deliveredIds()).length);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'an app restarted between invoke and confirm confirms from the database',
    async () => {
      const store = await open();
      await expectRestartConfirms(base, async (id) => ({
        record: await store.get(id),
        delivered: (await deliveredIds()).length,
      }));
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
