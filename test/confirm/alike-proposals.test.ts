import { type ApprovalNotice, type ConfirmRequired, type Notifier, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
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

function desk(locale?: 'en' | 'zh-CN') {
  const heard = listening();
  const refund = sendTool('refund.issue', { title: 'Refund' });
  const registry = new ToolRegistry({ notify: { to: [heard.channel] }, ...(locale ? { locale } : {}) })
    .register(refund.tool)
    .register(sendTool('message.send').tool);
  return { registry, heard };
}

describe('a proposal with the same payload as another pending one is flagged, without a key', () => {
  it('keeps the other one on the record and says so in the created notice, email and Slack', async () => {
    const { registry, heard } = desk();
    const first = (await registry.propose(
      'refund.issue',
      { text: 'order 1001' },
      { actor: 'a' },
    )) as ConfirmRequired;
    const second = (await registry.propose(
      'refund.issue',
      { text: 'order 1001' },
      { actor: 'a' },
    )) as ConfirmRequired;
    expect(second.confirmationId).not.toBe(first.confirmationId);
    const got = await registry.confirmations.get(second.confirmationId);
    expect(got).toMatchObject({ ok: true, confirmation: { alike: { id: first.confirmationId } } });
    const firstGot = await registry.confirmations.get(first.confirmationId);
    expect(firstGot.ok && firstGot.confirmation.alike).toBeUndefined();
    const [, created] = await heard.next(2);
    const said = `another pending Refund with the same payload: #${first.confirmationId}`;
    expect(created?.confirmation.alike).toEqual({ id: first.confirmationId, text: said });
    expect(emailContent(created as ApprovalNotice, { includePayload: false }).text).toContain(said);
    expect(JSON.stringify(slackMessage(created as ApprovalNotice, false))).toContain(said);
  });

  it('does not flag another tool, another payload, or one decided already', async () => {
    const { registry } = desk();
    const first = (await registry.propose('refund.issue', { text: 'x' }, { actor: 'a' })) as ConfirmRequired;
    const otherTool = (await registry.propose(
      'message.send',
      { text: 'x' },
      { actor: 'a' },
    )) as ConfirmRequired;
    const otherPayload = (await registry.propose(
      'refund.issue',
      { text: 'y' },
      { actor: 'a' },
    )) as ConfirmRequired;
    await registry.reject(first.confirmationId, { rejectedBy: 'li' });
    const afterDecision = (await registry.propose(
      'refund.issue',
      { text: 'x' },
      { actor: 'a' },
    )) as ConfirmRequired;
    for (const id of [otherTool, otherPayload, afterDecision].map((a) => a.confirmationId)) {
      const got = await registry.confirmations.get(id);
      expect(got.ok && got.confirmation.alike, id).toBeUndefined();
    }
  });

  it('says it in Chinese for a zh-CN registry', async () => {
    const { registry, heard } = desk('zh-CN');
    const first = (await registry.propose('refund.issue', { text: 'x' }, { actor: 'a' })) as ConfirmRequired;
    await registry.propose('refund.issue', { text: 'x' }, { actor: 'a' });
    const [, created] = await heard.next(2);
    expect(created?.confirmation.alike?.text).toBe(
      `另一条待确认的 Refund 内容相同：#${first.confirmationId}`,
    );
  });
});
