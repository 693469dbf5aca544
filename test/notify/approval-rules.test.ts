import { type ApprovalNotice, createMemoryStore, ToolRegistry } from 'graded-tools';
import { emailNotifier, slackNotifier, webhookNotifier } from 'graded-tools/notify';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
import { type HttpReceiver, startReceiver } from './support/http-receiver.js';
import { notice } from './support/notices.js';
import { type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.js';

// Notices of a send whose rules ask for several approvers, or for a flag: they say so, so the people
// told know who may act on it.

const TWO_FROM_FINANCE = { approvals: 2, approverFlags: ['finance'], rules: ['big-refunds'] };

/** A pending notice whose confirmation carries `requires` (and `approved`, how many so far). */
const ruled = (extra: Partial<ApprovalNotice['confirmation']>, overrides: Partial<ApprovalNotice> = {}) =>
  notice({ ...overrides, confirmation: { ...notice().confirmation, ...extra } });

/** The text of every Block Kit block, for looking words up. */
const slackText = (message: ReturnType<typeof slackMessage>) => JSON.stringify(message.blocks);

describe('notices say what the rules ask of the approvers', () => {
  it('Slack: under why it arrived, and in the notification’s fallback text', () => {
    const message = slackMessage(ruled({ requires: TWO_FROM_FINANCE }), false);
    const section = message.blocks[1] as { text: { text: string } };
    expect(section.text.text).toBe(
      'A send is waiting for a person to approve or reject it.\n*Needs 2 approvals from finance*',
    );
    expect(message.text).toBe(
      'Approval needed: Send a message to a customer (ana@example.com, 2026-12-01 14:30 UTC; Needs 2 approvals from finance) https://desk.example/approvals/c_4f1a',
    );
  });

  it('email: a line of its own in the text and the HTML', () => {
    const mail = emailContent(ruled({ requires: TWO_FROM_FINANCE }), { includePayload: false });
    expect(mail.text).toContain(
      'A send is waiting for a person to approve or reject it.\nNeeds 2 approvals from finance\n',
    );
    expect(mail.html).toContain('<p>Needs 2 approvals from finance</p>');
  });

  it('a reminder says how many approved so far; one flag or several people are worded each their way', () => {
    const reminder = ruled(
      { requires: TWO_FROM_FINANCE, approved: 1 },
      { id: 'c_4f1a.reminder', kind: 'reminder' },
    );
    expect(emailContent(reminder, { includePayload: false }).text).toContain(
      'Needs 2 approvals from finance — 1 of 2 approved',
    );
    expect(slackText(slackMessage(reminder, false))).toContain(
      '*Needs 2 approvals from finance — 1 of 2 approved*',
    );
    const words = (requires: object) =>
      emailContent(ruled({ requires: requires as never }), { includePayload: false }).text;
    expect(words({ approvals: 1, approverFlags: ['finance'], rules: [] })).toContain(
      'Needs an approval from finance\n',
    );
    expect(words({ approvals: 3, approverFlags: [], rules: [] })).toContain(
      'Needs 3 approvals from different people\n',
    );
    expect(words({ approvals: 2, approverFlags: ['finance', 'legal'], rules: [] })).toContain(
      'Needs 2 approvals from finance and legal\n',
    );
  });

  it('in Chinese for a zh-CN notice', () => {
    const zh = ruled({ requires: TWO_FROM_FINANCE, approved: 1 }, { locale: 'zh-CN' });
    expect(emailContent(zh, { includePayload: false }).text).toContain(
      '需要 2 位拥有 finance 权限的人批准 — 已有 1/2 人批准',
    );
    expect(slackText(slackMessage(zh, false))).toContain('需要 2 位拥有 finance 权限的人批准');
  });

  it('says nothing of it when it asks no more than one plain approval, or once decided', () => {
    const plain = emailContent(ruled({ requires: { approvals: 1, approverFlags: [], rules: [] } }), {
      includePayload: false,
    });
    expect(plain.text).not.toMatch(/Needs/);
    const decided = ruled(
      { requires: TWO_FROM_FINANCE, approved: 2, status: 'delivered' },
      { id: 'c_4f1a.decided.delivered', kind: 'decided' },
    );
    expect(emailContent(decided, { includePayload: false }).text).not.toMatch(/Needs/);
    expect(slackText(slackMessage(decided, false))).not.toMatch(/Needs/);
  });

  it('a requires that cannot be read is left out, and markup in a flag name stays text', () => {
    const odd = emailContent(ruled({ requires: { approvals: 'two', approverFlags: 'finance' } as never }), {
      includePayload: false,
    });
    expect(odd.text).not.toMatch(/Needs/);
    const hostile = ruled({ requires: { approvals: 2, approverFlags: ['<b>fin</b> & <@U123>'], rules: [] } });
    expect(emailContent(hostile, { includePayload: false }).html).toContain(
      'Needs 2 approvals from &lt;b&gt;fin&lt;/b&gt; &amp; &lt;@U123&gt;',
    );
    expect(slackText(slackMessage(hostile, false))).toContain('&lt;b&gt;fin&lt;/b&gt; &amp; &lt;@U123&gt;');
    expect(slackText(slackMessage(hostile, false))).not.toContain('<@U123>');
  });
});

describe('from the registry: a send two finance approvers must confirm', () => {
  const receivers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('Slack, email and the webhook each tell what its rules ask, and the reminder how many approved', async () => {
    const slack: HttpReceiver = await startReceiver();
    const hook: HttpReceiver = await startReceiver();
    const smtp: SmtpReceiver = await startSmtpReceiver();
    receivers.push(slack, hook, smtp);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    let now = Date.parse('2026-12-01T14:00:00.000Z');
    const registry = new ToolRegistry({
      confirmations: createMemoryStore(),
      now: () => now,
      notify: {
        to: [
          slackNotifier({ webhookUrl: slack.url }),
          emailNotifier({
            transport: nodemailer.createTransport({
              host: smtp.host,
              port: smtp.port,
              secure: false,
              ignoreTLS: true,
            }),
            from: 'approvals@desk.example',
            to: 'finance@desk.example',
          }),
          webhookNotifier({ url: hook.url, secret }),
        ],
        consoleUrl: 'https://desk.example/approvals',
        remindBeforeMs: 10 * 60_000,
      },
    }).register({
      name: 'refund.send',
      title: 'Refund a customer',
      description: 'Refund an order.',
      sideEffect: 'send',
      inputSchema: {
        type: 'object',
        properties: { orderId: { type: 'string' }, amount: { type: 'number' } },
        required: ['orderId', 'amount'],
      },
      rules: [{ name: 'big-refunds', when: 'input.amount > 500', approvals: 2, approverFlags: ['finance'] }],
      prepare: (input) => ({ orderId: String(input.orderId), amount: Number(input.amount) }),
      deliver: () => ({ refunded: true }),
    });
    const asked = await registry.invoke(
      'refund.send',
      { orderId: 'o-77', amount: 900 },
      { actor: 'agent-7' },
    );
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a pending confirmation');
    await expect.poll(() => slack.requests.length + hook.requests.length + smtp.mails.length).toBe(3);

    const created = JSON.parse(slack.requests[0]?.body ?? '{}') as { text: string };
    expect(created.text).toContain('Needs 2 approvals from finance');
    expect(smtp.mails[0]?.mail.text).toContain('Needs 2 approvals from finance\n');
    const body = new Webhook(secret).verify(hook.requests[0]?.body ?? '', {
      'webhook-id': String(hook.requests[0]?.headers['webhook-id']),
      'webhook-timestamp': String(hook.requests[0]?.headers['webhook-timestamp']),
      'webhook-signature': String(hook.requests[0]?.headers['webhook-signature']),
    }) as { data: ApprovalNotice };
    expect(body.data.confirmation).toMatchObject({
      requires: { approvals: 2, approverFlags: ['finance'], rules: ['big-refunds'] },
      approved: 0,
    });

    const first = await registry.confirm(asked.confirmationId, {
      approvedBy: 'fin-mei',
      flags: { finance: true },
      digest: asked.digest,
    });
    expect(first).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
    now += 55 * 60_000;
    const swept = await registry.sweep();
    expect(swept.ok && swept.reminded.map((c) => c.id)).toEqual([asked.confirmationId]);
    await expect.poll(() => slack.requests.length).toBe(2);
    await expect.poll(() => smtp.mails.length).toBe(2);
    expect((JSON.parse(slack.requests[1]?.body ?? '{}') as { text: string }).text).toContain(
      'Needs 2 approvals from finance — 1 of 2 approved',
    );
    expect(smtp.mails[1]?.mail.text).toContain('Needs 2 approvals from finance — 1 of 2 approved');
  });
});
