import { type ConfirmRequired, createMemoryStore, ToolRegistry } from 'graded-tools';
import { describe, expect, it, vi } from 'vitest';
import { desk, manualClock, recordingSendTool, registryWith } from './setup.js';

describe('expiry', () => {
  it('refuses a confirm after expiresAt with EXPIRED, marks it expired, and sends nothing', async () => {
    const { registry, ask, clock, data, store, confirmationEvents } = desk();
    const asked = await ask();
    clock.advance(3_600_000);
    const late = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(late).toMatchObject({ ok: false, code: 'EXPIRED', confirmation: { status: 'expired' } });
    expect((await store.get(asked.confirmationId))?.status).toBe('expired');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'EXPIRED',
    });
    expect(data.outbox).toEqual([]);
    expect(confirmationEvents()).toEqual(['created', 'expired']);
  });

  it('still confirms one millisecond before expiry', async () => {
    const { registry, ask, clock } = desk();
    const asked = await ask();
    clock.advance(3_600_000 - 1);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('expireDue marks every due pending confirmation, and only those', async () => {
    const { registry, ask, clock, confirmationEvents } = desk();
    const old = await ask('old');
    clock.advance(30 * 60_000);
    const young = await ask('young');
    clock.advance(31 * 60_000);
    const swept = await registry.expireDue();
    expect(swept.ok && swept.changed.map((c) => c.id)).toEqual([old.confirmationId]);
    const still = await registry.confirmations.get(young.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
    expect(confirmationEvents().filter((a) => a === 'expired')).toHaveLength(1);
  });
});

describe('registry.recoverStale', () => {
  it('marks a delivery that never recorded an outcome as unknown, and never re-sends it', async () => {
    const { registry, ask, store, clock, data, confirmationEvents } = desk();
    const asked = await ask();
    // A process claimed it and died inside deliver: the claim is all the store ever heard.
    await store.claim(asked.confirmationId, { now: clock.now(), by: 'lead-2' });
    clock.advance(10_000);
    const early = await registry.recoverStale({ olderThanMs: 60_000 });
    expect(early.ok && early.changed).toEqual([]);
    clock.advance(60_000);
    // Past 60 s, but not past the longest send or write timeout plus a minute: a delivery may still be running.
    const soon = await registry.recoverStale({ olderThanMs: 60_000 });
    expect(soon.ok && soon.changed).toEqual([]);
    clock.advance(60_000);
    const swept = await registry.recoverStale({ olderThanMs: 60_000 });
    expect(swept.ok && swept.changed.map((c) => [c.id, c.status])).toEqual([
      [asked.confirmationId, 'unknown'],
    ]);
    expect(confirmationEvents()).toEqual(['created', 'unknown']);
    expect(data.outbox).toEqual([]);
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-3' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
      confirmation: { status: 'unknown' },
    });
    expect(data.outbox).toEqual([]);
    // A person decides: retry delivers, exactly once more, under the same id.
    const retried = await registry.retry(asked.confirmationId, { approvedBy: 'lead-3' });
    expect(retried).toMatchObject({ ok: true, confirmation: { status: 'delivered', attempt: 2 } });
    expect(data.outbox.map((m) => m.confirmationId)).toEqual([asked.confirmationId]);
  });

  it('refuses an olderThanMs that is not a sensible number', async () => {
    const { registry } = registryWith(recordingSendTool().tool);
    for (const olderThanMs of [-1, Number.NaN, '60000', undefined, 10 ** 13]) {
      await expect(registry.recoverStale({ olderThanMs } as never)).resolves.toMatchObject({
        code: 'INVALID_OPTION',
      });
    }
  });
});

describe('a confirmed write still running in another instance', () => {
  /** Two instances over one store: the write takes up to ten minutes; the send tools only 30 s. */
  function twoInstances() {
    const clock = manualClock();
    const store = createMemoryStore();
    let finish: (value: unknown) => void = () => {};
    const runs: unknown[] = [];
    const write = (registry: ToolRegistry) =>
      registry
        .register({
          name: 'ledger.rebuild',
          description: 'Rebuild the ledger.',
          sideEffect: 'write',
          timeoutMs: 10 * 60_000,
          inputSchema: { type: 'object', properties: { year: { type: 'number' } } },
          run: (input: unknown) => {
            runs.push(input);
            return new Promise((resolve) => {
              finish = resolve;
            });
          },
        })
        .register(recordingSendTool().tool);
    const a = write(new ToolRegistry({ now: clock.now, confirmations: store }));
    const b = write(new ToolRegistry({ now: clock.now, confirmations: store }));
    return { a, b, clock, runs, finish: (value: unknown) => finish(value) };
  }

  it('is not called unknown, nor offered for a retry, before its own timeout plus a minute', async () => {
    const { a, b, clock, runs, finish } = twoInstances();
    const asked = await a.propose('ledger.rebuild', { year: 2029 }, { actor: 'agent:books' });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    const { confirmationId: id } = asked as ConfirmRequired;
    const confirming = a.confirm(id, { approvedBy: 'lead-2' });
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    clock.advance(2 * 60_000);
    const early = await b.recoverStale({ olderThanMs: 0 });
    expect(early.ok && early.changed).toEqual([]);
    await expect(b.retry(id, { approvedBy: 'lead-2' })).resolves.toMatchObject({ ok: false });
    const swept = await b.sweep({ staleAfterMs: 0 });
    expect(swept.ok && swept.recovered).toEqual([]);
    expect(runs).toHaveLength(1);
    // Past its own timeout plus the minute: it may be called unknown now.
    clock.advance(9 * 60_000 + 1);
    const late = await b.recoverStale({ olderThanMs: 0 });
    expect(late.ok && late.changed.map((c) => c.status)).toEqual(['unknown']);
    finish({ rebuilt: true });
    await confirming;
  });
});
