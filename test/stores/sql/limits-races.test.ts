import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type LimitsRacerSummary,
  type LimitsRacerTask,
  raceRefundTool,
} from '../../fixtures/limits-racer.js';
import type { SharedStoreSpec } from '../../fixtures/shared-store.js';
import { startFixture } from '../../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Per-customer limits counted on delivery, raced by real processes on one store: proposals never pass
// the cap, rejections give back exactly what they held, and sweepers expiring the same confirmations
// give each back once.
const PROCESS_TIMEOUT_MS = 180_000;
const HOUR = 3_600_000;
const MAX = 500;
const AMOUNT = 50;
const racer = fileURLToPath(new URL('../../fixtures/limits-racer.ts', import.meta.url));
// Every clock here sits in one UTC day (an hour after today's midnight): one window for every count.
const BASE = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR + HOUR;

type Task = LimitsRacerTask extends infer T ? (T extends unknown ? Omit<T, 'store' | 'max'> : never) : never;

async function race(store: SharedStoreSpec, tasks: readonly Task[]): Promise<LimitsRacerSummary[]> {
  const racers = tasks.map((task) =>
    startFixture(racer, { ...task, store, max: MAX }, { stdin: 'pipe', name: 'limits-racer' }),
  );
  await Promise.all(racers.map((r) => r.waitFor('ready')));
  for (const r of racers) r.child.stdin?.write('go\n');
  const summaries = await Promise.all(racers.map((r) => r.waitFor<LimitsRacerSummary>('done')));
  for (const exit of await Promise.all(racers.map((r) => r.exited))) expect(exit.code, exit.stderr).toBe(0);
  return summaries;
}

/** The parent's registry on the same store, its clock at `at`. */
function parent(store: ConfirmationStore, at: number) {
  const registry = new ToolRegistry({
    confirmations: store,
    now: () => at,
    confirmationTtlMs: HOUR,
  }).register(raceRefundTool(MAX));
  const used = async (customer: string) =>
    (await registry.check('refund.send', { customer, amount: 0 }, { caller: 'autonomous' })).limits[0]?.used;
  return { registry, used };
}

async function expectCapHolds(store: ConfirmationStore, spec: SharedStoreSpec): Promise<void> {
  const customer = `cus-${randomBytes(4).toString('hex')}`;
  const offset = BASE - Date.now();
  const task: Task = { mode: 'propose', customer, amount: AMOUNT, attempts: 30, clockOffsetMs: offset };
  const summaries = await race(spec, [task, task, task, task]);
  const kept = summaries.reduce((sum, s) => sum + s.kept, 0);
  const rejected = summaries.reduce((sum, s) => sum + s.rejected, 0);
  expect(kept * AMOUNT).toBeLessThanOrEqual(MAX);
  // Rejections gave their allowance back, so more were stored than the cap alone would let in.
  expect(rejected).toBeGreaterThan(0);
  expect(summaries.reduce((sum, s) => sum + s.refused, 0)).toBeGreaterThan(0);
  const { registry, used } = parent(store, BASE);
  expect(await used(customer)).toBe(kept * AMOUNT);
  const pending = await registry.confirmations.list({ status: 'pending', tool: 'refund.send', limit: 1_000 });
  const held = pending.ok
    ? pending.confirmations.filter((c) => (c.input as { customer: string }).customer === customer)
    : [];
  expect(held).toHaveLength(kept);
}

async function expectSweptOnce(store: ConfirmationStore, spec: SharedStoreSpec): Promise<void> {
  const customer = `cus-${randomBytes(4).toString('hex')}`;
  const early = parent(store, BASE);
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const answer = await early.registry.propose(
      'refund.send',
      { customer, amount: AMOUNT },
      { actor: 'agent' },
    );
    if (!answer.ok) throw new Error(answer.error);
    ids.push(answer.confirmationId);
  }
  // Still pending when the sweepers run: a second give-back of any expired one would take from it.
  const later = parent(store, BASE + 1.5 * HOUR);
  expect(
    await later.registry.propose('refund.send', { customer, amount: 30 }, { actor: 'agent' }),
  ).toMatchObject({
    ok: true,
  });
  expect(await later.used(customer)).toBe(8 * AMOUNT + 30);
  const sweeper: Task = { mode: 'sweep', rounds: 3, clockOffsetMs: BASE + 2 * HOUR - Date.now() };
  const summaries = await race(spec, [sweeper, sweeper, sweeper]);
  const expired = summaries.flatMap((s) => s.expired).filter((id) => ids.includes(id));
  expect([...expired].sort()).toEqual([...ids].sort());
  expect(await later.used(customer)).toBe(30);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('per-customer limits counted on delivery, across processes: SQLite file', () => {
  const path = join(dir.path, 'limits.db');
  const spec = { kind: 'sqlite', path } as const;

  it(
    '4 processes proposing and rejecting against one customer cap never pass it',
    async () => {
      const store = createSqliteStore({ path });
      await expectCapHolds(store, spec);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    '3 sweepers expiring the same confirmations give each back once',
    async () => {
      const store = createSqliteStore({ path });
      await expectSweptOnce(store, spec);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('per-customer limits counted on delivery, across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_limits_race');
  const spec = { kind: 'postgres', url, table } as const;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });
  const open = async () => {
    const store = createPostgresStore({ pool, table });
    await store.migrate();
    return store;
  };

  it(
    '4 processes proposing and rejecting against one customer cap never pass it',
    async () => expectCapHolds(await open(), spec),
    PROCESS_TIMEOUT_MS,
  );

  it(
    '3 sweepers expiring the same confirmations give each back once',
    async () => expectSweptOnce(await open(), spec),
    PROCESS_TIMEOUT_MS,
  );
});
