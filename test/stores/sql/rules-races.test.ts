import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { pendingConfirmation } from 'graded-tools/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RacerSummary, RacerTask } from '../../fixtures/rules-racer.js';
import type { SharedStoreSpec } from '../../fixtures/shared-store.js';
import { startFixture } from '../../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Real processes on a shared 2-core CI machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const RACERS = 4;
const MAX = 50;
const CONFIRMATIONS = 60;
const NEEDED = 3;
const HOUR = 3_600_000;
const racer = fileURLToPath(new URL('../../fixtures/rules-racer.ts', import.meta.url));

type Distributed<T> = T extends unknown ? Omit<T, 'store' | 'lanes'> : never;

/** Starts the racers on one store, lets them go at once, and waits for every summary. */
async function race(store: SharedStoreSpec, task: Distributed<RacerTask>): Promise<RacerSummary[]> {
  const racers = Array.from({ length: RACERS }, () =>
    startFixture(racer, { ...task, store, lanes: 2 }, { stdin: 'pipe', name: 'racer' }),
  );
  await Promise.all(racers.map((r) => r.waitFor('ready')));
  for (const r of racers) r.child.stdin?.write('go\n');
  const summaries = await Promise.all(racers.map((r) => r.waitFor<RacerSummary>('done')));
  for (const exit of await Promise.all(racers.map((r) => r.exited))) expect(exit.code, exit.stderr).toBe(0);
  return summaries;
}

/** Racers spending 1 each far past `MAX` on one counter: exactly `MAX` succeed, and it stops at `MAX`. */
async function expectLimitHolds(store: ConfirmationStore, spec: SharedStoreSpec): Promise<void> {
  const counter = { key: `race:${process.pid}:${Date.now()}`, windowStart: Date.now(), max: MAX };
  const windowEnd = counter.windowStart + HOUR;
  const summaries = await race(spec, { mode: 'spend', ...counter, windowEnd, attempts: 40 });
  expect(summaries.reduce((sum, s) => sum + s.ok, 0)).toBe(MAX);
  expect(summaries.reduce((sum, s) => sum + s.refused, 0)).toBe(RACERS * 40 - MAX);
  expect(Math.max(...summaries.map((s) => s.highest))).toBe(MAX);
  expect(await store.peekLimit?.(counter.key, counter.windowStart)).toBe(MAX);
}

/** Racers approving the same confirmations: each reaches its quorum once, claimed by exactly one. */
async function expectQuorumOnce(store: ConfirmationStore, spec: SharedStoreSpec, dir: string): Promise<void> {
  const requires = { approvals: NEEDED, approverFlags: [], rules: ['#1'] };
  const ids: string[] = [];
  for (let i = 0; i < CONFIRMATIONS; i++) {
    const confirmation = pendingConfirmation({ requires }, Date.now());
    await store.create(confirmation);
    ids.push(confirmation.id);
  }
  const idsFile = join(dir, `ids-${spec.kind}.json`);
  writeFileSync(idsFile, JSON.stringify(ids));
  const summaries = await race(spec, { mode: 'approve', idsFile, needed: NEEDED });
  const claimed = summaries.flatMap((s) => s.claimed);
  expect([...claimed].sort()).toEqual([...ids].sort());
  for (const id of ids) {
    const record = await store.get(id);
    expect(record).toMatchObject({ status: 'delivering', attempt: 1 });
    expect(new Set(record?.approvals?.map((a) => a.by)).size).toBe(NEEDED);
    expect(record?.history.map((h) => h.status)).toEqual(['pending', 'pending', 'pending', 'delivering']);
    expect(record?.history.map((h) => h.approval?.count)).toEqual([undefined, 1, 2, undefined]);
  }
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('rules across processes: SQLite file', () => {
  const path = join(dir.path, 'rules.db');
  const spec = { kind: 'sqlite', path } as const;

  it(
    `${RACERS} processes spending on one limit of ${MAX} get exactly ${MAX} spends`,
    async () => {
      const store = createSqliteStore({ path });
      await expectLimitHolds(store, spec);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    `${RACERS} processes approving the same confirmations claim each once, at its quorum`,
    async () => {
      const store = createSqliteStore({ path });
      await expectQuorumOnce(store, spec, dir.path);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('rules across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_rules');
  const spec = { kind: 'postgres', url, table } as const;
  // The parent's store runs on this pool, which drops the tables at the end.
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
    `${RACERS} processes spending on one limit of ${MAX} get exactly ${MAX} spends`,
    async () => {
      const store = await open();
      await expectLimitHolds(store, spec);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    `${RACERS} processes approving the same confirmations claim each once, at its quorum`,
    async () => {
      const store = await open();
      await expectQuorumOnce(store, spec, dir.path);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
