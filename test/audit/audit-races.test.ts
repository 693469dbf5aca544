import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditRacerSummary, AuditRacerTask } from '../fixtures/audit-racer.js';
import type { SharedStoreSpec } from '../fixtures/shared-store.js';
import { startFixture } from '../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

// Real processes on a shared 2-core CI machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const RACERS = 2;
const APPENDS = 150;
const racer = fileURLToPath(new URL('../fixtures/audit-racer.ts', import.meta.url));

/**
 * Two processes commit entries at once (four lanes each) and sequence as they go: one chain, every
 * entry in it exactly once, no gaps, no fork.
 */
async function expectOneChain(store: ConfirmationStore, spec: SharedStoreSpec): Promise<void> {
  const registry = new ToolRegistry({ confirmations: store });
  const task: AuditRacerTask = { store: spec, lanes: 4, appends: APPENDS };
  const racers = Array.from({ length: RACERS }, () =>
    startFixture(racer, task, { stdin: 'pipe', name: 'audit-racer' }),
  );
  await Promise.all(racers.map((r) => r.waitFor('ready')));
  for (const r of racers) r.child.stdin?.write('go\n');
  const summaries = await Promise.all(racers.map((r) => r.waitFor<AuditRacerSummary>('done')));
  for (const exit of await Promise.all(racers.map((r) => r.exited))) expect(exit.code, exit.stderr).toBe(0);
  const committed = summaries.flatMap((s) => s.ids).sort();
  expect(committed).toHaveLength(RACERS * APPENDS);
  const entries = await store.audit?.read({ afterSeq: 0, limit: 10_000 });
  expect(entries?.map((entry) => entry.seq)).toEqual(
    Array.from({ length: RACERS * APPENDS }, (_, i) => i + 1),
  );
  expect(entries?.map((entry) => entry.confirmationId).sort()).toEqual(committed);
  expect(await registry.audit.verify()).toMatchObject({
    ok: true,
    entries: RACERS * APPENDS,
    unsequenced: 0,
  });
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('audit appends across processes: SQLite file', () => {
  it(
    `${RACERS} processes appending at once leave one unbroken chain without gaps`,
    async () => {
      const path = join(dir.path, 'audit-race.db');
      const store = createSqliteStore({ path });
      await expectOneChain(store, { kind: 'sqlite', path });
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('audit appends across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_audit_race');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it(
    `${RACERS} processes appending at once leave one unbroken chain without gaps`,
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await expectOneChain(store, { kind: 'postgres', url, table });
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
