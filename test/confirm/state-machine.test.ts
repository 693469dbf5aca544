import { join } from 'node:path';
import fc from 'fast-check';
import { type ConfirmationStatus, createMemoryStore } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectConfirmRequired, recordingSendTool, registryWith } from './setup.js';

/** How the send tool's next delivery behaves. */
type Mode = 'succeeds' | 'throws' | 'hangs';

/** What the model expects of the one confirmation a run works on. */
interface Model {
  status: ConfirmationStatus;
  /** Past its expiry by the clock, whether or not a sweep has marked it yet. */
  pastExpiry: boolean;
  deliveries: number;
}

/** The registry under test, its send tool's deliveries and the confirmation a run works on. */
interface Real {
  readonly registry: ReturnType<typeof registryWith>['registry'];
  readonly clock: ReturnType<typeof registryWith>['clock'];
  readonly deliveries: readonly unknown[];
  readonly id: string;
  readonly digest: string;
  mode: Mode;
}

const HOUR = 3_600_000;
const ASKER = 'agent-7';
const APPROVER = 'lead-2';
/** Every status change a confirmation's history may show (src/confirm/transitions.ts, plus expiry). */
const ALLOWED = new Set([
  'pending>delivering',
  'pending>rejected',
  'pending>expired',
  'delivering>delivered',
  'delivering>failed',
  'delivering>unknown',
  'unknown>delivering',
  'unknown>delivered',
  'unknown>failed',
  'failed>delivering',
  'failed>delivered',
]);
/** The status a delivery attempt ends in, by how the tool's deliver behaved. */
const OUTCOME: Record<Mode, ConfirmationStatus> = {
  succeeds: 'delivered',
  throws: 'failed',
  hangs: 'unknown',
};

/** Checks the real confirmation against the model after every command, and the invariants always. */
async function check(model: Model, real: Real): Promise<void> {
  const got = await real.registry.confirmations.get(real.id);
  expect(got.ok).toBe(true);
  if (!got.ok) return;
  const { confirmation } = got;
  expect(confirmation.status).toBe(model.status);
  // deliver ran exactly as often as the model's claims said: once per claim, never after delivered,
  // rejected or expired.
  expect(real.deliveries).toHaveLength(model.deliveries);
  const statuses = confirmation.history.map((entry) => entry.status);
  expect(statuses[0]).toBe('pending');
  for (let i = 1; i < statuses.length; i++)
    expect(ALLOWED.has(`${statuses[i - 1]}>${statuses[i]}`), statuses.join(' > ')).toBe(true);
  expect(statuses.filter((status) => status === 'delivering')).toHaveLength(model.deliveries);
  expect(statuses.filter((status) => status === 'delivered').length).toBeLessThanOrEqual(1);
}

/** Claims (confirm or retry) that the model expects to deliver, with the mode set for this delivery. */
class Claim implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly how: 'confirm' | 'retry',
    readonly mode: Mode,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.mode = this.mode;
    const result =
      this.how === 'confirm'
        ? await real.registry.confirm(real.id, { approvedBy: APPROVER, digest: real.digest })
        : await real.registry.retry(real.id, { approvedBy: APPROVER });
    const may =
      this.how === 'confirm'
        ? model.status === 'pending' && !model.pastExpiry
        : model.status === 'failed' || model.status === 'unknown';
    if (may) {
      model.deliveries += 1;
      model.status = OUTCOME[this.mode];
      expect(result.ok).toBe(this.mode === 'succeeds');
    } else {
      expect(result.ok).toBe(false);
      if (this.how === 'confirm' && model.status === 'pending') model.status = 'expired';
    }
    await check(model, real);
  }
  toString = () => `${this.how}(${this.mode})`;
}

class Reject implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const result = await real.registry.reject(real.id, { rejectedBy: APPROVER });
    // A refusal needs no fresh confirmation: one past its expiry but not yet swept may still be rejected.
    const may = model.status === 'pending';
    expect(result.ok).toBe(may);
    if (may) model.status = 'rejected';
    await check(model, real);
  }
  toString = () => 'reject';
}

class MarkDelivered implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const result = await real.registry.markDelivered(real.id, { by: APPROVER });
    const may = model.status === 'failed' || model.status === 'unknown';
    expect(result.ok).toBe(may);
    if (may) model.status = 'delivered';
    await check(model, real);
  }
  toString = () => 'markDelivered';
}

/** Moves the clock past the expiry and sweeps (`expireDue`), or only moves it. */
class PassExpiry implements fc.AsyncCommand<Model, Real> {
  constructor(readonly sweep: boolean) {}
  check = (model: Readonly<Model>) => !model.pastExpiry;
  async run(model: Model, real: Real): Promise<void> {
    real.clock.advance(2 * HOUR);
    model.pastExpiry = true;
    if (this.sweep) {
      const result = await real.registry.expireDue();
      expect(result.ok).toBe(true);
      if (model.status === 'pending') model.status = 'expired';
    }
    await check(model, real);
  }
  toString = () => (this.sweep ? 'passExpiry+expireDue' : 'passExpiry');
}

const mode = fc.constantFrom<Mode>('succeeds', 'throws', 'hangs');
const commands = fc.commands(
  [
    mode.map((m) => new Claim('confirm', m)),
    mode.map((m) => new Claim('retry', m)),
    fc.constant(new Reject()),
    fc.constant(new MarkDelivered()),
    fc.boolean().map((sweep) => new PassExpiry(sweep)),
  ],
  { maxCommands: 8 },
);

/** Runs the model against registries backed by stores `open` hands out, one fresh one per run. */
async function runModel(open: () => Promise<ConfirmationStore>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(commands, async (cmds) => {
      const store = await open();
      const real: Partial<Real> & { mode: Mode } = { mode: 'succeeds' };
      const { tool, deliveries } = recordingSendTool(
        'mail.send',
        () => {
          if (real.mode === 'throws') throw new Error('the mail server said no');
          if (real.mode === 'hangs') return new Promise(() => {});
          return { sent: true };
        },
        { timeoutMs: 25 },
      );
      const { registry, clock } = registryWith(tool, {}, store);
      const asked = expectConfirmRequired(
        await registry.invoke('mail.send', { text: 'Hi' }, { actor: ASKER, scope: 'desk' }),
      );
      Object.assign(real, { registry, clock, deliveries, id: asked.confirmationId, digest: asked.digest });
      const model: Model = { status: 'pending', pastExpiry: false, deliveries: 0 };
      await check(model, real as Real);
      await fc.asyncModelRun(() => ({ model, real: real as Real }), cmds);
    }),
    { numRuns },
  );
}

describe('the confirmation state machine against a model (fc.commands)', () => {
  it('memory store', async () => {
    await runModel(async () => createMemoryStore(), 50);
  });

  describe('SQLite store (a file in a temp dir)', () => {
    const dir = tempDir();
    const opened: { close(): void }[] = [];
    afterAll(() => {
      for (const store of opened) store.close();
      dir.remove();
    });
    it('SQLite store', async () => {
      const store = createSqliteStore({ path: join(dir.path, 'state-machine.db') });
      opened.push(store);
      // One file for every run: each run works on its own confirmation id.
      await runModel(async () => store, 30);
    });
  });
});

await describePostgres('the confirmation state machine against a model: PostgreSQL', (url) => {
  const table = uniqueTable('gt_state_machine');
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  const store = createPostgresStore({ connectionString: url, table, poolConfig: { max: 4 } });
  afterAll(async () => {
    await store.close();
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.end();
  });
  it('PostgreSQL store', async () => {
    await store.migrate();
    await runModel(async () => store, 30);
  });
});
