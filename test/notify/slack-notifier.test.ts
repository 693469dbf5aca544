import { ToolDefinitionError } from 'graded-tools';
import { type NotifyAttempt, slackNotifier } from 'graded-tools/notify';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpReceiver, type ReceiverReply, startReceiver } from './support/http-receiver.js';
import { notice, SECRET_PAYLOAD } from './support/notices.js';

const receivers: HttpReceiver[] = [];

async function receiver(reply?: (request: { body: string }, index: number) => ReceiverReply) {
  const started = await startReceiver(reply);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

interface Block {
  type: string;
  text?: { type: string; text: string };
  fields?: { type: string; text: string }[];
  elements?: { type: string; text?: { type: string; text: string } | string; url?: string }[];
}

function message(body: string | undefined): { text: string; blocks: Block[] } {
  return JSON.parse(body ?? '{}') as { text: string; blocks: Block[] };
}

describe('slackNotifier', () => {
  it('posts a Block Kit message: header, who asked, expiry as a Slack date, a button to the console', async () => {
    const slack = await receiver();
    const attempts: NotifyAttempt[] = [];
    const result = await slackNotifier({ webhookUrl: slack.url }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: true });
    expect(slack.requests[0]?.headers['content-type']).toBe('application/json');
    const { text, blocks } = message(slack.requests[0]?.body);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions', 'context']);
    expect(blocks[0]?.text).toEqual({
      type: 'plain_text',
      text: 'Approval needed: Send a message to a customer',
      emoji: false,
    });
    const fields = blocks[1]?.fields?.map((f) => f.text) ?? [];
    expect(fields).toContain('*Asked by*\nana@example.com');
    const expires = Math.floor(Date.parse('2026-12-01T14:30:00.000Z') / 1000);
    expect(fields).toContain(`*Expires*\n<!date^${expires}^{date_short_pretty} {time}|2026-12-01 14:30 UTC>`);
    expect(blocks[2]?.elements).toEqual([
      expect.objectContaining({
        type: 'button',
        text: { type: 'plain_text', text: 'Open in the console' },
        url: 'https://desk.example/approvals/c_4f1a',
      }),
    ]);
    expect(text).toBe(
      'Approval needed: Send a message to a customer (ana@example.com, 2026-12-01 14:30 UTC) https://desk.example/approvals/c_4f1a',
    );
    expect(attempts).toEqual([
      expect.objectContaining({ channel: 'slack', attempt: 1, ok: true, status: 200 }),
    ]);
  });

  it('speaks Chinese for a zh-CN notice, and tells the decision', async () => {
    const slack = await receiver();
    await slackNotifier({ webhookUrl: slack.url }).send(
      notice({
        id: 'c_4f1a.decided',
        kind: 'decided',
        locale: 'zh-CN',
        confirmation: { ...notice().confirmation, status: 'rejected' },
      }),
      {},
    );
    const { blocks } = message(slack.requests[0]?.body);
    expect(blocks[0]?.text?.text).toBe('Send a message to a customer：已拒绝');
    expect(blocks[1]?.fields?.map((f) => f.text)).toContain('*发起人*\nana@example.com');
    expect(JSON.stringify(blocks[2])).toContain('在控制台中打开');
  });

  it('escapes mrkdwn, so a title or an asker cannot become a mention or a link', async () => {
    const slack = await receiver();
    await slackNotifier({ webhookUrl: slack.url }).send(
      notice({
        confirmation: {
          ...notice().confirmation,
          title: 'Pay <!channel> & co',
          actor: '<https://evil.example|ana>',
        },
      }),
      {},
    );
    const { text, blocks } = message(slack.requests[0]?.body);
    const mrkdwn = JSON.stringify(blocks.slice(1)) + text;
    expect(mrkdwn).not.toContain('<!channel>');
    expect(mrkdwn).not.toContain('<https://evil.example');
    expect(blocks[1]?.fields?.map((f) => f.text)).toContain('*Asked by*\n&lt;https://evil.example|ana&gt;');
    // A header is plain text: Slack shows it as written.
    expect(blocks[0]?.text).toEqual({
      type: 'plain_text',
      text: 'Approval needed: Pay <!channel> & co',
      emoji: false,
    });
  });

  it('has no button without an http(s) link', async () => {
    const slack = await receiver();
    const { link: _omitted, ...withoutLink } = notice();
    await slackNotifier({ webhookUrl: slack.url }).send(withoutLink, {});
    await slackNotifier({ webhookUrl: slack.url }).send(notice({ link: 'javascript:alert(1)' }), {});
    for (const request of slack.requests) {
      const { text, blocks } = message(request.body);
      expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);
      expect(text).not.toContain('javascript:');
    }
  });

  it('shows no payload unless the channel allows it', async () => {
    const slack = await receiver();
    const withPayload = notice({ payload: SECRET_PAYLOAD });
    await slackNotifier({ webhookUrl: slack.url }).send(withPayload, {});
    await slackNotifier({ webhookUrl: slack.url, includePayload: true }).send(withPayload, {});
    expect(slack.requests[0]?.body).not.toContain('R-7731-SECRET');
    const { blocks } = message(slack.requests[1]?.body);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'actions', 'context']);
    expect(blocks[2]?.text?.text).toContain('refund code R-7731-SECRET');
    expect(blocks[2]?.text?.text).toMatch(/^\*Payload\*\n```[\s\S]*```$/);
  });

  it('retries a 500 and never an invalid_payload 400', async () => {
    const flaky = await receiver((_, index) =>
      index === 0 ? { status: 500, body: 'rollup_error' } : { status: 200, body: 'ok' },
    );
    const attempts: NotifyAttempt[] = [];
    expect(
      await slackNotifier({ webhookUrl: flaky.url, backoffMs: 5 }).send(notice(), {
        onAttempt: (a) => attempts.push(a),
      }),
    ).toEqual({ ok: true });
    expect(attempts.map((a) => a.status)).toEqual([500, 200]);

    const refusing = await receiver(() => ({ status: 400, body: 'invalid_payload' }));
    expect(await slackNotifier({ webhookUrl: refusing.url, backoffMs: 5 }).send(notice(), {})).toEqual({
      ok: false,
      error: 'HTTP 400: invalid_payload',
    });
    expect(refusing.requests).toHaveLength(1);
  });

  it('times out a hanging webhook and retries', async () => {
    const slack = await receiver((_, index) => (index === 0 ? 'hang' : { status: 200, body: 'ok' }));
    const attempts: NotifyAttempt[] = [];
    const result = await slackNotifier({ webhookUrl: slack.url, timeoutMs: 1000, backoffMs: 5 }).send(
      notice(),
      {
        onAttempt: (a) => attempts.push(a),
      },
    );
    expect(result).toEqual({ ok: true });
    expect(attempts.map((a) => a.error)).toEqual(['timed out after 1000 ms', undefined]);
  });

  it('refuses a webhook URL that is not http(s) at setup', () => {
    expect(() => slackNotifier({ webhookUrl: 'hooks.slack.com/services/x' })).toThrow(ToolDefinitionError);
  });
});
