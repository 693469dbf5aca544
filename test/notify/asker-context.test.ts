import type { ApprovalNotice } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';

const notice = (extra: Partial<ApprovalNotice> = {}, confirmation = {}): ApprovalNotice => ({
  id: 'c1.created',
  kind: 'created',
  confirmation: {
    id: 'c1',
    tool: 'message.send',
    title: 'Send a message',
    actor: 'agent:desk-bot',
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: '2030-01-01T01:00:00.000Z',
    status: 'pending',
    note: 'The customer asked twice <b>for</b> the link & more.',
    links: [
      { label: 'Conversation #4411 <script>', url: 'https://desk.example/c/4411' },
      { label: 'Sneaky', url: 'javascript:alert(1)' },
    ],
    ref: 'conv-4411',
    ...confirmation,
  },
  locale: 'en',
  ...extra,
});

describe("notices tell the approver why: the asker's note, links and reference", () => {
  it('Slack: the note and reference as escaped text, each http(s) link a button', () => {
    const message = slackMessage(notice(), false);
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('*Why*\\nThe customer asked twice &lt;b&gt;for&lt;/b&gt; the link &amp; more.');
    expect(json).toContain('*Reference*\\nconv-4411');
    const actions = message.blocks.find((b) => b.type === 'actions') as {
      elements: { url: string; text: { type: string; text: string } }[];
    };
    expect(actions.elements).toEqual([
      expect.objectContaining({
        url: 'https://desk.example/c/4411',
        text: { type: 'plain_text', text: 'Conversation #4411 <script>' },
      }),
    ]);
    expect(json).not.toContain('javascript:');
  });

  it('email: rows for the note and reference, links as escaped anchors, only http(s)', () => {
    const mail = emailContent(notice(), { includePayload: false });
    expect(mail.text).toContain('Why: The customer asked twice <b>for</b> the link & more.');
    expect(mail.text).toContain('Links:\n- Conversation #4411 <script>: https://desk.example/c/4411');
    expect(mail.html).toContain(
      '<a href="https://desk.example/c/4411" rel="noopener noreferrer">Conversation #4411 &lt;script&gt;</a>',
    );
    expect(mail.html).toContain('The customer asked twice &lt;b&gt;for&lt;/b&gt; the link &amp; more.');
    expect(mail.html + mail.text).not.toContain('javascript:');
  });

  it('a decided notice says who decided and what they said, in Chinese too', () => {
    const decided = notice(
      {
        id: 'c1.decided.rejected',
        kind: 'decided',
        decision: { at: '2030-01-01T00:10:00.000Z', by: 'lead-li', note: 'wrong customer' },
        locale: 'zh-CN',
      },
      { status: 'rejected' },
    );
    const mail = emailContent(decided, { includePayload: false });
    expect(mail.text).toContain('决定人: lead-li');
    expect(mail.text).toContain('说明: wrong customer');
    expect(JSON.stringify(slackMessage(decided, false).blocks)).toContain('*决定人*\\nlead-li');
  });

  it('a notice without them has no empty rows', () => {
    const bare = notice({}, { note: undefined, links: undefined, ref: undefined });
    const { note: _n, links: _l, ref: _r, ...confirmation } = bare.confirmation;
    const mail = emailContent({ ...bare, confirmation }, { includePayload: false });
    expect(mail.text).not.toContain('Why');
    expect(mail.text).not.toContain('Links');
  });
});
