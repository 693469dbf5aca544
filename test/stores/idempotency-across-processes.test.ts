import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProposeOnceTask } from '../fixtures/propose-once.js';
import type { SharedStoreSpec } from '../fixtures/shared-store.js';
import { startFixture } from '../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 32: the same `idempotencyKey` proposed at once by two OS processes sharing one store is one
// confirmation, answered to every call in both.

const PROCESS_TIMEOUT_MS = 180_000;
const fixture = fileURLToPath(new URL('../fixtures/propose-once.ts', import.meta.url));
const KEYS = Array.from({ length: 6 }, (_, i) => `order-${i}`);
const CALLS_PER_KEY = 3;

async function raceTwoProcesses(spec: SharedStoreSpec, store: ConfirmationStore): Promise<void> {
  const task: ProposeOnceTask = { store: spec, keys: KEYS, callsPerKey: CALLS_PER_KEY };
  const children = [1, 2].map(() => startFixture(fixture, task, { stdin: 'pipe', name: 'propose-once' }));
  await Promise.all(children.map((child) => child.waitFor('ready')));
  for (const child of children) child.child.stdin?.write('go\n');
  const answers = await Promise.all(
    children.map(async (child) => (await child.waitFor<{ answers: string[] }>('answers')).answers),
  );
  for (const child of children) {
    const exit = await child.exited;
    expect(exit.code, exit.stderr).toBe(0);
  }
  const [a, b] = answers as [string[], string[]];
  for (const [k, key] of KEYS.entries()) {
    const ids = new Set<string>();
    for (const list of [a, b])
      for (const id of list.slice(k * CALLS_PER_KEY, (k + 1) * CALLS_PER_KEY)) ids.add(id);
    expect([...ids], key).toHaveLength(1);
    expect([...ids][0], key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  }
  const { confirmations } = await store.list({ limit: 100 });
  expect(confirmations).toHaveLength(KEYS.length);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('one proposal per idempotency key across processes: SQLite file', () => {
  it(
    'two processes proposing the same keys at once store one confirmation per key, answered to both',
    async () => {
      const path = join(dir.path, 'propose-once.db');
      const store = createSqliteStore({ path });
      try {
        await raceTwoProcesses({ kind: 'sqlite', path }, store);
      } finally {
        store.close();
      }
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('one proposal per idempotency key across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_propose_once');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it(
    'two processes (two pools) proposing the same keys at once store one confirmation per key, answered to both',
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await raceTwoProcesses({ kind: 'postgres', url, table }, store);
    },
    PROCESS_TIMEOUT_MS,
  );
});
