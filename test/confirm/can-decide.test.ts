import { type ConfirmRequired, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { sendTool } from '../helpers/tools.js';

async function asked(options: ConstructorParameters<typeof ToolRegistry>[0] = {}) {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const send = sendTool('message.send', { featureFlag: 'mail' });
  const registry = new ToolRegistry({ requireDifferentApprover: true, now: () => now, ...options }).register(
    send.tool,
  );
  const proposal = (await registry.propose(
    'message.send',
    { text: 'x' },
    { actor: 'agent:desk-bot', flags: { mail: true } },
  )) as ConfirmRequired;
  const got = await registry.confirmations.get(proposal.confirmationId);
  if (!got.ok) throw new Error('no record');
  return { registry, record: got.confirmation, send, advance: (ms: number) => (now += ms) };
}

describe('registry.confirmations.canDecide: the check list asked dry', () => {
  it('says yes to an approver who holds the flags, and writes nothing', async () => {
    const { registry, record, send } = await asked();
    const answer = await registry.confirmations.canDecide(record, {
      kind: 'confirm',
      person: { id: 'lead-li', flags: { mail: true } },
    });
    expect(answer).toEqual({ ok: true });
    expect(send.delivered).toHaveLength(0);
    expect(await registry.confirmations.get(record.id)).toMatchObject({
      confirmation: { status: 'pending' },
    });
  });

  it('answers as the decision would: four eyes, the gates, authorize', async () => {
    const { registry, record } = await asked();
    const ask = (person: { id: string; flags?: Record<string, boolean> }, extra = {}) =>
      registry.confirmations.canDecide(record, { kind: 'confirm', person, ...extra });
    expect(await ask({ id: 'agent:desk-bot', flags: { mail: true } })).toMatchObject({ code: 'SAME_PERSON' });
    expect(await ask({ id: 'lead-li' })).toMatchObject({ code: 'FLAG_NOT_GRANTED' });
    expect(await ask({ id: 'lead-li', flags: { mail: true } }, { authorize: () => false })).toMatchObject({
      code: 'FORBIDDEN',
    });
    // The asker may still say no.
    expect(
      await registry.confirmations.canDecide(record, { kind: 'reject', person: { id: 'agent:desk-bot' } }),
    ).toEqual({ ok: true });
    // And the real confirm agrees with each answer.
    expect(
      await registry.confirm(record.id, { approvedBy: 'agent:desk-bot', flags: { mail: true } }),
    ).toMatchObject({
      code: 'SAME_PERSON',
    });
    expect(await registry.confirm(record.id, { approvedBy: 'lead-li' })).toMatchObject({
      code: 'FLAG_NOT_GRANTED',
    });
  });

  it('answers EXPIRED for an overdue one without marking it', async () => {
    const { registry, record, advance } = await asked();
    advance(2 * 3_600_000);
    expect(
      await registry.confirmations.canDecide(record, {
        kind: 'confirm',
        person: { id: 'lead-li', flags: { mail: true } },
      }),
    ).toMatchObject({ ok: false, code: 'EXPIRED' });
    expect(await registry.confirmations.get(record.id)).toMatchObject({
      confirmation: { status: 'pending' },
    });
  });

  it('answers ALREADY_DECIDED once decided, and retry only for failed or unknown', async () => {
    const { registry, record } = await asked();
    expect(
      await registry.confirmations.canDecide(record, {
        kind: 'retry',
        person: { id: 'lead-li', flags: { mail: true } },
      }),
    ).toMatchObject({ code: 'ALREADY_DECIDED' });
    await registry.reject(record.id, { rejectedBy: 'lead-li' });
    const got = await registry.confirmations.get(record.id);
    if (!got.ok) throw new Error('no record');
    expect(
      await registry.confirmations.canDecide(got.confirmation, {
        kind: 'confirm',
        person: { id: 'lead-li' },
      }),
    ).toMatchObject({ code: 'ALREADY_DECIDED' });
  });

  it('refuses unreadable asks as INVALID_OPTION', async () => {
    const { registry, record } = await asked();
    for (const bad of [
      {},
      { kind: 'send', person: { id: 'li' } },
      { kind: 'confirm', person: { id: '' } },
      { kind: 'confirm' },
    ]) {
      expect(await registry.confirmations.canDecide(record, bad as never)).toMatchObject({
        code: 'INVALID_OPTION',
      });
    }
    expect(
      await registry.confirmations.canDecide(null as never, { kind: 'confirm', person: { id: 'li' } }),
    ).toMatchObject({ code: 'INVALID_OPTION' });
  });
});
