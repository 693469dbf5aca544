import { ToolDefinitionError } from 'graded-tools';
import { type NotifyAttempt, webhookNotifier } from 'graded-tools/notify';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type HttpReceiver,
  type ReceiverReply,
  startReceiver,
  webhookHeaders,
} from './support/http-receiver.js';
import { notice, SECRET_PAYLOAD } from './support/notices.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const receivers: HttpReceiver[] = [];

async function receiver(reply?: (request: { body: string }, index: number) => ReceiverReply) {
  const started = await startReceiver(reply);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** What the receiver would accept: the standardwebhooks library's own verification, not ours. */
function verify(body: string, headers: Record<string, string>, secret: string | Uint8Array = SECRET) {
  const webhook = typeof secret === 'string' ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
  return webhook.verify(body, headers);
}

describe('webhookNotifier', () => {
  it('posts a body that the standardwebhooks library verifies, with the notice id as webhook-id', async () => {
    const hook = await receiver();
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url: hook.url, secret: SECRET }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: true });
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['webhook-id']).toBe('c_4f1a.created');
    const verified = verify(request?.body ?? '', webhookHeaders(request!)) as Record<string, unknown>;
    expect(verified).toMatchObject({
      type: 'confirmation.created',
      data: {
        id: 'c_4f1a.created',
        kind: 'created',
        link: 'https://desk.example/approvals/c_4f1a',
        confirmation: { id: 'c_4f1a', tool: 'message.send', actor: 'ana@example.com', status: 'pending' },
      },
    });
    expect(Number.isNaN(Date.parse(String(verified.timestamp)))).toBe(false);
    expect(verified.data).not.toHaveProperty('locale');
    expect(attempts).toEqual([
      expect.objectContaining({
        channel: 'webhook',
        noticeId: 'c_4f1a.created',
        attempt: 1,
        ok: true,
        status: 200,
      }),
    ]);
  });

  it('names each kind in the type: created, reminder, decided', async () => {
    const hook = await receiver();
    const webhook = webhookNotifier({ url: hook.url, secret: SECRET });
    for (const kind of ['created', 'reminder', 'decided'] as const)
      await webhook.send(notice({ id: `c_4f1a.${kind}`, kind, recipient: 'ana@example.com' }), {});
    const bodies = hook.requests.map(
      (r) => verify(r.body, webhookHeaders(r)) as { type: string; data: object },
    );
    expect(bodies.map((b) => b.type)).toEqual([
      'confirmation.created',
      'confirmation.reminder',
      'confirmation.decided',
    ]);
    expect(bodies[2]?.data).toMatchObject({ recipient: 'ana@example.com' });
  });

  it('fails verification for a tampered body, a wrong secret and a swapped timestamp', async () => {
    const hook = await receiver();
    await webhookNotifier({ url: hook.url, secret: SECRET }).send(notice(), {});
    const request = hook.requests[0]!;
    const headers = webhookHeaders(request);
    const tampered = request.body.replace('message.send', 'payment.send');
    expect(tampered).not.toBe(request.body);
    expect(() => verify(tampered, headers)).toThrow(WebhookVerificationError);
    expect(() => verify(request.body, headers, 'whsec_dGhlIG90aGVyIHNlY3JldCBlbnRpcmVseQ==')).toThrow(
      WebhookVerificationError,
    );
    const earlier = String(Number(headers['webhook-timestamp']) - 60);
    expect(() => verify(request.body, { ...headers, 'webhook-timestamp': earlier })).toThrow(
      WebhookVerificationError,
    );
  });

  it('fails verification when the same delivery is replayed after the tolerance window', async () => {
    const hook = await receiver();
    await webhookNotifier({ url: hook.url, secret: SECRET }).send(notice(), {});
    const request = hook.requests[0]!;
    expect(() => verify(request.body, webhookHeaders(request))).not.toThrow();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(() => verify(request.body, webhookHeaders(request))).toThrow(/too old/);
  });

  it('signs with raw key bytes too', async () => {
    const hook = await receiver();
    const key = new Uint8Array(32).map((_, i) => (i * 37 + 11) % 256);
    expect(await webhookNotifier({ url: hook.url, secret: key }).send(notice(), {})).toEqual({ ok: true });
    const request = hook.requests[0]!;
    expect(() => verify(request.body, webhookHeaders(request), key)).not.toThrow();
    expect(() => verify(request.body, webhookHeaders(request))).toThrow(WebhookVerificationError);
  });

  it('retries 503 twice then 200: three attempts, one webhook-id, each one verifiable', async () => {
    const hook = await receiver((_, index) => (index < 2 ? { status: 503, body: 'busy' } : { status: 200 }));
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, backoffMs: 10 }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: true });
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill('c_4f1a.created'));
    for (const request of hook.requests)
      expect(() => verify(request.body, webhookHeaders(request))).not.toThrow();
    expect(new Set(hook.requests.map((r) => r.body)).size).toBe(1);
    expect(attempts.map(({ attempt, ok, status, error }) => ({ attempt, ok, status, error }))).toEqual([
      { attempt: 1, ok: false, status: 503, error: 'HTTP 503: busy' },
      { attempt: 2, ok: false, status: 503, error: 'HTTP 503: busy' },
      { attempt: 3, ok: true, status: 200, error: undefined },
    ]);
  });

  it('gives up after `retries` and says why', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, retries: 2, backoffMs: 5 }).send(
      notice(),
      { onAttempt: (a) => attempts.push(a) },
    );
    expect(result).toEqual({ ok: false, error: 'HTTP 500' });
    expect(hook.requests).toHaveLength(3);
    expect(attempts.map((a) => a.ok)).toEqual([false, false, false]);
  });

  it('never retries a 400', async () => {
    const hook = await receiver(() => ({ status: 400, body: 'bad request' }));
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, backoffMs: 5 }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result).toEqual({ ok: false, error: 'HTTP 400: bad request' });
    expect(hook.requests).toHaveLength(1);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, ok: false, status: 400 })]);
  });

  it('does not follow a redirect to another place', async () => {
    const target = await receiver();
    const hook = await receiver(() => ({ status: 307, headers: { location: target.url } }));
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, backoffMs: 5 }).send(notice(), {});
    expect(result).toEqual({ ok: false, error: 'HTTP 307' });
    expect(target.requests).toHaveLength(0);
  });

  it('times out a hanging receiver, then retries with the same id', async () => {
    const hook = await receiver((_, index) => (index === 0 ? 'hang' : { status: 204 }));
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({
      url: hook.url,
      secret: SECRET,
      timeoutMs: 1000,
      backoffMs: 5,
    }).send(notice(), { onAttempt: (a) => attempts.push(a) });
    expect(result).toEqual({ ok: true });
    expect(attempts.map(({ ok, error }) => ({ ok, error }))).toEqual([
      { ok: false, error: 'timed out after 1000 ms' },
      { ok: true, error: undefined },
    ]);
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual(['c_4f1a.created', 'c_4f1a.created']);
  });

  it('retries a refused connection and reports the network error', async () => {
    const closed = await receiver();
    const { url } = closed;
    await closed.close();
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url, secret: SECRET, retries: 1, backoffMs: 5 }).send(notice(), {
      onAttempt: (a) => attempts.push(a),
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(attempts).toHaveLength(2);
  });

  it('honours a short Retry-After on 429, and gives up on one past the cap', async () => {
    const hook = await receiver((_, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, backoffMs: 1 }).send(notice(), {});
    expect(result).toEqual({ ok: true });
    const [first, second] = hook.requests.map((r) => r.at);
    expect(second! - first!).toBeGreaterThanOrEqual(950);

    const slow = await receiver(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const refused = await webhookNotifier({ url: slow.url, secret: SECRET, backoffMs: 1 }).send(notice(), {});
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/HTTP 429; the receiver asked to wait 3600 s/);
    expect(slow.requests).toHaveLength(1);
  });

  it('stops waiting and retrying when the signal aborts', async () => {
    const hook = await receiver(() => ({ status: 503 }));
    const controller = new AbortController();
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, backoffMs: 60_000 }).send(
      notice(),
      {
        signal: controller.signal,
        onAttempt: () => controller.abort(new Error('shutting down')),
      },
    );
    expect(result).toEqual({ ok: false, error: 'aborted: shutting down' });
    expect(hook.requests).toHaveLength(1);

    const hanging = await receiver(() => 'hang');
    const inFlight = new AbortController();
    setTimeout(() => inFlight.abort(), 100);
    const attempts: NotifyAttempt[] = [];
    const cut = await webhookNotifier({ url: hanging.url, secret: SECRET, timeoutMs: 30_000 }).send(
      notice(),
      {
        signal: inFlight.signal,
        onAttempt: (a) => attempts.push(a),
      },
    );
    expect(cut.ok).toBe(false);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, ok: false, error: 'aborted' })]);
  });

  it('sends no payload unless both the notice and the channel carry it', async () => {
    const hook = await receiver();
    const withPayload = notice({
      payload: SECRET_PAYLOAD,
      // A confirmation handed over whole, input and payload included, must not leak either.
      confirmation: { ...notice().confirmation, input: SECRET_PAYLOAD, payload: SECRET_PAYLOAD } as never,
    });
    await webhookNotifier({ url: hook.url, secret: SECRET }).send(withPayload, {});
    await webhookNotifier({ url: hook.url, secret: SECRET, includePayload: false }).send(withPayload, {});
    await webhookNotifier({ url: hook.url, secret: SECRET, includePayload: true }).send(withPayload, {});
    const [none, off, on] = hook.requests.map((r) => r.body);
    expect(none).not.toContain('R-7731-SECRET');
    expect(off).not.toContain('R-7731-SECRET');
    const body = JSON.parse(on ?? '{}') as { data: { payload?: unknown; confirmation: object } };
    expect(body.data.payload).toEqual(SECRET_PAYLOAD);
    expect(body.data.confirmation).not.toHaveProperty('payload');
    expect(body.data.confirmation).not.toHaveProperty('input');
  });

  it('never rejects: a payload that cannot be serialised or a throwing listener is a failed attempt', async () => {
    const hook = await receiver();
    const attempts: NotifyAttempt[] = [];
    const result = await webhookNotifier({ url: hook.url, secret: SECRET, includePayload: true }).send(
      notice({ payload: { amount: 10n } }),
      { onAttempt: (a) => attempts.push(a) },
    );
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/BigInt/);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, ok: false })]);
    expect(hook.requests).toHaveLength(0);

    const throwing = await webhookNotifier({ url: hook.url, secret: SECRET }).send(notice(), {
      onAttempt: () => {
        throw new Error('listener bug');
      },
    });
    expect(throwing).toEqual({ ok: true });
  });

  it('refuses options that make no sense at setup', () => {
    expect(() => webhookNotifier({ url: 'not a url', secret: SECRET })).toThrow(ToolDefinitionError);
    expect(() => webhookNotifier({ url: 'ftp://hooks.example', secret: SECRET })).toThrow(/url/);
    expect(() => webhookNotifier({ url: 'https://hooks.example', secret: '' })).toThrow(/secret/);
    expect(() => webhookNotifier({ url: 'https://hooks.example', secret: 'whsec_!!!' })).toThrow(/secret/);
    expect(() => webhookNotifier({ url: 'https://hooks.example', secret: SECRET, retries: -1 })).toThrow(
      /retries/,
    );
    expect(() => webhookNotifier({ url: 'https://hooks.example', secret: SECRET, timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });
});
