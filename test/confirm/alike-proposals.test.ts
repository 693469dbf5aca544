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

describe('a proposal with the same ref as another pending one is flagged too, saying which', () => {
  it('names the reference in the created notice, email and Slack, in English and Chinese', async () => {
    for (const [locale, said] of [
      ['en', (id: string) => `another pending Refund with the same reference ORDER-7: #${id}`],
      ['zh-CN', (id: string) => `另一条待确认的 Refund 引用相同（ORDER-7）：#${id}`],
    ] as const) {
      const { registry, heard } = desk(locale);
      const first = (await registry.propose(
        'refund.issue',
        { text: 'order 7, 20 EUR' },
        { actor: 'a', ref: 'ORDER-7' },
      )) as ConfirmRequired;
      const second = (await registry.propose(
        'refund.issue',
        { text: 'order 7, 25 EUR' },
        { actor: 'a', ref: 'ORDER-7' },
      )) as ConfirmRequired;
      const got = await registry.confirmations.get(second.confirmationId);
      expect(got).toMatchObject({
        ok: true,
        confirmation: { alike: { id: first.confirmationId, ref: 'ORDER-7' } },
      });
      const [, created] = await heard.next(2);
      const text = said(first.confirmationId);
      expect(created?.confirmation.alike).toEqual({ id: first.confirmationId, text });
      expect(emailContent(created as ApprovalNotice, { includePayload: false }).text).toContain(text);
      expect(JSON.stringify(slackMessage(created as ApprovalNotice, false))).toContain(text);
    }
  });

  it('says "the same payload" when both match, and flags nothing for another ref or none', async () => {
    const { registry } = desk();
    const first = (await registry.propose(
      'refund.issue',
      { text: 'x' },
      { actor: 'a', ref: 'R-1' },
    )) as ConfirmRequired;
    const both = (await registry.propose(
      'refund.issue',
      { text: 'x' },
      { actor: 'a', ref: 'R-1' },
    )) as ConfirmRequired;
    const got = await registry.confirmations.get(both.confirmationId);
    expect(got.ok && got.confirmation.alike).toEqual({ id: first.confirmationId });
    for (const ref of ['R-2', undefined]) {
      const other = (await registry.propose(
        'refund.issue',
        { text: `y ${ref}` },
        { actor: 'a', ...(ref === undefined ? {} : { ref }) },
      )) as ConfirmRequired;
      const seen = await registry.confirmations.get(other.confirmationId);
      expect(seen.ok && seen.confirmation.alike).toBeUndefined();
    }
  });
});
