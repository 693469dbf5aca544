import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type HeldRacerSummary, type HeldRacerTask, heldMailTool } from '../../fixtures/held-racer.js';
import type { SharedStoreSpec } from '../../fixtures/shared-store.js';
import { startFixture } from '../../helpers/app-process.js';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Real processes on a shared 2-core CI machine: generous, since a slow start is not a failure.
const PROCESS_TIMEOUT_MS = 180_000;
const SENDS = 60;
const racer = fileURLToPath(new URL('../../fixtures/held-racer.ts', import.meta.url));

/** Starts the racers on one store, lets them go at once, and waits for every summary. */
async function race(store: SharedStoreSpec, modes: readonly HeldRacerTask['mode'][], files: object) {
  const racers = modes.map((mode) =>
    startFixture(racer, { store, mode, ...files }, { stdin: 'pipe', name: `held-${mode}` }),
  );
  await Promise.all(racers.map((r) => r.waitFor('ready')));
  for (const r of racers) r.child.stdin?.write('go\n');
  const summaries = await Promise.all(racers.map((r) => r.waitFor<HeldRacerSummary>('done')));
  for (const exit of await Promise.all(racers.map((r) => r.exited))) expect(exit.code, exit.stderr).toBe(0);
  return summaries;
}

/**
 * `SENDS` held sends confirmed through the public API and already due; two processes sweep and two
 * cancel at once. Each is delivered once or cancelled, never both, never twice.
 */
async function expectDeliveredOnceOrCancelled(store: ConfirmationStore, spec: SharedStoreSpec, dir: string) {
  const deliveriesFile = join(dir, `deliveries-${spec.kind}.txt`);
  const idsFile = join(dir, `held-${spec.kind}.json`);
  writeFileSync(deliveriesFile, '');
  const registry = new ToolRegistry({ confirmations: store }).register(heldMailTool(deliveriesFile, 1));
  const ids: string[] = [];
  for (let i = 0; i < SENDS; i++) {
    const asked = await registry.invoke('mail.send', { text: `n${i}` }, { actor: 'agent-7' });
    if (!asked.ok || !('confirmationId' in asked)) throw new Error('not asked');
    const held = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li' });
    expect(held).toMatchObject({ ok: false, code: 'SCHEDULED' });
    ids.push(asked.confirmationId);
  }
  writeFileSync(idsFile, JSON.stringify(ids));
  await new Promise((resolve) => setTimeout(resolve, 5));
  const [sweepA, sweepB, cancelA, cancelB] = await race(spec, ['sweep', 'sweep', 'cancel', 'cancel'], {
    idsFile,
    deliveriesFile,
  });
  const delivered = [...(sweepA?.won ?? []), ...(sweepB?.won ?? [])];
  const cancelled = [...(cancelA?.won ?? []), ...(cancelB?.won ?? [])];
  const sent = readFileSync(deliveriesFile, 'utf8').split('\n').filter(Boolean);
  // Never twice: each delivery is one line, and each won by one sweep.
  expect(new Set(sent).size).toBe(sent.length);
  expect([...sent].sort()).toEqual([...delivered].sort());
  // Never both, and nothing left over.
  expect(delivered.filter((id) => cancelled.includes(id))).toEqual([]);
  expect([...delivered, ...cancelled].sort()).toEqual([...ids].sort());
  expect((cancelA?.late ?? 0) + (cancelB?.late ?? 0)).toBe(2 * SENDS - cancelled.length);
  for (const id of ids) {
    const record = await store.get(id);
    expect(record?.status).toBe(delivered.includes(id) ? 'delivered' : 'cancelled');
    expect(record?.attempt).toBe(delivered.includes(id) ? 1 : 0);
  }
  return { delivered: delivered.length, cancelled: cancelled.length };
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('held sends across processes: SQLite file', () => {
  const path = join(dir.path, 'held.db');
  it(
    'two processes sweeping and two cancelling: each delivered once or cancelled, never both',
    async () => {
      const store = createSqliteStore({ path });
      await expectDeliveredOnceOrCancelled(store, { kind: 'sqlite', path }, dir.path);
      store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});

await describePostgres('held sends across processes: PostgreSQL', (url) => {
  const table = uniqueTable('gt_held');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it(
    'two processes sweeping and two cancelling: each delivered once or cancelled, never both',
    async () => {
      const store = createPostgresStore({ pool, table });
      await store.migrate();
      await expectDeliveredOnceOrCancelled(store, { kind: 'postgres', url, table }, dir.path);
    },
    PROCESS_TIMEOUT_MS,
  );
});
