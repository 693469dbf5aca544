import type { Confirmation, ConfirmRequired, RegistryOptions, SendToolDefinition } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { expectConfirmRequired, recordingSendTool, registryWith } from '../confirm/setup.js';

// Sends whose rules ask for several different people, holding a flag, to approve the same payload.
const finance = { finance: true };

function payments(options: RegistryOptions = {}, rules: SendToolDefinition['rules'] = undefined) {
  const { tool, deliveries } = recordingSendTool('payment.send', () => ({ sent: true }), {
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    payloadSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    editable: ['text'],
    rules: rules ?? [{ name: 'two-finance', approvals: 2, approverFlags: ['finance'] }],
  });
  const { registry, events } = registryWith(tool, options);
  const ask = async (text = 'Pay 900.') =>
    expectConfirmRequired(await registry.invoke('payment.send', { text }, { actor: 'agent-7' }));
  const record = async (id: string): Promise<Confirmation> => {
    const found = await registry.confirmations.get(id);
    if (!found.ok) throw new Error(found.error);
    return found.confirmation;
  };
  return { registry, deliveries, events, ask, record };
}

const approve = (asked: ConfirmRequired, approvedBy: string, extra: object = {}) => ({
  approvedBy,
  digest: asked.digest,
  flags: finance,
  ...extra,
});

describe('approvals rules', () => {
  it('approvers deciding at the same moment are all counted: the writes that lose re-read and count again', async () => {
    const { registry, deliveries, ask, record } = payments({}, [
      { approvals: 3, approverFlags: ['finance'] },
    ]);
    const asked = await ask();
    const answers = await Promise.all(
      ['ann', 'bob', 'cy', 'dee'].map((who) => registry.confirm(asked.confirmationId, approve(asked, who))),
    );
    const codes = answers.map((answer) => (answer.ok ? 'delivered' : answer.code)).sort();
    expect(codes).toEqual(['ALREADY_DECIDED', 'AWAITING_APPROVALS', 'AWAITING_APPROVALS', 'delivered']);
    expect(deliveries).toHaveLength(1);
    const after = await record(asked.confirmationId);
    expect(after.history.filter((entry) => entry.approval !== undefined)).toHaveLength(2);
  });

  it('two finance approvers: the first waits, the same one again is refused, a flagless one too, the second delivers once', async () => {
    const { registry, deliveries, ask, record } = payments();
    const asked = await ask();
    expect(await record(asked.confirmationId)).toMatchObject({
      requires: { approvals: 2, approverFlags: ['finance'], rules: ['two-finance'] },
      approvals: [],
    });

    const first = await registry.confirm(asked.confirmationId, approve(asked, 'ann'));
    expect(first).toMatchObject({
      ok: false,
      code: 'AWAITING_APPROVALS',
      confirmation: { status: 'pending' },
    });
    expect(deliveries).toEqual([]);

    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      ok: false,
      code: 'ALREADY_APPROVED',
    });
    const flagless = await registry.confirm(asked.confirmationId, approve(asked, 'bob', { flags: {} }));
    expect(flagless).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    expect(flagless.ok ? '' : flagless.error).toContain('finance');
    expect(deliveries).toEqual([]);

    const second = await registry.confirm(asked.confirmationId, approve(asked, 'cy'));
    expect(second).toMatchObject({ ok: true, data: { sent: true } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ payload: { text: 'Pay 900.' }, approvedBy: 'cy' });

    await expect(registry.confirm(asked.confirmationId, approve(asked, 'dee'))).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(deliveries).toHaveLength(1);

    const done = await record(asked.confirmationId);
    expect(done.status).toBe('delivered');
    expect(done.history.filter((h) => h.approval !== undefined)).toMatchObject([
      { by: 'ann', approval: { count: 1, needed: 2 } },
    ]);
  });

  it('records each short approval as a confirmation event "approved"', async () => {
    const { registry, events, ask } = payments();
    const asked = await ask();
    await registry.confirm(asked.confirmationId, approve(asked, 'ann'));
    expect(events.filter((e) => e.type === 'confirmation' && e.action === 'approved')).toHaveLength(1);
  });

  it('under requireDifferentApprover the asker cannot count as an approver', async () => {
    const { registry, deliveries, ask, record } = payments({ requireDifferentApprover: true });
    const asked = await ask();
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'agent-7'))).resolves.toMatchObject({
      ok: false,
      code: 'SAME_PERSON',
    });
    expect((await record(asked.confirmationId)).approvals ?? []).toEqual([]);
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      code: 'AWAITING_APPROVALS',
    });
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'agent-7'))).resolves.toMatchObject({
      code: 'SAME_PERSON',
    });
    expect(deliveries).toEqual([]);
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'bob'))).resolves.toMatchObject({
      ok: true,
    });
    expect(deliveries).toHaveLength(1);
  });

  it('one reject rejects, even after an approval', async () => {
    const { registry, deliveries, ask, record } = payments();
    const asked = await ask();
    await registry.confirm(asked.confirmationId, approve(asked, 'ann'));
    await expect(
      registry.reject(asked.confirmationId, { rejectedBy: 'bob', reason: 'Wrong amount.' }),
    ).resolves.toMatchObject({
      ok: true,
      confirmation: { status: 'rejected' },
    });
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'cy'))).resolves.toMatchObject({
      code: 'ALREADY_DECIDED',
    });
    expect(deliveries).toEqual([]);
    expect((await record(asked.confirmationId)).status).toBe('rejected');
  });

  it('an edit by the second approver starts the count again for the new payload', async () => {
    const { registry, deliveries, ask, record } = payments();
    const asked = await ask('Pay 900.');
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      code: 'AWAITING_APPROVALS',
    });
    const edited = await registry.confirm(
      asked.confirmationId,
      approve(asked, 'bob', { payload: { text: 'Pay 90.' } }),
    );
    expect(edited).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
    expect(deliveries).toEqual([]);
    const now = await record(asked.confirmationId);
    expect(now.digest).not.toBe(asked.digest);
    expect(now.payload).toEqual({ text: 'Pay 90.' });
    expect(now.approvals).toMatchObject([{ by: 'bob', digest: now.digest }]);

    // The old digest no longer confirms; ann must approve the new payload.
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'bob', digest: now.digest, flags: finance }),
    ).resolves.toMatchObject({ code: 'ALREADY_APPROVED' });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'ann', digest: now.digest, flags: finance }),
    ).resolves.toMatchObject({ ok: true });
    expect(deliveries).toEqual([
      expect.objectContaining({ payload: { text: 'Pay 90.' }, approvedBy: 'ann' }),
    ]);
  });

  it('approverFlags alone: one approver, holding the flag', async () => {
    const { registry, deliveries, ask } = payments({}, [{ approverFlags: ['legal'] }]);
    const asked = await ask();
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'ann' })).resolves.toMatchObject({
      code: 'FLAG_NOT_GRANTED',
    });
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'ann', flags: { legal: true } }),
    ).resolves.toMatchObject({ ok: true });
    expect(deliveries).toHaveLength(1);
  });

  it('several matching rules: the most approvals, every flag', async () => {
    const { registry, ask, record } = payments({}, [
      { name: 'a', approvals: 2, approverFlags: ['finance'] },
      { name: 'b', when: 'input.text.contains("900")', approvals: 3, approverFlags: ['legal'] },
      { name: 'c', when: 'false', approvals: 5 },
    ]);
    const asked = await ask('Pay 900.');
    expect((await record(asked.confirmationId)).requires).toEqual({
      approvals: 3,
      approverFlags: ['finance', 'legal'],
      rules: ['a', 'b'],
    });
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      code: 'FLAG_NOT_GRANTED',
    });
    const both = { finance: true, legal: true };
    for (const who of ['ann', 'bob'])
      await expect(
        registry.confirm(asked.confirmationId, approve(asked, who, { flags: both })),
      ).resolves.toMatchObject({ code: 'AWAITING_APPROVALS' });
    await expect(
      registry.confirm(asked.confirmationId, approve(asked, 'cy', { flags: both })),
    ).resolves.toMatchObject({ ok: true });
  });

  it('canDecide answers the same checks without recording anything', async () => {
    const { registry, ask, record } = payments();
    const asked = await ask();
    const pending = await record(asked.confirmationId);
    await expect(
      registry.confirmations.canDecide(pending, { kind: 'confirm', person: { id: 'bob', flags: {} } }),
    ).resolves.toMatchObject({
      ok: false,
      code: 'FLAG_NOT_GRANTED',
    });
    await expect(
      registry.confirmations.canDecide(pending, { kind: 'confirm', person: { id: 'ann', flags: finance } }),
    ).resolves.toEqual({
      ok: true,
    });
    expect((await record(asked.confirmationId)).approvals).toEqual([]);
    await registry.confirm(asked.confirmationId, approve(asked, 'ann'));
    await expect(
      registry.confirmations.canDecide(await record(asked.confirmationId), {
        kind: 'confirm',
        person: { id: 'ann', flags: finance },
      }),
    ).resolves.toMatchObject({ ok: false, code: 'ALREADY_APPROVED' });
  });

  it('a shadow approvals rule asks nothing more', async () => {
    const { registry, deliveries, ask, record } = payments({}, [{ approvals: 3, mode: 'shadow' }]);
    const asked = await ask();
    expect((await record(asked.confirmationId)).requires).toBeUndefined();
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'ann' })).resolves.toMatchObject({
      ok: true,
    });
    expect(deliveries).toHaveLength(1);
  });

  it("a proposal asks the same approvers as a person's invoke", async () => {
    const { registry, deliveries, record } = payments({ requireDifferentApprover: true });
    const proposed = await registry.propose(
      'payment.send',
      { text: 'Pay 900.' },
      { actor: 'agent-7', note: 'Invoice 12.' },
    );
    if (!proposed.ok) throw new Error(proposed.error);
    expect((await record(proposed.confirmationId)).requires).toMatchObject({
      approvals: 2,
      approverFlags: ['finance'],
    });
    const asked = proposed as ConfirmRequired;
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'agent-7'))).resolves.toMatchObject({
      code: 'SAME_PERSON',
    });
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'ann'))).resolves.toMatchObject({
      code: 'AWAITING_APPROVALS',
    });
    await expect(registry.confirm(asked.confirmationId, approve(asked, 'bob'))).resolves.toMatchObject({
      ok: true,
    });
    expect(deliveries).toHaveLength(1);
  });
});
