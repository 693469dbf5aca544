import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import {
  type ConfirmRequired,
  createMemoryStore,
  describeDecision,
  type RegistryOptions,
  ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AppTask } from '../fixtures/confirm-app.js';
import { startApp } from '../helpers/app-process.js';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sendTool } from '../helpers/tools.js';

const dir = tempDir();
afterAll(() => dir.remove());

function desk(options: RegistryOptions = {}) {
  const send = sendTool('message.send');
  const registry = new ToolRegistry(options).register(send.tool);
  const propose = async (text = 'Here is the link.') =>
    (await registry.propose(
      'message.send',
      { text },
      { actor: 'agent:desk-bot', ref: 'conv-1' },
    )) as ConfirmRequired;
  return { registry, send, propose };
}

/** Watches the timers set with `delay` (ms, ±1 s) while `work` runs: how many are still set after it. */
async function timersLeft(delay: number, work: (armed: () => number) => Promise<void>): Promise<number> {
  const live = new Set<unknown>();
  const set = vi.spyOn(globalThis, 'setTimeout');
  const clear = vi.spyOn(globalThis, 'clearTimeout');
  set.mockImplementation(((fn: () => void, ms?: number) => {
    const handle = realSetTimeout(() => {
      live.delete(handle);
      fn();
    }, ms);
    if (ms !== undefined && Math.abs(ms - delay) <= 1_000) live.add(handle);
    return handle;
  }) as typeof setTimeout);
  clear.mockImplementation(((handle: Parameters<typeof clearTimeout>[0]) => {
    live.delete(handle);
    realClearTimeout(handle);
  }) as typeof clearTimeout);
  try {
    await work(() => live.size);
  } finally {
    set.mockRestore();
    clear.mockRestore();
  }
  return live.size;
}
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** A store that counts how many watchers it holds. */
function countingStore(inner: ConfirmationStore) {
  let watching = 0;
  const store: ConfirmationStore = {
    ...inner,
    watch(listener) {
      watching += 1;
      const stop = inner.watch?.(listener);
      return () => {
        watching -= 1;
        stop?.();
      };
    },
  };
  return { store, watching: () => watching };
}

/** The tool the app processes of test/fixtures/confirm-app.ts confirm: the same name and payload here. */
function raceDesk(store: ConfirmationStore) {
  return new ToolRegistry({ confirmations: store }).register({
    name: 'race.send',
    description: 'Send a numbered message.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    prepare: (input: { n: number }) => ({ n: input.n, text: `message ${input.n}` }),
    deliver: () => ({ here: true }),
  });
}

/** Proposes here, confirms in another OS process, and waits here for what that process decided. */
async function decidedElsewhere(store: ConfirmationStore, spec: AppTask['store'], deliveries: string) {
  const registry = raceDesk(store);
  const asked = (await registry.propose(
    'race.send',
    { n: 1 },
    { actor: 'agent:desk-bot' },
  )) as ConfirmRequired;
  const waiting = registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 120_000 });
  const app = startApp({
    mode: 'confirm',
    store: spec,
    deliveries: { kind: 'file', path: deliveries },
    id: asked.confirmationId,
    digest: asked.digest,
  });
  expect(await app.waitFor('ok')).toMatchObject({ ok: true, status: 'delivered' });
  return waiting;
}

describe('registry.confirmations.waitFor', () => {
  it('resolves when a person confirms, with the delivered record', async () => {
    const { registry, propose } = desk();
    const asked = await propose();
    const waiting = registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 60_000 });
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li', digest: asked.digest });
    const decided = await waiting;
    expect(decided).toMatchObject({ ok: true, confirmation: { status: 'delivered', result: 'sent' } });
    expect(describeDecision(decided.ok ? decided.confirmation : (undefined as never))).toMatch(/^Sent at /);
  });

  it('resolves when a person rejects, with the reason for the model', async () => {
    const { registry, propose, send } = desk();
    const asked = await propose();
    const waiting = registry.confirmations.waitFor(asked.confirmationId);
    await registry.reject(asked.confirmationId, { rejectedBy: 'lead-li', reason: 'wrong customer' });
    const decided = await waiting;
    expect(decided).toMatchObject({ ok: true, confirmation: { status: 'rejected' } });
    if (decided.ok)
      expect(describeDecision(decided.confirmation)).toBe(
        'A person rejected this: wrong customer. It was not sent.',
      );
    expect(send.delivered).toHaveLength(0);
  });

  it('resolves at once for one decided already', async () => {
    const { registry, propose } = desk();
    const asked = await propose();
    await registry.reject(asked.confirmationId, { rejectedBy: 'lead-li' });
    expect(await registry.confirmations.waitFor(asked.confirmationId)).toMatchObject({
      ok: true,
      confirmation: { status: 'rejected' },
    });
  });

  it('a failed delivery is a decision too', async () => {
    const send = sendTool('message.send', {
      deliver: () => {
        throw new Error('SMTP said no');
      },
    });
    const registry = new ToolRegistry().register(send.tool);
    const asked = (await registry.propose(
      'message.send',
      { text: 'x' },
      { actor: 'agent' },
    )) as ConfirmRequired;
    const waiting = registry.confirmations.waitFor(asked.confirmationId);
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li' });
    const decided = await waiting;
    expect(decided).toMatchObject({ ok: true, confirmation: { status: 'failed' } });
    if (decided.ok) expect(describeDecision(decided.confirmation)).toContain('delivery failed');
  });

  it('marks a pending confirmation expired at its expiry and resolves, with no sweep running', async () => {
    const { registry, propose, send } = desk({ confirmationTtlMs: 300 });
    const asked = await propose();
    const decided = await registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 10_000 });
    expect(decided).toMatchObject({ ok: true, confirmation: { status: 'expired' } });
    if (decided.ok) expect(describeDecision(decided.confirmation)).toContain('expired');
    expect(send.delivered).toHaveLength(0);
  });

  it('times out with TIMEOUT, leaving the confirmation pending', async () => {
    const { registry, propose } = desk();
    const asked = await propose();
    const result = await registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, code: 'TIMEOUT', confirmation: { status: 'pending' } });
    expect(result.ok ? '' : result.error).toContain('No decision within 50 ms');
    expect(await registry.confirmations.get(asked.confirmationId)).toMatchObject({
      confirmation: { status: 'pending' },
    });
  });

  it('stops with ABORTED on the signal, already aborted or later', async () => {
    const { registry, propose } = desk();
    const asked = await propose();
    expect(
      await registry.confirmations.waitFor(asked.confirmationId, { signal: AbortSignal.abort() }),
    ).toMatchObject({
      ok: false,
      code: 'ABORTED',
    });
    const controller = new AbortController();
    const waiting = registry.confirmations.waitFor(asked.confirmationId, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await waiting).toMatchObject({ ok: false, code: 'ABORTED' });
  });

  it('answers CONFIRMATION_NOT_FOUND for an id there is none of, and INVALID_OPTION for bad options', async () => {
    const { registry } = desk();
    expect(await registry.confirmations.waitFor('no-such-id')).toMatchObject({
      ok: false,
      code: 'CONFIRMATION_NOT_FOUND',
    });
    expect(await registry.confirmations.waitFor('A'.repeat(22))).toMatchObject({
      ok: false,
      code: 'CONFIRMATION_NOT_FOUND',
    });
    for (const bad of [{ timeoutMs: -1 }, { timeoutMs: 1.5 }, { timeoutMs: '10' }, { signal: {} }]) {
      expect(await registry.confirmations.waitFor('A'.repeat(22), bad as never)).toMatchObject({
        ok: false,
        code: 'INVALID_OPTION',
      });
    }
  });

  it('holds no timer, watcher or abort listener once it has settled', async () => {
    const counting = countingStore(createMemoryStore());
    const { registry, propose } = desk({ confirmations: counting.store });
    const asked = await propose();
    const controller = new AbortController();
    const left = await timersLeft(60_000, async (armed) => {
      const waiting = registry.confirmations.waitFor(asked.confirmationId, {
        signal: controller.signal,
        timeoutMs: 60_000,
      });
      for (let i = 0; i < 50 && armed() === 0; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(armed()).toBe(1);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      expect(counting.watching()).toBe(1);
      await registry.reject(asked.confirmationId, { rejectedBy: 'lead-li' });
      await waiting;
    });
    expect(left).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(counting.watching()).toBe(0);
  });

  it('many waiters on one confirmation all hear the one decision', async () => {
    const { registry, propose } = desk();
    const asked = await propose();
    const waiting = Array.from({ length: 50 }, () => registry.confirmations.waitFor(asked.confirmationId));
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li' });
    const all = await Promise.all(waiting);
    expect(all.every((r) => r.ok && r.confirmation.status === 'delivered')).toBe(true);
  });

  it('hears a decision another registry made on a shared store that reports no changes, by reading it again', async () => {
    // A store of your own without `watch` (D1 is one): the other registry's notices never reach this one.
    const shared: ConfirmationStore = { ...createMemoryStore() };
    const agent = desk({ confirmations: shared });
    const person = desk({ confirmations: shared });
    const asked = await agent.propose();
    const timeoutMs = 20_000;
    const started = Date.now();
    const waiting = agent.registry.confirmations.waitFor(asked.confirmationId, { timeoutMs });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = await person.registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-li',
      digest: asked.digest,
    });
    expect(sent.ok).toBe(true);
    expect(await waiting).toMatchObject({ ok: true, confirmation: { status: 'delivered', ref: 'conv-1' } });
    // Well before its own timeout: a wait that heard nothing answers TIMEOUT at timeoutMs.
    expect(Date.now() - started).toBeLessThan(timeoutMs / 4);
  });

  it('hears a decision another instance made on the same SQLite file', async () => {
    const path = join(dir.path, 'wait.db');
    const agentStore = createSqliteStore({ path, watchIntervalMs: 20 });
    const personStore = createSqliteStore({ path });
    const agent = desk({ confirmations: agentStore });
    const person = desk({ confirmations: personStore });
    const asked = await agent.propose();
    const waiting = agent.registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 20_000 });
    await person.registry.reject(asked.confirmationId, { rejectedBy: 'lead-li', reason: 'not now' });
    expect(await waiting).toMatchObject({ ok: true, confirmation: { status: 'rejected', ref: 'conv-1' } });
    agentStore.close();
    personStore.close();
  });

  it('hears a decision another OS process made on the same SQLite file', async () => {
    const path = join(dir.path, 'wait-process.db');
    const store = createSqliteStore({ path, watchIntervalMs: 50 });
    const decided = await decidedElsewhere(store, { kind: 'sqlite', path }, join(dir.path, 'sent.txt'));
    expect(decided).toMatchObject({
      ok: true,
      confirmation: { status: 'delivered', result: { pid: expect.any(Number) } },
    });
    store.close();
  }, 180_000);
});

const table = uniqueTable('gt_wait');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

await describePostgres('registry.confirmations.waitFor on PostgreSQL', (url) => {
  admin = new pg.Pool({ connectionString: url, max: 1 });
  it('hears a decision another instance made, through LISTEN/NOTIFY', async () => {
    const agentStore = createPostgresStore({ connectionString: url, table });
    await agentStore.migrate();
    const personStore = createPostgresStore({ connectionString: url, table });
    const agent = desk({ confirmations: agentStore });
    const person = desk({ confirmations: personStore });
    const asked = await agent.propose();
    const waiting = agent.registry.confirmations.waitFor(asked.confirmationId, { timeoutMs: 20_000 });
    const sent = await person.registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-li',
      digest: asked.digest,
    });
    expect(sent.ok).toBe(true);
    expect(await waiting).toMatchObject({ ok: true, confirmation: { status: 'delivered', ref: 'conv-1' } });
    expect(agent.send.delivered).toHaveLength(0);
    expect(person.send.delivered).toHaveLength(1);
    await agentStore.close();
    await personStore.close();
  });

  it('hears a decision another OS process made, through LISTEN/NOTIFY', async () => {
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    const decided = await decidedElsewhere(
      store,
      { kind: 'postgres', url, table },
      join(dir.path, 'sent-pg.txt'),
    );
    expect(decided).toMatchObject({
      ok: true,
      confirmation: { status: 'delivered', result: { pid: expect.any(Number) } },
    });
    await store.close();
  }, 180_000);
});
