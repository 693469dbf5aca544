import { ToolDefinitionError } from 'graded-tools';
import { emailNotifier, type NotifyAttempt, slackNotifier, webhookNotifier } from 'graded-tools/notify';
import { describe, expect, it } from 'vitest';
import { notice } from './support/notices.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A fetch that fails the way undici does: quoting the URL it was given. */
const quotingFetch = (async (url: string | URL | Request) => {
  throw new TypeError(`fetch failed for ${String(url)}`, {
    cause: new Error(`connect ECONNREFUSED ${String(url)}`),
  });
}) as typeof fetch;

describe('URLs with secrets in them', () => {
  it('refuses a webhook URL with user:password@ at setup', () => {
    for (const make of [
      () => webhookNotifier({ url: 'https://ana:hunter2@hooks.example/approvals', secret: SECRET }),
      () => slackNotifier({ webhookUrl: 'https://ana:hunter2@hooks.slack.com/services/T/B/X' }),
    ]) {
      expect(make).toThrow(ToolDefinitionError);
      expect(make).toThrow(/user name or password/);
      try {
        make();
      } catch (error) {
        expect((error as ToolDefinitionError).code).toBe('INVALID_OPTION');
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('masks query values in every error text a webhook or Slack channel reports', async () => {
    const channels = [
      webhookNotifier({
        url: 'http://127.0.0.1:9/hook?token=s3cret',
        secret: SECRET,
        retries: 1,
        backoffMs: 0,
        fetch: quotingFetch,
      }),
      slackNotifier({
        webhookUrl: 'http://127.0.0.1:9/hook?token=s3cret',
        retries: 1,
        backoffMs: 0,
        fetch: quotingFetch,
      }),
    ];
    for (const channel of channels) {
      const attempts: NotifyAttempt[] = [];
      const result = await channel.send(notice(), { onAttempt: (a) => attempts.push(a) });
      expect(result.ok).toBe(false);
      expect(attempts).toHaveLength(2);
      const texts = [result.ok ? '' : result.error, ...attempts.map((a) => a.error ?? '')];
      for (const text of texts) {
        expect(text).toContain('token=***');
        expect(text).not.toContain('s3cret');
      }
    }
  });

  it('masks the SMTP password a mail transport quotes in its error', async () => {
    const email = emailNotifier({
      transport: {
        sendMail: async () => {
          throw new Error('Invalid login for smtp://mailer:hunter2@smtp.example:587');
        },
      },
      from: 'approvals@example.com',
      to: 'lead@example.com',
    });
    const attempts: NotifyAttempt[] = [];
    const result = await email.send(notice(), { onAttempt: (a) => attempts.push(a) });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('smtp://***@smtp.example') });
    expect(JSON.stringify([result, attempts])).not.toContain('hunter2');
  });
});
