import { type Confirmation, type ConfirmationStatus, describeDecision } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { pendingConfirmation } from './store-contract.js';

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
