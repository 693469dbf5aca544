import { payloadDigest } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { desk, expectConfirmRequired, recordingSendTool, registryWith } from './setup.js';

describe('editing the payload before confirming', () => {
  it('delivers exactly the edited payload, checked against payloadSchema', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask('Your refund is on its way.');
    const payload = { ...(asked.confirmPayload as object), text: 'Your refund of $20 is on its way.' };
    const sent = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
      payload,
    });
    expect(sent).toMatchObject({ ok: true });
    expect(data.outbox).toEqual([
      {
        to: 'ana@example.com',
        text: 'Your refund of $20 is on its way.',
        confirmationId: asked.confirmationId,
      },
    ]);
  });

  it('refuses a change to a field that is not editable, and sends nothing', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const payload = { ...(asked.confirmPayload as object), to: 'mallory@example.com' };
    const refused = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
      payload,
    });
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(refused.ok ? '' : refused.error).toContain('"to"');
    expect(data.outbox).toEqual([]);
    // Still pending for a correct confirm.
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('refuses an edit that fails payloadSchema with the issue list', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const payload = { ...(asked.confirmPayload as object), text: '' };
    const refused = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
      payload,
    });
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_INPUT', issues: [{ path: '/text' }] });
    expect(data.outbox).toEqual([]);
  });

  it('needs the digest shown before editing, and refuses a stale one', async () => {
    const { registry, ask } = desk();
    const asked = await ask();
    const payload = { ...(asked.confirmPayload as object), text: 'Edited.' };
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', payload }),
    ).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', payload, digest: 'a'.repeat(64) }),
    ).resolves.toMatchObject({ code: 'PAYLOAD_CHANGED' });
  });

  it('cannot edit a tool without editable fields, nor on a retry', async () => {
    const { tool, deliveries } = recordingSendTool('mail.send', (_p, call) => {
      if (call === 1) throw new Error('smtp down');
      return { sent: true };
    });
    const { registry } = registryWith(tool);
    const asked = expectConfirmRequired(
      await registry.invoke('mail.send', { text: 'hi' }, { actor: 'agent-7' }),
    );
    const edit = { approvedBy: 'lead-2', digest: asked.digest, payload: { text: 'changed' } };
    await expect(registry.confirm(asked.confirmationId, edit)).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    await expect(registry.retry(asked.confirmationId, edit)).resolves.toMatchObject({
      code: 'INVALID_OPTION',
    });
    expect(deliveries.map((d) => d.payload)).toEqual([{ text: 'hi' }]);
  });

  it('checkEdit previews the edited digest under the same tool, claiming nothing', async () => {
    const { registry, ask, data } = desk();
    const asked = await ask();
    const payload = { ...(asked.confirmPayload as object), text: 'Preview me.' };
    const preview = await registry.confirmations.checkEdit(asked.confirmationId, payload);
    expect(preview).toEqual({
      ok: true,
      payload,
      digest: payloadDigest('message.send', payload),
      changed: ['text'],
    });
    const unchanged = await registry.confirmations.checkEdit(asked.confirmationId, asked.confirmPayload);
    expect(unchanged).toMatchObject({ ok: true, digest: asked.digest, changed: [] });
    const listed = await registry.confirmations.list({ status: 'pending' });
    expect(listed.ok && listed.confirmations.length).toBe(1);
    expect(data.outbox).toEqual([]);
  });

  it('takes a Standard Schema as payloadSchema', async () => {
    const { tool, deliveries } = recordingSendTool('mail.send', () => ({ sent: true }), {
      payloadSchema: z.object({ text: z.string().max(5) }),
      editable: ['text'],
    });
    const { registry } = registryWith(tool);
    const asked = expectConfirmRequired(
      await registry.invoke('mail.send', { text: 'hi' }, { actor: 'agent-7' }),
    );
    const tooLong = { approvedBy: 'lead-2', digest: asked.digest, payload: { text: 'far too long' } };
    await expect(registry.confirm(asked.confirmationId, tooLong)).resolves.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const ok = { approvedBy: 'lead-2', digest: asked.digest, payload: { text: 'hey' } };
    await expect(registry.confirm(asked.confirmationId, ok)).resolves.toMatchObject({ ok: true });
    expect(deliveries.map((d) => d.payload)).toEqual([{ text: 'hey' }]);
  });

  it('shows the editable fields and payload schema of a send tool', () => {
    const { registry } = desk();
    expect(registry.confirmations.tool('message.send')).toMatchObject({
      name: 'message.send',
      title: 'Send a message to the customer',
      editable: ['text'],
      payloadSchema: { type: 'object' },
    });
    expect(registry.confirmations.tool('kb.search')).toBeUndefined();
    expect(registry.confirmations.tool('nope.nothing')).toBeUndefined();
  });
});
