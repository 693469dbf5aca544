import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith } from './setup.js';

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
    // Past 60 s, but not past the longest send timeout plus a minute: a delivery may still be running.
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
