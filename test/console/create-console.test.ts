import { ToolRegistry } from 'graded-tools';
import { type ApprovalsConsoleOptions, createApprovalsConsole } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, ORIGIN, STORES, withView } from './setup.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toBe(CSP);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
}

describe('createApprovalsConsole: options', () => {
  const registry = new ToolRegistry();
  const authenticate = () => undefined;

  it('refuses to start without `authenticate`: there are no built-in users', () => {
    expect(() => createApprovalsConsole({ registry } as unknown as ApprovalsConsoleOptions)).toThrow(
      TypeError,
    );
    expect(() =>
      createApprovalsConsole({ registry, authenticate: 'admin' } as unknown as ApprovalsConsoleOptions),
    ).toThrow(/authenticate.*no built-in users/);
    expect(() => createApprovalsConsole(undefined as unknown as ApprovalsConsoleOptions)).toThrow(TypeError);
  });

  it('checks every option once, at creation', () => {
    const bad: unknown[] = [
      { registry: {}, authenticate },
      { registry, authenticate, authorize: true },
      { registry, authenticate, basePath: 'approvals' },
      { registry, authenticate, basePath: '/a/../b' },
      { registry, authenticate, basePath: '/a b' },
      { registry, authenticate, locale: 'fr' },
    ];
    for (const options of bad)
      expect(
        () => createApprovalsConsole(options as ApprovalsConsoleOptions),
        JSON.stringify(options),
      ).toThrow(TypeError);
    for (const basePath of ['/', '/approvals', '/approvals/', '/ops/approvals'])
      expect(() => createApprovalsConsole({ registry, authenticate, basePath })).not.toThrow();
  });
});

describe.each(STORES)('the console over HTTP semantics (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('answers 401 without a session: JSON for the API, a small page in the person’s language for pages', async () => {
    f = consoleFixture(makeStore);
    const api = await f.json('/api/session', { person: null });
    expect(api.status).toBe(401);
    expect(api.body).toEqual({ ok: false, code: 'UNAUTHENTICATED', error: expect.stringMatching(/sign/i) });
    for (const path of ['/api/confirmations', '/api/events', '/api/confirmations/abcdefghijkl']) {
      expect((await f.call(path, { person: null })).status, path).toBe(401);
    }
    const post = await f.json('/api/confirm-many', { person: null, body: { items: [] } });
    expect(post.status).toBe(401);

    const page = await f.call('/', { person: null });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('You must sign in');
    expect(html).not.toContain('console.js');

    const zh = await f.call('/confirmations/abcdefghijkl', {
      person: null,
      headers: { 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.5' },
    });
    expect(zh.status).toBe(401);
    const zhHtml = await zh.text();
    expect(zhHtml).toContain('<html lang="zh-CN">');
    expect(zhHtml).toContain('您必须登录');
  });

  it('reads a throwing or rejecting `authenticate` as nobody signed in, and a person without an id as the app’s mistake', async () => {
    f = consoleFixture(makeStore, {
      authenticate: () => {
        throw new Error('session store down');
      },
    });
    expect((await f.json('/api/session')).status).toBe(401);
    f.close();
    f = consoleFixture(makeStore, { authenticate: () => Promise.reject(new Error('nope')) });
    expect((await f.json('/api/session')).status).toBe(401);
    f.close();
    f = consoleFixture(makeStore, { authenticate: () => ({ name: 'No id' }) as never });
    const malformed = await f.json('/api/session');
    expect(malformed.status).toBe(500);
    expect(malformed.body.code).toBe('CONSOLE_FAILED');
  });

  it('sets the CSP, no-store and the other security headers on every response', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const events = new AbortController();
    const responses = [
      await f.call('/'),
      await f.call(`/confirmations/${asked.confirmationId}`),
      await f.call('/', { person: null }),
      await f.call('/assets/console.js', { person: null }),
      await f.call('/assets/console.css', { person: null }),
      await f.call('/api/session'),
      await f.call('/api/session', { person: null }),
      await f.call('/api/confirmations'),
      await f.call(`/api/confirmations/${asked.confirmationId}`),
      await f.call('/api/confirmations/no-such-confirmation'),
      await f.call('/api/nothing-here'),
      await f.call('/api/session', { method: 'DELETE' }),
      await f.call(`/api/confirmations/${asked.confirmationId}/confirm`, { body: { digest: asked.digest } }),
      await f.call('/api/confirm-many', { body: 'not json' }),
      await f.call('/api/confirm-many', { body: {}, headers: { origin: 'http://evil.test' } }),
      await f.call('/api/confirm-many', { body: {}, headers: { 'content-type': 'text/plain' } }),
      await f.approvals.fetch(
        new Request(`${ORIGIN}/approvals/api/events`, {
          headers: { 'x-test-person': 'lead-li' },
          signal: events.signal,
        }),
      ),
    ];
    for (const response of responses) expectSecurityHeaders(response);
    events.abort();
    await responses.at(-1)?.body?.cancel();
  });

  it('answers 404 for an unknown path, inside or outside the base path, and 405 with Allow for a wrong method', async () => {
    f = consoleFixture(makeStore);
    const unknown = await f.json('/api/unknown');
    expect(unknown).toEqual({
      status: 404,
      body: { ok: false, code: 'NOT_FOUND', error: expect.any(String) },
    });
    const outside = await f.approvals.fetch(new Request(`${ORIGIN}/elsewhere/api/session`));
    expect(outside.status).toBe(404);
    const prefixOnly = await f.approvals.fetch(new Request(`${ORIGIN}/approvalsx/api/session`));
    expect(prefixOnly.status).toBe(404);
    const wrong = await f.call('/api/confirmations', { method: 'POST', body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const getOnPost = await f.call('/api/confirm-many');
    expect(getOnPost.status).toBe(405);
    expect(getOnPost.headers.get('allow')).toBe('POST');
  });

  it('serves the shell at the base path with or without its trailing slash', async () => {
    f = consoleFixture(makeStore);
    for (const url of [`${ORIGIN}/approvals`, `${ORIGIN}/approvals/`]) {
      const response = await f.approvals.fetch(new Request(url, { headers: { 'x-test-person': 'lead-li' } }));
      expect(response.status, url).toBe(200);
      expect(await response.text()).toContain('data-base="/approvals"');
    }
  });

  it('turns a failure inside a handler into a JSON 500 without internal details, and never rejects', async () => {
    f = consoleFixture(makeStore);
    const { registry } = f;
    const broken = createApprovalsConsole({
      allowedHosts: ['console.test'],
      registry: withView(registry, {
        get: () => {
          throw new Error('secret: connection string postgres://admin:hunter2@db');
        },
        list: () => {
          throw new Error('secret: connection string postgres://admin:hunter2@db');
        },
      }),
      authenticate: () => ({ id: 'lead-li' }),
    });
    for (const request of [
      new Request(`${ORIGIN}/api/confirmations`),
      new Request(`${ORIGIN}/api/confirmations/abcdefghijkl`),
    ]) {
      const response = await broken.fetch(request);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ ok: false, code: 'CONSOLE_FAILED', error: expect.any(String) });
      expect(text).not.toContain('hunter2');
      expectSecurityHeaders(response);
    }
    // Not even a value that is not a Request makes it reject.
    const odd = await broken.fetch({} as Request);
    expect(odd.status).toBe(500);
  });
});
