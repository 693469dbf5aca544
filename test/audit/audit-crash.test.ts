import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { SharedStoreSpec } from '../fixtures/shared-store.js';
import { startFixture } from '../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectEveryChangeLogged } from './audit-scenarios.js';

// Real processes on a shared 2-core machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const KILLS = 3;
const loop = fileURLToPath(new URL('../fixtures/decision-loop.ts', import.meta.url));

/**
 * A process asking, approving, confirming, rejecting and sweeping in a loop is SIGKILLed at a moment
 * no one chose, three times over the same store: not one change is left without its entry, nor an
 * entry without its change, and the log verifies.
 */
async function expectNoWindowAtAKill(store: ConfirmationStore, spec: SharedStoreSpec): Promise<void> {
  for (let kill = 0; kill < KILLS; kill++) {
    const worker = startFixture(loop, spec, { stdin: 'ignore', name: 'decision-loop' });
    await worker.waitFor('working');
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 500));
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
  }
  const changes = await expectEveryChangeLogged(store);
  // Something was decided before each kill, or the test proves nothing.
  expect(changes).toBeGreaterThan(10);
  expect(await store.audit?.pending()).toBe(0);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('a decision and its entry across a SIGKILL: SQLite file', () => {
  it(
    'a process killed mid-loop leaves no change without its entry',
    async () => {
      const path = join(dir.path, 'crash.db');
      const store = createSqliteStore({ path });
      await expectNoWindowAtAKill(store, { kind: 'sqlite', path });
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('a decision and its entry across a SIGKILL: PostgreSQL', (url) => {
  const table = uniqueTable('gt_audit_crash');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it(
    'a process killed mid-loop leaves no change without its entry',
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await expectNoWindowAtAKill(store, { kind: 'postgres', url, table });
    },
    PROCESS_TIMEOUT_MS,
  );
});
