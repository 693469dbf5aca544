import { ToolDefinitionError } from 'graded-tools';
import { emailNotifier, type NotifyAttempt } from 'graded-tools/notify';
import nodemailer, { type Transporter } from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { notice, SECRET_PAYLOAD } from './support/notices.js';
import { type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.js';

const receivers: SmtpReceiver[] = [];

async function smtp(refuse?: (address: string) => boolean) {
  const started = await startSmtpReceiver(refuse);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** The app's own nodemailer transport, pointed at the loopback SMTP server. */
function transportTo(server: SmtpReceiver) {
  return nodemailer.createTransport({ host: server.host, port: server.port, secure: false, ignoreTLS: true });
}

function addresses(field: unknown): string[] {
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((entry) => (entry as { value: { address: string }[] }).value.map((v) => v.address));
}

describe('emailNotifier', () => {
  it('sends a mail with From, To, Subject, a text and an HTML part, and the link', async () => {
    const server = await smtp();
    const attempts: NotifyAttempt[] = [];
    const result = await emailNotifier({
      transport: transportTo(server),
      from: 'Approvals <approvals@desk.example>',
      to: 'approvers@desk.example',
      subjectPrefix: '[Support desk]',
    }).send(notice(), { onAttempt: (a) => attempts.push(a) });
    expect(result).toEqual({ ok: true });
    expect(server.mails).toHaveLength(1);
    const { mail, envelope, raw } = server.mails[0]!;
    expect(envelope).toEqual({ from: 'approvals@desk.example', to: ['approvers@desk.example'] });
    expect(mail.from?.value).toEqual([{ address: 'approvals@desk.example', name: 'Approvals' }]);
    expect(addresses(mail.to)).toEqual(['approvers@desk.example']);
    expect(mail.subject).toBe('[Support desk] Approval needed: Send a message to a customer');
    expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.text).toContain('Asked by: ana@example.com');
    expect(mail.text).toContain('Expires: 2026-12-01 14:30 UTC');
    expect(mail.text).toContain('Open in the console: https://desk.example/approvals/c_4f1a');
    expect(mail.html).toContain('<a href="https://desk.example/approvals/c_4f1a">Open in the console</a>');
    expect(mail.html).toContain('<html lang="en">');
    expect(attempts).toEqual([expect.objectContaining({ channel: 'email', attempt: 1, ok: true })]);
  });

  it('carries no payload unless the channel allows it, and then in both parts', async () => {
    const server = await smtp();
    const withPayload = notice({
      payload: SECRET_PAYLOAD,
      confirmation: { ...notice().confirmation, payload: SECRET_PAYLOAD } as never,
    });
    const base = { transport: transportTo(server), from: 'approvals@desk.example', to: 'a@desk.example' };
    await emailNotifier(base).send(withPayload, {});
    await emailNotifier({ ...base, includePayload: true }).send(withPayload, {});
    const [without, withIt] = server.mails;
    expect(without?.raw).not.toContain('R-7731-SECRET');
    expect(withIt?.mail.text).toContain('"body": "refund code R-7731-SECRET"');
    expect(withIt?.mail.html).toContain('refund code R-7731-SECRET');
    expect(withIt?.mail.html).toContain('&quot;to&quot;: &quot;customer@example.com&quot;');
  });

  it('escapes every value in the HTML part', async () => {
    const server = await smtp();
    await emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: 'a@desk.example',
    }).send(
      notice({
        confirmation: {
          ...notice().confirmation,
          title: '<script>alert("x")</script>\r\nBcc: eve@evil.example',
          actor: '<img src=x onerror=alert(1)>',
        },
        link: 'https://desk.example/approvals/c_4f1a?a=1&b="2"',
      }),
      {},
    );
    const html = String(server.mails[0]?.mail.html);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('href="https://desk.example/approvals/c_4f1a?a=1&amp;b=&quot;2&quot;"');
    // The subject is one header line whatever the title holds.
    expect(server.mails[0]?.mail.subject).toBe(
      'Approval needed: <script>alert("x")</script> Bcc: eve@evil.example',
    );
    expect(server.mails[0]?.mail.bcc).toBeUndefined();
    expect(server.mails[0]?.envelope.to).toEqual(['a@desk.example']);
  });

  it('links only http(s) URLs', async () => {
    const server = await smtp();
    await emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: 'a@desk.example',
    }).send(notice({ link: 'javascript:alert(1)' }), {});
    expect(server.mails[0]?.raw).not.toContain('javascript:');
    expect(server.mails[0]?.mail.html).not.toContain('<a ');
  });

  it('writes Chinese for a zh-CN notice', async () => {
    const server = await smtp();
    await emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: 'a@desk.example',
    }).send(notice({ kind: 'reminder', id: 'c_4f1a.reminder', locale: 'zh-CN' }), {});
    const { mail } = server.mails[0]!;
    expect(mail.subject).toBe('提醒：Send a message to a customer 仍在等待审批');
    expect(mail.text).toContain('发起人: ana@example.com');
    expect(mail.text).toContain('在控制台中打开: https://desk.example/approvals/c_4f1a');
    expect(mail.html).toContain('<html lang="zh-CN">');
  });

  it('sends to a list, or to whom a function picks: the asker for a decision', async () => {
    const server = await smtp();
    const transport = transportTo(server);
    await emailNotifier({
      transport,
      from: 'approvals@desk.example',
      to: ['a@desk.example', 'b@desk.example'],
    }).send(notice(), {});
    const picked = emailNotifier({
      transport,
      from: 'approvals@desk.example',
      to: (n) => (n.kind === 'decided' ? n.recipient : 'approvers@desk.example'),
    });
    await picked.send(
      notice({
        id: 'c_4f1a.decided',
        kind: 'decided',
        recipient: 'ana@example.com',
        confirmation: { ...notice().confirmation, status: 'delivered' },
      }),
      {},
    );
    expect(server.mails.map((m) => m.envelope.to)).toEqual([
      ['a@desk.example', 'b@desk.example'],
      ['ana@example.com'],
    ]);
    expect(server.mails[1]?.mail.subject).toBe('Send a message to a customer: sent');
    expect(server.mails[1]?.mail.text).toContain('The send you asked for has been decided.');
  });

  it('reports a notice with nobody to send it to, or a picker that throws, as a failure and sends nothing', async () => {
    const server = await smtp();
    const attempts: NotifyAttempt[] = [];
    const nobody = emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: () => undefined,
    });
    expect(await nobody.send(notice(), { onAttempt: (a) => attempts.push(a) })).toEqual({
      ok: false,
      error: 'no recipient for this notice',
    });
    const broken = emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: () => {
        throw new Error('directory down');
      },
    });
    expect(await broken.send(notice(), { onAttempt: (a) => attempts.push(a) })).toEqual({
      ok: false,
      error: 'directory down',
    });
    expect(attempts.map((a) => a.ok)).toEqual([false, false]);
    expect(server.mails).toHaveLength(0);
  });

  it('turns an SMTP refusal into { ok: false } with the reply code', async () => {
    const server = await smtp((address) => address === 'gone@desk.example');
    const attempts: NotifyAttempt[] = [];
    const result = await emailNotifier({
      transport: transportTo(server),
      from: 'approvals@desk.example',
      to: 'gone@desk.example',
    }).send(notice(), { onAttempt: (a) => attempts.push(a) });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/no mailbox here/);
    expect(attempts).toEqual([expect.objectContaining({ ok: false, status: 550 })]);
  });

  it('stops waiting for a transport that hangs when the signal aborts', async () => {
    const controller = new AbortController();
    const hanging = { sendMail: () => new Promise<never>(() => {}) } as unknown as Transporter;
    setTimeout(() => controller.abort(), 50);
    const result = await emailNotifier({
      transport: hanging,
      from: 'approvals@desk.example',
      to: 'a@desk.example',
    }).send(notice(), { signal: controller.signal });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^aborted/);
  });

  it('refuses options that make no sense at setup', () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    expect(() => emailNotifier({ transport, from: '', to: 'a@desk.example' })).toThrow(ToolDefinitionError);
    expect(() => emailNotifier({ transport, from: 'approvals@desk.example', to: [] })).toThrow(/`to`/);
    expect(() =>
      emailNotifier({ transport: {} as never, from: 'approvals@desk.example', to: 'a@desk.example' }),
    ).toThrow(/transport/);
  });
});
