// The email-approval flow of the README, whole: a send waits, each approver gets a mail of their own
// with a one-time link (a real SMTP server on loopback receives them), one opens it without a console
// session and confirms; it is delivered once, and every other link to it is refused.
import { ToolRegistry } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { emailNotifier } from 'graded-tools/notify';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notice } from './support/notices.js';
import { type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.js';

const receivers: SmtpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function smtp() {
  const server = await startSmtpReceiver();
  receivers.push(server);
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: false,
    ignoreTLS: true,
  });
  return { server, transport };
}

const toOf = (mail: { mail: { to?: unknown } }) =>
  (mail.mail.to as { value: { address: string }[] }).value.map((v) => v.address);

describe('email approvals through one-time links', () => {
  it('mails each approver their own link; the first to confirm sends it once, the other link is refused', async () => {
    const { server, transport } = await smtp();
    const delivered: string[] = [];
    const origin = 'https://desk.example';
    // The console is created after the registry: the notifier only reaches it when a notice goes out.
    let approvals: ReturnType<typeof createApprovalsConsole> | undefined;
    const registry = new ToolRegistry({
      notify: {
        to: [
          emailNotifier({
            transport,
            from: 'Approvals <approvals@desk.example>',
            to: (n) => (n.kind === 'decided' ? undefined : ['li@desk.example', 'wu@desk.example']),
            approvalLink: (n, recipient) =>
              approvals?.createApprovalLink(n.confirmation.id, {
                approver: { id: recipient, flags: { outbound: true } },
                ttlMs: 30 * 60_000,
              }),
          }),
        ],
        consoleUrl: `${origin}/approvals`,
      },
    }).register({
      name: 'message.send',
      title: 'Message a customer',
      description: 'Email a customer.',
      sideEffect: 'send',
      featureFlag: 'outbound',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      prepare: (input) => ({ text: String(input.text) }),
      deliver: (_payload, approval) => {
        delivered.push(approval.approvedBy);
        return { sent: true };
      },
    });
    approvals = createApprovalsConsole({
      registry,
      basePath: '/approvals',
      publicUrl: `${origin}/approvals`,
      authenticate: () => undefined,
    });
    const asked = await registry.invoke(
      'message.send',
      { text: 'Refunded.' },
      { actor: 'agent-7', flags: { outbound: true } },
    );
    expect(asked).toMatchObject({ requiresConfirm: true });
    await vi.waitFor(() => expect(server.mails).toHaveLength(2), { timeout: 10_000 });

    const links = new Map<string, string>();
    for (const mail of server.mails) {
      const [to] = toOf(mail);
      const found = /https:\/\/desk\.example\/approvals\/link\/[^\s"]+/.exec(mail.mail.text ?? '');
      expect(toOf(mail)).toHaveLength(1);
      expect(mail.mail.text).toContain('a personal link that works once');
      links.set(String(to), found?.[0] ?? '');
    }
    const li = new URL(links.get('li@desk.example') ?? '');
    const wu = new URL(links.get('wu@desk.example') ?? '');
    expect(li.hash).not.toBe(wu.hash);
    // Nobody receives another person's link.
    expect(server.mails.find((m) => toOf(m)[0] === 'wu@desk.example')?.raw).not.toContain(li.hash.slice(1));

    const call = (url: URL, action: string, body?: object) =>
      approvals.fetch(
        new Request(`${origin}${url.pathname.replace('/link/', '/api/confirmations/')}${action}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            'x-approval-link': url.hash.slice(1),
            ...(body === undefined ? {} : { origin, 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const shown = (await (await call(li, '')).json()) as { confirmation: { digest: string } };
    const confirmed = await call(li, '/confirm', { digest: shown.confirmation.digest });
    expect(confirmed.status).toBe(200);
    expect(delivered).toEqual(['li@desk.example']);
    const late = await call(wu, '/confirm', { digest: shown.confirmation.digest });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { code: string }).code).toBe('ALREADY_DECIDED');
    expect(delivered).toHaveLength(1);
    approvals.close();
  });

  it('falls back to the console link when no personal link can be made, and never for the asker', async () => {
    const { server, transport } = await smtp();
    const answers = [
      () => {
        throw new Error('no console');
      },
      () => ({ ok: false }),
      () => undefined,
      () => 'https://desk.example/approvals/link/c_4f1a#personal',
    ];
    for (const answer of answers)
      expect(
        await emailNotifier({
          transport,
          from: 'a@desk.example',
          to: 'li@desk.example',
          approvalLink: answer,
        }).send(notice(), {}),
      ).toEqual({ ok: true });
    const decided = notice({ kind: 'decided', recipient: 'agent-7' });
    await emailNotifier({
      transport,
      from: 'a@desk.example',
      to: 'agent@desk.example',
      approvalLink: () => 'https://desk.example/approvals/link/c_4f1a#personal',
    }).send(decided, {});
    const texts = server.mails.map((m) => m.mail.text ?? '');
    for (const text of texts.slice(0, 3))
      expect(text).toContain('Open in the console: https://desk.example/approvals/c_4f1a');
    expect(texts[3]).toContain('works once): https://desk.example/approvals/link/c_4f1a#personal');
    expect(texts[4]).not.toContain('#personal');
    expect(() =>
      emailNotifier({
        transport,
        from: 'a@desk.example',
        to: 'x@desk.example',
        approvalLink: 'yes' as never,
      }),
    ).toThrow(/approvalLink/);
  });
});
