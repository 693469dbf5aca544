import { describe, expect, it } from 'vitest';
import { desk, recordingSendTool, registryWith } from './setup.js';

describe('registry.reject', () => {
  it('rejects a pending confirmation for good, with who and why', async () => {
    const { registry, ask, data, confirmationEvents } = desk();
    const asked = await ask();
    const rejected = await registry.reject(asked.confirmationId, {
      rejectedBy: 'lead-2',
      reason: 'Wrong customer.',
    });
    expect(rejected).toMatchObject({ ok: true, confirmation: { status: 'rejected' } });
    expect(rejected.ok && rejected.confirmation.history.at(-1)).toMatchObject({
      status: 'rejected',
      by: 'lead-2',
      note: 'Wrong customer.',
    });
    const late = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-3' });
    expect(late).toMatchObject({ ok: false, code: 'ALREADY_DECIDED', confirmation: { status: 'rejected' } });
    await expect(registry.reject(asked.confirmationId, { rejectedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(data.outbox).toEqual([]);
    expect(confirmationEvents()).toEqual(['created', 'rejected']);
  });

  it('accepts a rejection after expiry (saying no is never dangerous)', async () => {
    const { registry, ask, clock } = desk();
    const asked = await ask();
    clock.advance(2 * 3_600_000);
    await expect(registry.reject(asked.confirmationId, { rejectedBy: 'lead-2' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('cannot reject one that is already being delivered or delivered', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    await expect(registry.reject(asked.confirmationId, { rejectedBy: 'lead-3' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
      confirmation: { status: 'delivered' },
    });
  });

  it.each([
    [{ rejectedBy: '' }],
    [{ rejectedBy: 'lead\u0007' }],
    [{ rejectedBy: 'lead-2', reason: 'x'.repeat(2_001) }],
    [{ rejectedBy: 'lead-2', reason: 'nul\u0000' }],
    [{ rejectedBy: 'lead-2', reason: 42 }],
  ])('refuses %j with INVALID_OPTION', async (options) => {
    const { registry, ask, store } = desk();
    const asked = await ask();
    await expect(registry.reject(asked.confirmationId, options as never)).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    expect((await store.get(asked.confirmationId))?.status).toBe('pending');
  });

  it('answers CONFIRMATION_NOT_FOUND for an id it does not know', async () => {
    const { registry } = desk();
    await expect(registry.reject('AAAAAAAAAAAAAAAAAAAAAA', { rejectedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'CONFIRMATION_NOT_FOUND',
    });
  });
});

describe('registry.retry and registry.markDelivered', () => {
  const failingOnce = () =>
    recordingSendTool('mail.send', (_payload, call) => {
      if (call === 1) throw new Error('upstream 503');
      return { sent: call };
    });

  it('retries a failed delivery with the same confirmation id, as attempt 2', async () => {
    const { tool, deliveries } = failingOnce();
    const { registry, events } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      code: 'DELIVERY_FAILED',
    });
    const retried = await registry.retry(asked.confirmationId, {
      approvedBy: 'lead-3',
      digest: asked.digest,
    });
    expect(retried).toMatchObject({
      ok: true,
      data: { sent: 2 },
      confirmation: { status: 'delivered', attempt: 2 },
    });
    expect(deliveries.map((d) => d.confirmationId)).toEqual([asked.confirmationId, asked.confirmationId]);
    expect(deliveries.map((d) => d.approvedBy)).toEqual(['lead-2', 'lead-3']);
    expect(
      events.filter((e) => e.type === 'confirmation').map((e) => e.type === 'confirmation' && e.action),
    ).toEqual(['created', 'confirmed', 'failed', 'confirmed', 'delivered']);
    await expect(registry.retry(asked.confirmationId, { approvedBy: 'lead-3' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(deliveries).toHaveLength(2);
  });

  it('retries even past the expiry (it was approved once), but still checks digest and gates', async () => {
    const { tool, deliveries } = failingOnce();
    const { registry, clock } = registryWith({ ...tool, featureFlag: 'mail' });
    const asked = await registry.invoke('mail.send', { text: 'x' }, { flags: { mail: true } });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', flags: { mail: true } });
    clock.advance(5 * 3_600_000);
    await expect(
      registry.retry(asked.confirmationId, {
        approvedBy: 'lead-3',
        flags: { mail: true },
        digest: '0'.repeat(64),
      }),
    ).resolves.toMatchObject({ code: 'PAYLOAD_CHANGED' });
    await expect(registry.retry(asked.confirmationId, { approvedBy: 'lead-3' })).resolves.toMatchObject({
      code: 'FLAG_NOT_GRANTED',
      confirmation: { status: 'failed' },
    });
    await expect(
      registry.retry(asked.confirmationId, { approvedBy: 'lead-3', flags: { mail: true } }),
    ).resolves.toMatchObject({ ok: true });
    expect(deliveries).toHaveLength(2);
  });

  it('will not retry a pending confirmation: that one needs a confirm', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const result = await registry.retry(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(result).toMatchObject({ code: 'ALREADY_DECIDED', confirmation: { status: 'pending' } });
    expect(result.ok ? '' : result.error).toMatch(/still pending/);
    expect(data.outbox).toEqual([]);
  });

  it('lets a person settle a failed one as delivered, after which nobody can retry it', async () => {
    const { tool, deliveries } = failingOnce();
    const { registry, events } = registryWith(tool);
    const asked = await registry.invoke('mail.send', { text: 'x' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    const marked = await registry.markDelivered(asked.confirmationId, {
      by: 'lead-3',
      note: 'It did arrive.',
    });
    expect(marked).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(marked.ok && marked.confirmation.history.at(-1)).toMatchObject({
      by: 'lead-3',
      note: 'It did arrive.',
    });
    expect(events.at(-1)).toMatchObject({ type: 'confirmation', action: 'delivered', by: 'lead-3' });
    await expect(registry.retry(asked.confirmationId, { approvedBy: 'lead-3' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(deliveries).toHaveLength(1);
  });

  it('will not mark a pending confirmation delivered, nor accept a bad "by"', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    await expect(registry.markDelivered(asked.confirmationId, { by: 'lead-2' })).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    await expect(registry.markDelivered(asked.confirmationId, { by: '' })).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
  });
});

describe('markDelivered under four eyes', () => {
  it('refuses the person who asked (SAME_PERSON), and takes someone else', async () => {
    const failing = recordingSendTool('mail.send', () => {
      throw new Error('the mail server said no');
    });
    const { registry } = registryWith(failing.tool, { requireDifferentApprover: true });
    const asked = await registry.invoke('mail.send', { text: 'x' }, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
    expect(await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).toMatchObject({
      code: 'DELIVERY_FAILED',
      confirmation: { status: 'failed' },
    });
    expect(await registry.markDelivered(asked.confirmationId, { by: 'agent-7' })).toMatchObject({
      ok: false,
      code: 'SAME_PERSON',
      confirmation: { status: 'failed' },
    });
    expect(await registry.markDelivered(asked.confirmationId, { by: 'lead-3' })).toMatchObject({
      ok: true,
      confirmation: { status: 'delivered' },
    });
  });
});
