import type { ApprovalNotice } from 'graded-tools';
import { emailNotifier, webhookNotifier } from 'graded-tools/notify';
import { describe, expect, it, vi } from 'vitest';
import { passkeyRequiredText } from '../../src/messages/passkey-words.js';
import { emailContent } from '../../src/notify/email-notifier.js';
import { slackMessage } from '../../src/notify/slack-notifier.js';
import { notice } from './support/notices.js';

// A send that needs a passkey cannot be approved from a mail, a Slack message or a webhook's receiver:
// each says the one sentence instead, and a mail carries no one-time approval link for it.

const PASSKEY = { approvals: 1, approverFlags: [], rules: [], passkey: true as const };

const withPasskey = (
  extra: Partial<ApprovalNotice['confirmation']> = {},
  over: Partial<ApprovalNotice> = {},
) => notice({ ...over, confirmation: { ...notice().confirmation, requires: PASSKEY, ...extra } });

describe('notices of a send that needs a passkey', () => {
  it('say “approve in the console: a passkey is required”, in the notice’s language', () => {
    const en = passkeyRequiredText('en');
    expect(en).toBe('Approve in the console: a passkey is required.');
    const mail = emailContent(withPasskey(), { includePayload: false });
    expect(mail.text).toContain(`A send is waiting for a person to approve or reject it.\n${en}\n`);
    expect(mail.html).toContain(`<p>${en}</p>`);
    // One approval asked: no "Needs 1 approvals" line beside it.
    expect(mail.text).not.toMatch(/Needs/);
    const slack = slackMessage(withPasskey(), false);
    expect((slack.blocks[1] as { text: { text: string } }).text.text).toBe(
      `A send is waiting for a person to approve or reject it.\n${en}`,
    );
    const zh = passkeyRequiredText('zh-CN');
    expect(zh).toBe('请在控制台批准：需要通行密钥。');
    expect(emailContent(withPasskey({}, { locale: 'zh-CN' }), { includePayload: false }).text).toContain(zh);
    expect(JSON.stringify(slackMessage(withPasskey({}, { locale: 'zh-CN' }), false).blocks)).toContain(zh);
  });

  it('with a quorum, say both what the rules ask and the passkey', () => {
    const mail = emailContent(
      withPasskey({
        requires: { approvals: 2, approverFlags: [], rules: ['big'], passkey: true },
        approved: 1,
      }),
      { includePayload: false },
    );
    expect(mail.text).toContain(
      'Needs 2 approvals from different people — 1 of 2 approved\nApprove in the console: a passkey is required.\n',
    );
  });

  it('say nothing of it once decided, nor for a send that needs none', () => {
    const decided = withPasskey({ status: 'delivered' }, { id: 'c_4f1a.decided.delivered', kind: 'decided' });
    expect(emailContent(decided, { includePayload: false }).text).not.toContain('passkey');
    expect(JSON.stringify(slackMessage(decided, false))).not.toContain('passkey');
    expect(emailContent(notice(), { includePayload: false }).text).not.toContain('passkey');
  });

  it('a mail carries no personal one-time link for it: the console link, one mail to everyone', async () => {
    const sent: { to: unknown; text: string }[] = [];
    const approvalLink = vi.fn(() => 'https://desk.example/approvals/link/c_4f1a#personal');
    const channel = emailNotifier({
      transport: { sendMail: async (mail: { to: unknown; text: string }) => void sent.push(mail) },
      from: 'approvals@desk.example',
      to: ['li@desk.example', 'wu@desk.example'],
      approvalLink,
    });
    expect(await channel.send(withPasskey(), {})).toEqual({ ok: true });
    expect(approvalLink).not.toHaveBeenCalled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).not.toContain('#personal');
    expect(sent[0]?.text).toContain('Open in the console: https://desk.example/approvals/c_4f1a');
    // The same mail without the passkey: a link each, as before.
    expect(await channel.send(notice(), {})).toEqual({ ok: true });
    expect(approvalLink).toHaveBeenCalledTimes(2);
  });
});

describe('a webhook of a send that needs a passkey', () => {
  it('carries requires.passkey and the sentence (passkeyText), for a receiver that then offers no Approve', async () => {
    const bodies: string[] = [];
    const channel = webhookNotifier({
      url: 'https://hooks.example/approvals',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      fetch: async (_url, init) => {
        bodies.push(String(init?.body));
        return new Response(null, { status: 204 });
      },
    });
    expect(await channel.send(withPasskey({}, { locale: 'zh-CN' }), {})).toEqual({ ok: true });
    expect(await channel.send(notice(), {})).toEqual({ ok: true });
    const [signed, plain] = bodies.map((body) => JSON.parse(body));
    expect(signed.data.confirmation.requires).toEqual(PASSKEY);
    expect(signed.passkeyText).toBe('请在控制台批准：需要通行密钥。');
    expect(plain.passkeyText).toBeUndefined();
    expect(plain.data.confirmation.requires).toBeUndefined();
  });
});
