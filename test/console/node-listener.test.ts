import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApprovalsConsole, createApprovalsConsole, toNodeListener } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConsoleFixture,
  changeEvents,
  consoleFixture,
  countingWatches,
  PEOPLE,
  PERSON_HEADER,
  readEvents,
  STORES,
} from './setup.js';

/** One raw request to a loopback port with exactly this target and these headers. */
function rawRequest(port: string, method: string, path: string, headers: Record<string, string | string[]>) {
  return new Promise<{ status: number; body: string; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), method, path, headers, setHost: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A real `node:http` server on a loopback port. */
async function listen(listener: RequestListener) {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(STORES)('toNodeListener over a real loopback server (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    f.close();
  });

  const serve = async (approvals: ApprovalsConsole) => {
    const server = await listen(toNodeListener(approvals));
    closers.push(server.close);
    return server;
  };

  it('serves the shell and the API; a confirm from the console’s own origin delivers once', async () => {
    f = consoleFixture(makeStore);
    const { origin } = await serve(f.approvals);
    const asked = await f.ask();
    const shell = await fetch(`${origin}/approvals/`, { headers: { [PERSON_HEADER]: 'lead-li' } });
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shell.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(shell.headers.get('cache-control')).toBe('no-store');
    expect(await shell.text()).toContain('data-person="lead-li"');

    const confirm = () =>
      fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/confirm`, {
        method: 'POST',
        headers: { [PERSON_HEADER]: 'lead-li', origin, 'content-type': 'application/json' },
        body: JSON.stringify({ digest: asked.digest }),
      });
    const [one, two] = await Promise.all([confirm(), confirm()]);
    const bodies = [
      (await one?.json()) as { ok: boolean },
      (await two?.json()) as { ok: boolean; code?: string },
    ];
    expect(bodies.map((b) => b.ok).sort()).toEqual([false, true]);
    expect(bodies.find((b) => !b.ok)).toMatchObject({ code: 'ALREADY_DECIDED', decidedBy: 'lead-li' });
    expect(f.deliveries).toHaveLength(1);
    expect(one?.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('refuses a cross-origin POST from a page on another loopback port (403) and a form (415)', async () => {
    f = consoleFixture(makeStore);
    const { origin } = await serve(f.approvals);
    // The other page: a second real server on another port, whose origin a browser would send.
    const evil = await listen((_req, res) => res.end('<form method="post"></form>'));
    closers.push(evil.close);
    const asked = await f.ask();
    const url = `${origin}/approvals/api/confirmations/${asked.confirmationId}/confirm`;
    const cross = await fetch(url, {
      method: 'POST',
      headers: { [PERSON_HEADER]: 'lead-li', origin: evil.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ digest: asked.digest }),
    });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toMatchObject({ ok: false, code: 'FORBIDDEN_ORIGIN' });
    const form = await fetch(url, {
      method: 'POST',
      headers: {
        [PERSON_HEADER]: 'lead-li',
        origin: evil.origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `digest=${asked.digest}`,
    });
    expect(form.status).toBe(403);
    const sameOriginForm = await fetch(url, {
      method: 'POST',
      headers: { [PERSON_HEADER]: 'lead-li', origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `digest=${asked.digest}`,
    });
    expect(sameOriginForm.status).toBe(415);
    expect(f.deliveries).toEqual([]);
  });

  it('refuses a body over 256 KB with 413 and keeps serving', async () => {
    f = consoleFixture(makeStore);
    const { origin } = await serve(f.approvals);
    const asked = await f.ask();
    const huge = await fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/reject`, {
      method: 'POST',
      headers: { [PERSON_HEADER]: 'lead-li', origin, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'x'.repeat(300 * 1024) }),
    });
    expect(huge.status).toBe(413);
    // Streamed without a Content-Length: refused once past the limit, the answer still arrives.
    let sent = 0;
    const chunked = await fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/reject`, {
      method: 'POST',
      headers: { [PERSON_HEADER]: 'lead-li', origin, 'content-type': 'application/json' },
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          if (++sent > 40) controller.close();
          else controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const session = await fetch(`${origin}/approvals/api/session`, {
      headers: { [PERSON_HEADER]: 'lead-li' },
    });
    expect(session.status).toBe(200);
  });

  it('streams events to a real client and stops watching when the client goes away', async () => {
    f = consoleFixture(makeStore);
    const watches = countingWatches(f.registry);
    const approvals = createApprovalsConsole({
      registry: watches.registry,
      authenticate: (request) => PEOPLE[request.headers.get(PERSON_HEADER) ?? ''],
      basePath: '/approvals',
    });
    const { origin } = await serve(approvals);
    const asked = await f.ask();
    const client = new AbortController();
    const events = await fetch(`${origin}/approvals/api/events`, {
      headers: { [PERSON_HEADER]: 'lead-li' },
      signal: client.signal,
    });
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    await readEvents(reader, (t) => t.startsWith('retry: 3000\n\n'));
    expect(watches.open).toBe(1);
    const confirmed = await fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/confirm`, {
      method: 'POST',
      headers: { [PERSON_HEADER]: 'lead-wu', origin, 'content-type': 'application/json' },
      body: JSON.stringify({ digest: asked.digest }),
    });
    expect(((await confirmed.json()) as { ok: boolean }).ok).toBe(true);
    const text = await readEvents(reader, (t) => changeEvents(t).length > 0);
    expect(changeEvents(text)).toContainEqual({ id: asked.confirmationId });
    client.abort();
    await until(() => watches.open === 0, 'the stream to stop watching');
    approvals.close();
  });

  it('ends open streams on close() so the server can shut down', async () => {
    f = consoleFixture(makeStore);
    const { origin } = await serve(f.approvals);
    const events = await fetch(`${origin}/approvals/api/events`, { headers: { [PERSON_HEADER]: 'lead-li' } });
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    await readEvents(reader, (t) => t.includes('retry'));
    f.approvals.close();
    let rest = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      rest += new TextDecoder().decode(chunk.value);
    }
    // The stream ended (the loop above returned) with nothing more said, and new ones are refused.
    expect(rest).not.toContain('event: change');
    const again = await fetch(`${origin}/approvals/api/events`, { headers: { [PERSON_HEADER]: 'lead-li' } });
    expect(again.status).toBe(503);
    expect(await again.json()).toMatchObject({ ok: false, code: 'CONSOLE_CLOSED' });
  });

  it('takes only origin-form targets: `//host/…` and `http://host/…` are 400, never the console’s origin', async () => {
    f = consoleFixture(makeStore, { allowedHosts: undefined });
    const seen: string[] = [];
    const listener = toNodeListener({
      fetch: (request) => {
        seen.push(request.url);
        return f.approvals.fetch(request);
      },
    });
    const server = await listen(listener);
    closers.push(server.close);
    const port = new URL(server.origin).port;
    for (const target of [
      '//evil.example/approvals/api/session',
      'http://evil.example/approvals/api/session',
      '/\\evil.example/approvals/api/session',
      '*',
    ]) {
      const answer = await rawRequest(port, 'GET', target, {
        host: `127.0.0.1:${port}`,
        [PERSON_HEADER]: 'lead-li',
      });
      expect(answer.status, target).toBe(400);
      expect(JSON.parse(answer.body), target).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    }
    expect(seen).toEqual([]);
    const fine = await rawRequest(port, 'GET', '/approvals/api/session', {
      host: `127.0.0.1:${port}`,
      [PERSON_HEADER]: 'lead-li',
    });
    expect(fine.status).toBe(200);
    expect(seen).toEqual([`http://127.0.0.1:${port}/approvals/api/session`]);
  });

  it('refuses a Host that is not a host (userinfo, a bad port, a space) with 403 FORBIDDEN_HOST', async () => {
    f = consoleFixture(makeStore, { allowedHosts: undefined });
    const { origin } = await serve(f.approvals);
    const port = new URL(origin).port;
    for (const host of [`user@127.0.0.1:${port}`, '127.0.0.1:99999', `local host:${port}`, 'evil.example']) {
      const answer = await rawRequest(port, 'GET', '/approvals/api/session', {
        host,
        [PERSON_HEADER]: 'lead-li',
      });
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body), host).toMatchObject({ ok: false, code: 'FORBIDDEN_HOST' });
    }
  });

  it('waits for drain: never writes to a response whose buffer is full until it drains', async () => {
    f = consoleFixture(makeStore);
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let pulled = 0;
    let full = false;
    let sawFull = false;
    let writesWhileFull = 0;
    const listener = toNodeListener({
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (++pulled > 200) controller.close();
              else controller.enqueue(chunk);
            },
          }),
        ),
    });
    const server = await listen((req, res) => {
      const write = res.write.bind(res) as (data: Uint8Array) => boolean;
      res.on('drain', () => {
        full = false;
      });
      (res as { write: unknown }).write = (data: Uint8Array) => {
        if (full) writesWhileFull++;
        const ok = write(data);
        if (!ok) {
          full = true;
          sawFull = true;
        }
        return ok;
      };
      listener(req, res);
    });
    closers.push(server.close);
    const response = await fetch(`${server.origin}/`);
    // The client reads nothing until the server's buffer has filled once, then everything.
    await until(() => sawFull, 'the response buffer to fill');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let bytes = 0;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      bytes += next.value.byteLength;
    }
    expect(bytes).toBe(200 * chunk.byteLength);
    expect(writesWhileFull).toBe(0);
  });

  it('keeps repeated request headers as separate values, and each Set-Cookie of the answer', async () => {
    f = consoleFixture(makeStore);
    let cookies: string[] = [];
    const server = await listen(
      toNodeListener({
        fetch: async (request) => {
          cookies = request.headers.getSetCookie();
          const headers = new Headers({ 'x-seen': request.headers.get('x-repeated') ?? '' });
          headers.append('set-cookie', 'a=1; Path=/');
          headers.append('set-cookie', 'b=2, c; Path=/');
          return new Response('ok', { headers });
        },
      }),
    );
    closers.push(server.close);
    const port = new URL(server.origin).port;
    const answer = await rawRequest(port, 'GET', '/', {
      host: `127.0.0.1:${port}`,
      'x-repeated': ['one', 'two'],
      'set-cookie': ['x=1', 'y=2'],
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-seen']).toBe('one, two');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2, c; Path=/']);
    expect(cookies).toEqual(['x=1', 'y=2']);
  });
});

describe('toNodeListener mounting', () => {
  const closers: (() => Promise<void>)[] = [];
  let f: ConsoleFixture;
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    f.close();
  });

  const store = STORES[0]?.[1] as (typeof STORES)[number][1];

  it('under an Express-style mount (req.url stripped, req.originalUrl kept) the base path still matches', async () => {
    f = consoleFixture(store);
    const listener = toNodeListener(f.approvals);
    const server = await listen((req, res) => {
      const mounted = req as IncomingMessage & { originalUrl?: string };
      mounted.originalUrl = req.url ?? '/';
      req.url = (req.url ?? '/').slice('/approvals'.length) || '/';
      listener(req, res);
    });
    closers.push(server.close);
    const session = await fetch(`${server.origin}/approvals/api/session`, {
      headers: { [PERSON_HEADER]: 'lead-li' },
    });
    expect(session.status).toBe(200);
  });

  it('uses a body a body parser already read', async () => {
    f = consoleFixture(store);
    const listener = toNodeListener(f.approvals);
    const server = await listen(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      (req as IncomingMessage & { body?: unknown }).body = JSON.parse(text);
      listener(req, res);
    });
    closers.push(server.close);
    const asked = await f.ask();
    const rejected = await fetch(
      `${server.origin}/approvals/api/confirmations/${asked.confirmationId}/reject`,
      {
        method: 'POST',
        headers: { [PERSON_HEADER]: 'lead-li', origin: server.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'Parsed before.' }),
      },
    );
    expect(await rejected.json()).toMatchObject({ ok: true, status: 'rejected' });
  });

  it('behind a TLS proxy, trusts X-Forwarded-Proto/Host only when told to', async () => {
    f = consoleFixture(store, { allowedHosts: ['127.0.0.1', 'desk.example.com'] });
    const asked = await f.ask();
    const post = async (listener: RequestListener) => {
      const server = await listen(listener);
      closers.push(server.close);
      return fetch(`${server.origin}/approvals/api/confirmations/${asked.confirmationId}/reject`, {
        method: 'POST',
        headers: {
          [PERSON_HEADER]: 'lead-li',
          origin: 'https://desk.example.com',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'desk.example.com',
          'content-type': 'application/json',
        },
        body: '{}',
      });
    };
    expect((await post(toNodeListener(f.approvals))).status).toBe(403);
    expect((await post(toNodeListener(f.approvals, { trustProxy: true }))).status).toBe(200);
  });

  it('with trustProxy the request URL is the proxy’s first X-Forwarded-Proto/Host; without it they are ignored', async () => {
    f = consoleFixture(store);
    const seen: string[] = [];
    const echo: Pick<ApprovalsConsole, 'fetch'> = {
      fetch: async (request) => {
        seen.push(request.url);
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    };
    const headers = {
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'desk.example.com, evil.example',
    };
    const trusted = await listen(toNodeListener(echo, { trustProxy: true }));
    const plain = await listen(toNodeListener(echo));
    closers.push(trusted.close, plain.close);
    await fetch(`${trusted.origin}/approvals/link/abc?x=1`, { headers });
    await fetch(`${plain.origin}/approvals/link/abc?x=1`, { headers });
    expect(seen).toEqual([
      'https://desk.example.com/approvals/link/abc?x=1',
      `${plain.origin}/approvals/link/abc?x=1`,
    ]);
  });

  it('behind a TLS proxy with trustProxy and publicUrl, a POST from the public origin decides', async () => {
    f = consoleFixture(store, { publicUrl: 'https://desk.example.com/approvals' });
    const asked = await f.ask();
    const server = await listen(toNodeListener(f.approvals, { trustProxy: true }));
    closers.push(server.close);
    const answer = await fetch(
      `${server.origin}/approvals/api/confirmations/${asked.confirmationId}/reject`,
      {
        method: 'POST',
        headers: {
          [PERSON_HEADER]: 'lead-li',
          origin: 'https://desk.example.com',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'desk.example.com',
          'content-type': 'application/json',
        },
        body: '{}',
      },
    );
    expect(await answer.json()).toMatchObject({ ok: true, status: 'rejected' });
    // The same request straight to the listener, without trustProxy, names another host: refused.
    const direct = await listen(toNodeListener(f.approvals));
    closers.push(direct.close);
    const refused = await fetch(`${direct.origin}/approvals/api/session`, {
      headers: { [PERSON_HEADER]: 'lead-li', 'x-forwarded-host': 'desk.example.com' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN_HOST' });
  });

  it('answers a JSON 500 with the security headers when the console itself throws', async () => {
    f = consoleFixture(store);
    const throwing: Pick<ApprovalsConsole, 'fetch'> = {
      fetch: () => Promise.reject(new Error('internal detail')),
    };
    const server = await listen(
      toNodeListener(throwing) as (req: IncomingMessage, res: ServerResponse) => void,
    );
    closers.push(server.close);
    const response = await fetch(`${server.origin}/`);
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('{"ok":false,"code":"CONSOLE_FAILED"}');
  });
});
