import { type Confirmation, type ConfirmationStatus, describeDecision, ToolRegistry } from 'graded-tools';
import { pendingConfirmation } from 'graded-tools/testing';
import { describe, expect, it } from 'vitest';
import { expectConfirmRequired, manualClock, recordingSendTool, registryWith } from './setup.js';

const AT = '2030-01-01T00:05:00.000Z';

function decided(status: ConfirmationStatus, extra: Partial<Confirmation> = {}): Confirmation {
  const base = pendingConfirmation();
  return {
    ...base,
    status,
    updatedAt: AT,
    history: [...base.history, { at: AT, status, by: 'lead-li', ...(extra.history?.[0] ?? {}) }],
    ...(extra.error === undefined ? {} : { error: extra.error }),
  };
}

describe('describeDecision: the words handed back to the model', () => {
  it.each([
    ['delivered', {}, 'Sent at 2030-01-01T00:05:00.000Z: a person approved it.'],
    ['rejected', {}, 'A person rejected this; it was not sent. They gave no reason.'],
    ['expired', {}, 'Nobody decided in time: it expired at 2030-01-01T01:00:00.000Z and was not sent.'],
    ['delivering', {}, 'A person approved this and it is being sent now.'],
  ] as const)('%s, in English', (status, extra, words) => {
    expect(describeDecision(decided(status, extra))).toBe(words);
  });

  it("passes a reject's reason on, trimmed", () => {
    const c = decided('rejected', { history: [{ at: AT, status: 'rejected', note: '  wrong customer ' }] });
    expect(describeDecision(c)).toBe('A person rejected this: wrong customer. It was not sent.');
    expect(describeDecision(c, 'zh-CN')).toBe('有人拒绝了此请求：wrong customer。未发送。');
  });

  it('does not double the full stop after a reason that has its own', () => {
    const c = decided('rejected', { history: [{ at: AT, status: 'rejected', note: 'Wrong customer.' }] });
    expect(describeDecision(c)).toBe('A person rejected this: Wrong customer. It was not sent.');
    expect(describeDecision(c, 'zh-CN')).toBe('有人拒绝了此请求：Wrong customer。未发送。');
    const dots = decided('rejected', { history: [{ at: AT, status: 'rejected', note: ' . ' }] });
    expect(describeDecision(dots)).toBe('A person rejected this; it was not sent. They gave no reason.');
  });

  it('says an edited send went out as edited, and which fields changed', () => {
    const base = decided('delivered');
    const c: Confirmation = {
      ...base,
      history: [
        base.history[0] as never,
        {
          at: AT,
          status: 'delivering',
          by: 'lead-li',
          edit: { fromDigest: 'a', toDigest: 'b', fields: ['text'] },
        },
        { at: AT, status: 'delivered' },
      ],
    };
    expect(describeDecision(c)).toContain('They edited text before sending');
  });

  it('says a failed or unknown outcome without inviting a second send', () => {
    expect(describeDecision(decided('failed', { error: 'SMTP 550' }))).toContain(
      'delivery failed (SMTP 550)',
    );
    const unknown = describeDecision(decided('unknown', { error: 'timed out' }));
    expect(unknown).toContain('unknown (timed out)');
    expect(unknown).toContain('do not send it again');
  });

  it('answers a pending one with its deadline, in Chinese too', () => {
    const c = pendingConfirmation();
    expect(describeDecision(c)).toContain(`until ${c.expiresAt}`);
    expect(describeDecision(c, 'zh-CN')).toContain(`截至 ${c.expiresAt}`);
    expect(describeDecision(decided('delivered'), 'zh-CN')).toBe(
      '已于 2030-01-01T00:05:00.000Z 发送：有人批准了它。',
    );
  });

  it('falls back to English for a locale it does not know', () => {
    expect(describeDecision(decided('delivering'), 'fr' as never)).toBe(
      'A person approved this and it is being sent now.',
    );
  });
});

describe('describeDecision: the model hears what happened, not who', () => {
  const HOLD = 30_000;

  /** A held send that needs two approvers, asked once: the registry, its clock and the confirmation id. */
  async function twoApproverSend() {
    const clock = manualClock();
    const registry = new ToolRegistry({ now: clock.now }).register({
      name: 'mail.send',
      description: 'Email the customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      holdMs: HOLD,
      rules: [{ name: 'two-eyes', approvals: 2 }],
      prepare: (input: { text: string }) => ({ text: input.text }),
      deliver: () => ({ sent: true }),
    });
    const asked = expectConfirmRequired(
      await registry.invoke('mail.send', { text: 'Refund sent.' }, { actor: 'agent-7' }),
    );
    return { registry, clock, id: asked.confirmationId };
  }

  it('a cancel says "a person", never the canceller, in English and Chinese', async () => {
    const held = recordingSendTool('mail.send', undefined, { holdMs: HOLD });
    const { registry } = registryWith(held.tool);
    const asked = expectConfirmRequired(
      await registry.invoke('mail.send', { text: 'Refund sent.' }, { actor: 'agent-7' }),
    );
    await registry.confirm(asked.confirmationId, { approvedBy: 'approver-li@desk.example' });
    const cancelled = await registry.cancel(asked.confirmationId, {
      by: 'approver-li@desk.example',
      reason: 'wrong customer',
    });
    if (!cancelled.ok) throw new Error(cancelled.error);
    expect(describeDecision(cancelled.confirmation)).toBe(
      'A person cancelled this after it was approved: wrong customer. It was not sent.',
    );
    expect(describeDecision(cancelled.confirmation, 'zh-CN')).toBe(
      '有人在批准后撤销了此请求：wrong customer。未发送。',
    );
    for (const locale of ['en', 'zh-CN'] as const)
      expect(describeDecision(cancelled.confirmation, locale)).not.toContain('approver-li');
  });

  it('a send several people approved says how many, never who', async () => {
    const { registry, clock, id } = await twoApproverSend();
    await registry.confirm(id, { approvedBy: 'approver-li@desk.example' });
    const second = await registry.confirm(id, { approvedBy: 'approver-wu@desk.example' });
    if (second.ok || second.confirmation === undefined) throw new Error('expected SCHEDULED');
    expect(describeDecision(second.confirmation)).toBe(
      `2 people approved this; it will be sent at ${second.confirmation.deliverAt} unless someone cancels it first. Nothing has been sent yet.`,
    );
    expect(describeDecision(second.confirmation, 'zh-CN')).toBe(
      `2 人批准了此请求，将于 ${second.confirmation.deliverAt} 发送，除非在此之前有人撤销。尚未发送任何内容。`,
    );
    clock.advance(HOLD);
    await registry.sweep();
    const sent = await registry.confirmations.waitFor(id, { timeoutMs: 0 });
    if (!sent.ok) throw new Error(sent.error);
    expect(describeDecision(sent.confirmation)).toMatch(/^Sent at \S+: 2 people approved it\.$/);
    expect(describeDecision(sent.confirmation, 'zh-CN')).toMatch(/^已于 \S+ 发送：2 人批准了它。$/);
  });

  it('a cancel of a send several people approved says how many approved and that a person cancelled', async () => {
    const { registry, id } = await twoApproverSend();
    await registry.confirm(id, { approvedBy: 'approver-li@desk.example' });
    await registry.confirm(id, { approvedBy: 'approver-wu@desk.example' });
    const cancelled = await registry.cancel(id, { by: 'approver-wu@desk.example' });
    if (!cancelled.ok) throw new Error(cancelled.error);
    expect(describeDecision(cancelled.confirmation)).toBe(
      'A person cancelled this after 2 people approved it. It was not sent.',
    );
    expect(describeDecision(cancelled.confirmation, 'zh-CN')).toBe('有人在 2 人批准后撤销了此请求。未发送。');
  });
});
