import type { Confirmation } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { bundleMessage } from '../../../src/integrations/slack/bundle-blocks.js';
import { approvalMessage } from '../../../src/integrations/slack/message-blocks.js';
import { blocksProblem } from './support/fake-slack.js';

// Slack cannot run a WebAuthn ceremony: a send that needs a passkey offers no Approve (and no Edit),
// says the one sentence every surface says, and links to the console where it can be approved.

const base: Confirmation = {
  id: 'c_0123456789abcdef',
  tool: 'message.send',
  input: {},
  payload: { to: 'ana@example.com', text: 'Hi' },
  digest: 'a'.repeat(64),
  actor: 'agent:desk-bot',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T01:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  status: 'pending',
  attempt: 0,
  history: [{ at: '2030-01-01T00:00:00.000Z', status: 'pending', by: 'agent:desk-bot' }],
};
const PASSKEY = { approvals: 1, approverFlags: [], rules: [], passkey: true as const };
const tool = { name: 'message.send', title: 'Reply', description: 'Reply.', editable: ['text'] };
const consoleLink = 'https://desk.example/approvals/confirmations/c_0123456789abcdef';
const draw = (confirmation: Partial<Confirmation>, locale: 'en' | 'zh-CN' = 'en') =>
  approvalMessage({
    confirmation: { ...base, ...confirmation },
    tool,
    locale,
    nameOf: (id) => id,
    consoleLink,
  });
const actionIds = (blocks: readonly unknown[]) =>
  blocks
    .filter((b) => (b as { type: string }).type === 'actions')
    .flatMap((b) => (b as { elements: { action_id: string }[] }).elements.map((e) => e.action_id));

describe('a Slack card of a send that needs a passkey', () => {
  it('offers Reject and the console, never Approve or Edit, and says why', () => {
    const plain = draw({});
    expect(actionIds(plain.blocks)).toEqual(expect.arrayContaining(['graded_tools_approve']));
    const message = draw({ requires: PASSKEY });
    const ids = actionIds(message.blocks);
    expect(ids).not.toContain('graded_tools_approve');
    expect(ids).not.toContain('graded_tools_edit');
    expect(ids).toContain('graded_tools_reject');
    expect(JSON.stringify(message.blocks)).toContain(consoleLink);
    expect(JSON.stringify(message.blocks)).toContain('Approve in the console: a passkey is required.');
    expect(JSON.stringify(draw({ requires: PASSKEY }, 'zh-CN').blocks)).toContain(
      '请在控制台批准：需要通行密钥。',
    );
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
  });

  it('once decided, says nothing of it', () => {
    const done = draw({ requires: PASSKEY, status: 'delivered' });
    expect(JSON.stringify(done.blocks)).not.toContain('passkey');
  });

  it('a bundle with one such step offers no "Approve all" either', () => {
    const steps = [
      { ...base, id: 'c_1', bundle: { id: 'b_1', index: 0, size: 2, digest: 'b'.repeat(64) } },
      {
        ...base,
        id: 'c_2',
        requires: PASSKEY,
        bundle: { id: 'b_1', index: 1, size: 2, digest: 'b'.repeat(64) },
      },
    ] as Confirmation[];
    const { message } = bundleMessage({
      bundle: { id: 'b_1', digest: 'b'.repeat(64), status: 'pending', steps },
      tool: () => tool,
      locale: 'en',
      nameOf: (id) => id,
      consoleLink,
    });
    const ids = actionIds(message.blocks);
    expect(ids).not.toContain('graded_tools_approve');
    expect(ids).toContain('graded_tools_reject');
    expect(JSON.stringify(message.blocks)).toContain('Approve in the console: a passkey is required.');
    expect(JSON.stringify(message.blocks)).toContain(consoleLink);
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
  });
});
