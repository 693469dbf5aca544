import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryStore } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunStep, type RunStepAnswer, runsDesk, takeSteps } from '../fixtures/run-steps.js';
import type { SharedStoreSpec } from '../fixtures/shared-store.js';
import { startFixture } from '../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 31 §3: a run begun in one process is judged alike in every other sharing the store. Each step
// below runs in a new OS process (a new registry over the same SQLite file or PostgreSQL table).

const PROCESS_TIMEOUT_MS = 180_000;
const stepper = fileURLToPath(new URL('../fixtures/run-steps.ts', import.meta.url));
const T = Date.parse('2030-01-01T00:00:00Z');
const TTL = 60_000;
const REQUEST = 'Send the March invoice to ana@example.com and to our accountant';
const TRUSTED = { contacts: ['li@example.com'] };
const RECIPIENTS = [
  ['ana@example.com'],
  ['li@example.com'],
  ['mallory@evil.test'],
  ['zed@made-up.test'],
  ['ana@example.com', 'mallory@evil.test', 'li@example.com', 'zed@made-up.test'],
];

async function inProcess(spec: SharedStoreSpec, steps: readonly RunStep[]): Promise<RunStepAnswer[]> {
  const child = startFixture(stepper, { store: spec, steps }, { stdin: 'ignore', name: 'run-steps' });
  const { answers } = await child.waitFor<{ answers: RunStepAnswer[] }>('answers');
  const exit = await child.exited;
  expect(exit.code, exit.stderr).toBe(0);
  return answers;
}

/** The origins one process gives: begin, read and propose in one registry over a memory store. */
async function originsInOneProcess(): Promise<RunStepAnswer[]> {
  const clock = { now: T };
  const registry = runsDesk({ confirmations: createMemoryStore(), now: () => clock.now });
  const [run] = await takeSteps(
    registry,
    [{ op: 'begin', request: REQUEST, trusted: TRUSTED, ttlMs: TTL, actor: 'agent', now: T }],
    clock,
  );
  await takeSteps(registry, [{ op: 'read', run: String(run), actor: 'agent', now: T + 1 }], clock);
  return takeSteps(
    registry,
    RECIPIENTS.map((to) => ({ op: 'propose', run: String(run), to, actor: 'agent', now: T + 2 })),
    clock,
  );
}

async function expectRunsAcrossProcesses(spec: SharedStoreSpec): Promise<void> {
  const expected = await originsInOneProcess();
  expect(expected[2]).toEqual({ to: [{ from: 'tool', tool: 'inbox.read' }] });
  // A: begins the run (bound to the agent) and a short one.
  const [run, short] = (await inProcess(spec, [
    { op: 'begin', request: REQUEST, trusted: TRUSTED, ttlMs: TTL, actor: 'agent', now: T },
    { op: 'begin', request: REQUEST, ttlMs: 1_000, now: T },
  ])) as string[];
  expect(run).toMatch(/^run_/);
  // B: reads within both; the short one has expired by then. Another actor finds no run.
  expect(
    await inProcess(spec, [
      { op: 'read', run: String(run), actor: 'agent', now: T + 1 },
      { op: 'read', run: String(short), now: T + 1_000 },
      { op: 'read', run: String(run), actor: 'mallory', now: T + 1 },
    ]),
  ).toEqual(['ok', 'RUN_NOT_FOUND', 'RUN_NOT_FOUND']);
  // C: proposes each recipient: exactly the origins one process gives; then ends the run.
  const proposed = await inProcess(spec, [
    ...RECIPIENTS.map((to): RunStep => ({ op: 'propose', run: String(run), to, actor: 'agent', now: T + 2 })),
    { op: 'end', run: String(run), now: T + 3 },
  ]);
  expect(proposed).toEqual([...expected, true]);
  // D: the ended run is gone for everyone.
  expect(await inProcess(spec, [{ op: 'read', run: String(run), actor: 'agent', now: T + 4 }])).toEqual([
    'RUN_NOT_FOUND',
  ]);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('runs across processes: SQLite file', () => {
  it(
    'begun in A, read in B, proposed in C: the origins of one process; endRun and expiry hold in every process',
    async () => {
      const path = join(dir.path, 'runs.db');
      createSqliteStore({ path }).close();
      await expectRunsAcrossProcesses({ kind: 'sqlite', path });
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('runs across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_runs_procs');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it(
    'begun in A, read in B, proposed in C: the origins of one process; endRun and expiry hold in every process',
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await expectRunsAcrossProcesses({ kind: 'postgres', url, table });
    },
    PROCESS_TIMEOUT_MS,
  );
});
