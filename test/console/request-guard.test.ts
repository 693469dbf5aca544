import { createApprovalsConsole } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import { isJsonContentType, MAX_BODY_BYTES, readJsonObject } from '../../src/console/request-guard.js';
import { type ConsoleFixture, consoleFixture, ORIGIN, STORES } from './setup.js';

describe.each(STORES)('state-changing requests (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('refuses a POST from another origin (another port, another host, `null`) with 403 FORBIDDEN_ORIGIN, deciding nothing', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    for (const origin of ['http://console.test:8080', 'https://console.test', 'http://evil.test', 'null']) {
      const refused = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        body: { digest: asked.digest },
        headers: { origin },
      });
      expect(refused.status, origin).toBe(403);
      expect(refused.body).toEqual({ ok: false, code: 'FORBIDDEN_ORIGIN', error: expect.any(String) });
    }
    expect(f.deliveries).toEqual([]);
    const still = await f.registry.confirmations.get(asked.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });

  it('without an Origin, accepts only `Sec-Fetch-Site: same-origin`; a request with neither is refused', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const path = `/approvals/api/confirmations/${asked.confirmationId}/reject`;
    const post = (headers: Record<string, string>) =>
      f.approvals.fetch(
        new Request(`${ORIGIN}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-test-person': 'lead-li', ...headers },
          body: '{}',
        }),
      );
    for (const site of ['cross-site', 'same-site', 'none']) {
      expect((await post({ 'sec-fetch-site': site })).status, site).toBe(403);
    }
    expect((await post({})).status).toBe(403);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('accepts only JSON: a form, multipart or text/plain body is 415, before anything is decided', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'application/json-patch+json',
    ]) {
      const refused = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        body: `digest=${asked.digest}`,
        headers: { 'content-type': type },
      });
      expect(refused.status, type).toBe(415);
      expect(refused.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(f.deliveries).toEqual([]);
    const ok = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a body over 256 KB with 413 and one that is not a JSON object with 400', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const path = `/api/confirmations/${asked.confirmationId}/reject`;
    const huge = await f.json(path, { body: { reason: 'x'.repeat(MAX_BODY_BYTES) } });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    for (const body of ['{"reason":', '[1,2]', '"text"', 'null', '']) {
      const bad = await f.json(path, { body, method: 'POST' });
      expect(bad.status, body).toBe(400);
      expect(bad.body.code).toBe('BAD_REQUEST');
    }
    const still = await f.registry.confirmations.get(asked.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });
});

describe('readJsonObject', () => {
  it('stops reading a body without Content-Length once it passes the limit', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        if (pulled > 1_000) controller.close();
      },
    });
    const request = new Request('http://x.test/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readJsonObject(request)).toEqual({ ok: false, status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(pulled).toBeLessThan(10);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const request = new Request('http://x.test/', {
      method: 'POST',
      body: '{}',
      headers: { 'content-length': String(MAX_BODY_BYTES + 1) },
    });
    expect(await readJsonObject(request)).toMatchObject({ status: 413 });
  });

  it('refuses bytes that are not UTF-8', async () => {
    const request = new Request('http://x.test/', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(await readJsonObject(request)).toMatchObject({ status: 400 });
  });

  it('knows application/json with parameters from look-alikes', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType(' application/json ; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/jsonx')).toBe(false);
    expect(isJsonContentType('text/json')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});

describe.each(STORES)('the Host a request names: DNS rebinding (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  const post = (origin: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    f.approvals.fetch(
      new Request(`${origin}/approvals${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-person': 'lead-li', origin, ...headers },
        body: JSON.stringify(body),
      }),
    );

  it('with publicUrl, a request whose Host and Origin both name another host is 403 FORBIDDEN_HOST and delivers nothing', async () => {
    f = consoleFixture(makeStore, { publicUrl: 'https://desk.example/approvals' });
    const asked = await f.ask();
    const path = `/api/confirmations/${asked.confirmationId}/confirm`;
    const rebound = await post('http://rebind.attacker.example', path, { digest: asked.digest });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toEqual({ ok: false, code: 'FORBIDDEN_HOST', error: expect.any(String) });
    const read = await f.approvals.fetch(
      new Request('http://rebind.attacker.example/approvals/api/confirmations', {
        headers: { 'x-test-person': 'lead-li' },
      }),
    );
    expect(read.status).toBe(403);
    expect(f.deliveries).toEqual([]);
    // The console's own origin is publicUrl's: another scheme on the same host is not it.
    const http = await post('http://desk.example', path, { digest: asked.digest });
    expect(http.status).toBe(403);
    expect(((await http.json()) as { code: string }).code).toBe('FORBIDDEN_ORIGIN');
    expect(f.deliveries).toEqual([]);
    const own = await post('https://desk.example', path, { digest: asked.digest });
    expect(own.status).toBe(200);
    expect(f.deliveries).toHaveLength(1);
  });

  it('without publicUrl, answers loopback names only (any port), or the allowedHosts given', async () => {
    f = consoleFixture(makeStore, { allowedHosts: undefined });
    const session = (origin: string, approvals = f.approvals) =>
      approvals.fetch(
        new Request(`${origin}/approvals/api/session`, { headers: { 'x-test-person': 'lead-li' } }),
      );
    for (const origin of [
      'http://localhost:3000',
      'http://127.0.0.1',
      'http://[::1]:8080',
      'http://LOCALHOST',
    ])
      expect((await session(origin)).status, origin).toBe(200);
    for (const origin of [
      'http://rebind.attacker.example',
      'http://127.0.0.1.evil.example',
      'http://console.test',
    ]) {
      const refused = await session(origin);
      expect(refused.status, origin).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('FORBIDDEN_HOST');
    }
    const asked = await f.ask();
    const rebound = await post(
      'http://rebind.attacker.example',
      `/api/confirmations/${asked.confirmationId}/confirm`,
      {
        digest: asked.digest,
      },
    );
    expect(rebound.status).toBe(403);
    expect(f.deliveries).toEqual([]);

    const desk = createApprovalsConsole({
      registry: f.registry,
      authenticate: () => ({ id: 'lead-li' }),
      basePath: '/approvals',
      allowedHosts: ['desk.internal'],
    });
    expect((await session('http://desk.internal:8443', desk)).status).toBe(200);
    expect((await session('http://localhost:3000', desk)).status).toBe(403);
    desk.close();
    const anyHost = createApprovalsConsole({
      registry: f.registry,
      authenticate: () => ({ id: 'lead-li' }),
      basePath: '/approvals',
      allowedHosts: 'any',
    });
    expect((await session('http://wherever.example', anyHost)).status).toBe(200);
    anyHost.close();
  });

  it('refuses an allowedHosts it cannot use, and allowedHosts with publicUrl, at startup', () => {
    f = consoleFixture(makeStore);
    const make = (extra: object) => () =>
      createApprovalsConsole({ registry: f.registry, authenticate: () => undefined, ...extra } as never);
    for (const allowedHosts of ['localhost', [''], ['desk.example:3000'], [3], ['a/b']])
      expect(make({ allowedHosts }), JSON.stringify(allowedHosts)).toThrow(/allowedHosts/);
    expect(make({ allowedHosts: ['desk.example'], publicUrl: 'https://desk.example' })).toThrow(
      /allowedHosts/,
    );
  });
});
