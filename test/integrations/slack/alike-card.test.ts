import type { Confirmation } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { approvalMessage } from '../../../src/integrations/slack/message-blocks.js';
import { blocksProblem } from './support/fake-slack.js';

const base: Confirmation = {
  id: 'c_0123456789abcdef',
  tool: 'refund.issue',
  input: {},
  payload: { order: '1001', amount: 150 },
  digest: 'a'.repeat(64),
  actor: 'agent:desk-bot',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T01:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  status: 'pending',
  attempt: 0,
  history: [{ at: '2030-01-01T00:00:00.000Z', status: 'pending', by: 'agent:desk-bot' }],
};
const tool = { name: 'refund.issue', title: 'Refund', description: 'Refund.', editable: [] };
const draw = (confirmation: Partial<Confirmation>, locale: 'en' | 'zh-CN' = 'en') =>
  approvalMessage({ confirmation: { ...base, ...confirmation }, tool, locale, nameOf: (id) => id });

describe('the Slack approval card flags another pending one with the same payload', () => {
  it('says so while pending, in English and Chinese, and not once decided', () => {
    const alike = { id: 'cfedcba9876543210' };
    expect(JSON.stringify(draw({ alike }).blocks)).toContain(
      'another pending Refund with the same payload: #cfedcba9876543210',
    );
    expect(JSON.stringify(draw({ alike }, 'zh-CN').blocks)).toContain('另一条待确认的 Refund 内容相同');
    expect(JSON.stringify(draw({ alike, status: 'rejected' }).blocks)).not.toContain('same payload');
    expect(JSON.stringify(draw({}).blocks)).not.toContain('same payload');
  });

  it('keeps within Block Kit limits with the flag beside the largest card', () => {
    const payload = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`field_${i}`, `value ${i}`]));
    const links = Array.from({ length: 10 }, (_, i) => ({
      label: 'L'.repeat(200),
      url: `https://example.com/${i}`,
    }));
    const message = draw({
      payload,
      links,
      note: 'n'.repeat(1_990),
      ref: 'r'.repeat(256),
      alike: { id: 'x' },
    });
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
  });
});
