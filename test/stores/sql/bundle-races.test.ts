import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type BundleRacerSummary,
  type BundleRacerTask,
  bundleRaceTools,
  HOLD_MS,
} from '../../fixtures/bundle-racer.js';
import type { SharedStoreSpec } from '../../fixtures/shared-store.js';
import { startFixture } from '../../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Real processes on a shared 2-core CI machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const BUNDLES = 20;
const STEPS = 3;
const racer = fileURLToPath(new URL('../../fixtures/bundle-racer.ts', import.meta.url));

async function race(store: SharedStoreSpec, modes: readonly BundleRacerTask['mode'][], files: object) {
  const racers = modes.map((mode, i) =>
    startFixture(racer, { store, mode, ...files }, { stdin: 'pipe', name: `bundle-${mode}-${i}` }),
  );
  await Promise.all(racers.map((r) => r.waitFor('ready')));
  for (const r of racers) r.child.stdin?.write('go\n');
  const summaries = await Promise.all(racers.map((r) => r.waitFor<BundleRacerSummary>('done')));
  for (const exit of await Promise.all(racers.map((r) => r.exited))) expect(exit.code, exit.stderr).toBe(0);
  return summaries;
}

/**
 * `BUNDLES` bundles of `STEPS` held sends, each approved whole through the public API; two processes
 * sweep and one cancels a random step of each bundle, all at once. Per bundle: the steps delivered are
 * a prefix, each delivered once and in order; the first one not delivered was cancelled, and every
 * step after it stopped (cancelled too); none delivered after a stopped one.
 */
async function expectOrderedOnceOrStopped(store: ConfirmationStore, spec: SharedStoreSpec, dir: string) {
  const deliveriesFile = join(dir, `bundle-deliveries-${spec.kind}.txt`);
  const bundlesFile = join(dir, `bundles-${spec.kind}.json`);
  writeFileSync(deliveriesFile, '');
  const registry = new ToolRegistry({ confirmations: store });
  for (const tool of bundleRaceTools(deliveriesFile)) registry.register(tool);
  const bundles: string[][] = [];
  const bundleIds: string[] = [];
  for (let b = 0; b < BUNDLES; b++) {
    const asked = await registry.proposeBundle(
      ['refund.issue', 'email.send', 'case.close'].map((tool) => ({ tool, input: { text: `b${b}` } })),
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const decided = await registry.confirmBundle(asked.bundleId, {
      approvedBy: 'lead-li',
      digest: asked.digest,
    });
    expect(decided).toMatchObject({ ok: true, steps: [0, 1, 2] });
    bundles.push(asked.confirmations.map((c) => c.confirmationId));
    bundleIds.push(asked.bundleId);
  }
  writeFileSync(bundlesFile, JSON.stringify(bundles));
  // Every step due by the time the racers go (they take longer than this to start).
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
  const [, , canceller] = await race(spec, ['sweep', 'sweep', 'cancel'], { bundlesFile, deliveriesFile });
  const sent = readFileSync(deliveriesFile, 'utf8').split('\n').filter(Boolean);
  expect(new Set(sent).size).toBe(sent.length);
  let delivered = 0;
  let stopped = 0;
  for (const [b, steps] of bundles.entries()) {
    const statuses = await Promise.all(steps.map(async (id) => (await store.get(id))?.status));
    const reached = statuses.findIndex((status) => status !== 'delivered');
    const prefix = reached === -1 ? STEPS : reached;
    // Delivered: exactly the prefix, each once, in order in the file.
    const lines = steps.map((id) => sent.indexOf(id));
    expect(
      lines.slice(0, prefix).every((line) => line >= 0),
      `bundle ${b}`,
    ).toBe(true);
    expect(
      lines.slice(prefix).every((line) => line === -1),
      `bundle ${b}: after a stopped step`,
    ).toBe(true);
    for (let i = 1; i < prefix; i++)
      expect(lines[i], `bundle ${b} order`).toBeGreaterThan(lines[i - 1] ?? -1);
    // Stopped: the first one not delivered and every one after it, cancelled.
    expect(
      statuses.slice(prefix).every((status) => status === 'cancelled'),
      `bundle ${b}: ${statuses}`,
    ).toBe(true);
    if (prefix < STEPS) expect(canceller?.cancelled).toContain(steps[prefix]);
    delivered += prefix;
    stopped += STEPS - prefix;
    const view = await registry.confirmations.bundle(bundleIds[b] ?? '');
    expect(view.ok && view.bundle.status).toBe(prefix === STEPS ? 'delivered' : 'stopped');
  }
  expect(delivered).toBe(sent.length);
  expect(delivered + stopped).toBe(BUNDLES * STEPS);
  return { delivered, stopped };
}

/**
 * `BUNDLES` bundles of two held sends and a two-approver step, approved once: the sends are held, the
 * last step waits. Two processes sweep and one rejects every bundle whole, all at once. Per bundle: each
 * send goes out once or not at all, in order; the last step never; what the rejection said it stopped
 * never went out, and what it said had gone did, once.
 */
async function expectRejectedOnce(store: ConfirmationStore, spec: SharedStoreSpec, dir: string) {
  const deliveriesFile = join(dir, `bundle-reject-deliveries-${spec.kind}.txt`);
  const bundlesFile = join(dir, `bundles-reject-${spec.kind}.json`);
  writeFileSync(deliveriesFile, '');
  const registry = new ToolRegistry({ confirmations: store });
  for (const tool of bundleRaceTools(deliveriesFile)) registry.register(tool);
  const bundles: string[][] = [];
  for (let b = 0; b < BUNDLES; b++) {
    const asked = await registry.proposeBundle(
      ['refund.issue', 'email.send', 'payout.approve'].map((tool) => ({ tool, input: { text: `r${b}` } })),
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const decided = await registry.confirmBundle(asked.bundleId, {
      approvedBy: 'fin-a',
      digest: asked.digest,
    });
    expect(decided).toMatchObject({ ok: true, steps: [0, 1, 2], bundle: { status: 'pending' } });
    bundles.push([asked.bundleId, ...asked.confirmations.map((c) => c.confirmationId)]);
  }
  writeFileSync(bundlesFile, JSON.stringify(bundles));
  await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
  const [, , rejecter] = await race(spec, ['sweep', 'sweep', 'reject'], { bundlesFile, deliveriesFile });
  const sent = readFileSync(deliveriesFile, 'utf8').split('\n').filter(Boolean);
  expect(new Set(sent).size).toBe(sent.length);
  let gone = 0;
  for (const [bundleId = '', ...steps] of bundles) {
    const statuses = await Promise.all(steps.map(async (id) => (await store.get(id))?.status));
    const said = rejecter?.rejected?.[bundleId];
    expect(said, bundleId).toBeDefined();
    const lines = steps.map((id) => sent.indexOf(id));
    const delivered = statuses.flatMap((status, i) => (status === 'delivered' ? [i] : []));
    expect(said?.gone, `${bundleId}: ${statuses}`).toEqual(delivered);
    expect(said?.stopped, `${bundleId}: ${statuses}`).toEqual(
      statuses.flatMap((status, i) => (status === 'delivered' ? [] : [i])),
    );
    expect(statuses[2]).toBe('rejected');
    for (const i of said?.stopped ?? []) expect(lines[i], `${bundleId} step ${i}`).toBe(-1);
    for (const i of delivered) expect(lines[i]).toBeGreaterThanOrEqual(0);
    if (delivered.includes(1)) expect(lines[1]).toBeGreaterThan(lines[0] ?? Number.MAX_SAFE_INTEGER);
    gone += delivered.length;
  }
  expect(gone).toBe(sent.length);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('bundles across processes: SQLite file', () => {
  const path = join(dir.path, 'bundles.db');
  it(
    'two sweepers and a canceller: every step delivered once or stopped, in order, never after a stopped one',
    async () => {
      const store = createSqliteStore({ path });
      await expectOrderedOnceOrStopped(store, { kind: 'sqlite', path }, dir.path);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
  it(
    'two sweepers and a rejectBundle: each held send once or not at all, never after the rejection stopped it',
    async () => {
      const rejectPath = join(dir.path, 'bundles-reject.db');
      const store = createSqliteStore({ path: rejectPath });
      await expectRejectedOnce(store, { kind: 'sqlite', path: rejectPath }, dir.path);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('bundles across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_bundle_race');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(`${table}_r`)}`);
    await pool.end();
  });
  it(
    'two sweepers and a canceller: every step delivered once or stopped, in order, never after a stopped one',
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await expectOrderedOnceOrStopped(store, { kind: 'postgres', url, table }, dir.path);
    },
    PROCESS_TIMEOUT_MS,
  );
  it(
    'two sweepers and a rejectBundle: each held send once or not at all, never after the rejection stopped it',
    async () => {
      const store = createPostgresStore({ pool, table: `${table}_r` });
      await store.migrate();
      await expectRejectedOnce(store, { kind: 'postgres', url, table: `${table}_r` }, dir.path);
    },
    PROCESS_TIMEOUT_MS,
  );
});
