// A proposed write's notices and Slack card: every channel words it as a change applied, never as a
// send, and the notice (so a webhook's data) carries `sideEffect: 'write'`.
import {
  type ApprovalNotice,
  type Confirmation,
  type ConfirmRequired,
  type Notifier,
  ToolRegistry,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { approvalMessage } from '../../src/integrations/slack/message-blocks.js';
import { emailContent } from '../../src/notify/email-notifier.js';
import { noticeData } from '../../src/notify/notice-data.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
import { writeTool } from '../helpers/tools.js';

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

async function proposedAndApplied(locale: 'en' | 'zh-CN' = 'en') {
  const heard = listening();
  const registry = new ToolRegistry({ notify: { to: [heard.channel] }, locale }).register(
    writeTool('ticket.submit', { title: 'Open a ticket', effect: 'Opens a ticket: {summary}' }).tool,
  );
  const asked = (await registry.propose(
    'ticket.submit',
    { summary: 'Printer on fire' },
    { actor: 'agent:desk-bot' },
  )) as ConfirmRequired;
  await registry.confirm(asked.confirmationId, { approvedBy: 'lead-li', digest: asked.digest });
  const [created, decided] = await heard.next(2);
  if (created === undefined || decided === undefined) throw new Error('expected two notices');
  return { registry, created, decided, id: asked.confirmationId };
}

describe("a proposed write's notices", () => {
  it('carry sideEffect: write, which a webhook passes on', async () => {
    const { created, decided } = await proposedAndApplied();
    expect(created.confirmation).toMatchObject({ sideEffect: 'write', title: 'Open a ticket' });
    expect(decided.confirmation).toMatchObject({ sideEffect: 'write', status: 'delivered' });
    expect(noticeData(created, false).confirmation.sideEffect).toBe('write');
  });

  it('say a change, not a send, by email and Slack (en, zh-CN)', async () => {
    const en = await proposedAndApplied();
    const settings = { includePayload: false };
    expect(emailContent(en.created, settings).text).toContain(
      'A change is waiting for a person to approve or reject it.',
    );
    expect(emailContent(en.decided, settings).subject).toBe('Open a ticket: applied');
    expect(JSON.stringify(slackMessage(en.decided, false))).toContain(
      'The change you asked for has been decided.',
    );
    const zh = await proposedAndApplied('zh-CN');
    expect(emailContent(zh.created, settings).text).toContain('有一项更改正在等待人工批准或拒绝。');
    expect(emailContent(zh.decided, settings).subject).toBe('Open a ticket：已执行');
    for (const notice of [en.created, en.decided, zh.created, zh.decided]) {
      const words = `${emailContent(notice, settings).text} ${JSON.stringify(slackMessage(notice, false))}`;
      expect(words).not.toMatch(/\bsen[dt]\b|发送|送达/i);
    }
  });

  it('the Slack approvals card asks to approve a change, and says when it was applied', async () => {
    const { registry, id } = await proposedAndApplied();
    const found = await registry.confirmations.get(id);
    if (!found.ok) throw new Error(found.error);
    const tool = registry.confirmations.tool('ticket.submit');
    const pending: Confirmation = {
      ...found.confirmation,
      status: 'pending' as const,
      history: found.confirmation.history.slice(0, 1),
    };
    const draw = (confirmation: Confirmation) =>
      JSON.stringify(approvalMessage({ confirmation, tool, locale: 'en', nameOf: (who) => who }));
    expect(draw(pending)).toContain('Approve this change?');
    expect(draw(pending)).toContain('It is applied as shown once enough people approve.');
    expect(draw(pending)).toContain('Opens a ticket: Printer on fire');
    expect(draw(found.confirmation)).toContain('Approved by lead-li — applied');
    expect(draw(found.confirmation)).not.toMatch(/\bsen[dt]\b/);
  });
});
