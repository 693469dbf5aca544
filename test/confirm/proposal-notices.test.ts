import { type ApprovalNotice, type ConfirmRequired, type Notifier, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { noticeData } from '../../src/notify/notice-data.js';
import { sendTool } from '../helpers/tools.js';

function listening() {
  const notices: ApprovalNotice[] = [];
  const channel: Notifier = {
    channel: 'test',
    send: async (notice) => {
      notices.push(notice);
      return { ok: true };
    },
  };
  const next = async (count: number) => {
    for (let i = 0; i < 100 && notices.length < count; i++) await new Promise((r) => setTimeout(r, 5));
    return notices;
  };
  return { channel, notices, next };
}

const about = {
  note: 'The customer asked twice.',
  links: [{ label: 'Conversation #4411', url: 'https://desk.example/c/4411' }],
  ref: 'conv-4411',
};

describe("a proposal's note, links and ref in notices", () => {
  it('are on the created notice and the decided one, which also says who decided and why', async () => {
    const heard = listening();
    const registry = new ToolRegistry({ notify: { to: [heard.channel] } }).register(sendTool().tool);
    const asked = (await registry.propose(
      'message.send',
      { text: 'x' },
      { actor: 'agent:desk-bot', ...about },
    )) as ConfirmRequired;
    await registry.reject(asked.confirmationId, { rejectedBy: 'lead-li', reason: 'wrong customer' });
    const [created, decided] = await heard.next(2);
    expect(created).toMatchObject({ kind: 'created', confirmation: about });
    expect(created).not.toHaveProperty('decision');
    expect(created).not.toHaveProperty('payload');
    expect(decided).toMatchObject({
      kind: 'decided',
      recipient: 'agent:desk-bot',
      confirmation: { ...about, status: 'rejected' },
      decision: { by: 'lead-li', note: 'wrong customer' },
    });
    expect(Date.parse(decided?.decision?.at ?? '')).not.toBeNaN();
  });

  it('a delivered one names the person who approved it, not the system step that recorded the outcome', async () => {
    const heard = listening();
    const registry = new ToolRegistry({ notify: { to: [heard.channel] } }).register(sendTool().tool);
    const asked = (await registry.propose(
      'message.send',
      { text: 'x' },
      { actor: 'agent:desk-bot', ...about },
    )) as ConfirmRequired;
    await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li' });
    const [, decided] = await heard.next(2);
    expect(decided).toMatchObject({
      kind: 'decided',
      confirmation: { status: 'delivered' },
      decision: { by: 'lead-li' },
    });
  });

  it('reach a channel field by field, and nothing else of the record does', async () => {
    const heard = listening();
    const registry = new ToolRegistry({ notify: { to: [heard.channel] } }).register(sendTool().tool);
    await registry.propose('message.send', { text: 'secret' }, { actor: 'agent:desk-bot', ...about });
    const [created] = await heard.next(1);
    const data = noticeData({ ...(created as ApprovalNotice), extra: 'leak' } as never, false);
    expect(data.confirmation).toMatchObject(about);
    expect(JSON.stringify(data)).not.toContain('secret');
    expect(JSON.stringify(data)).not.toContain('leak');
  });
});
