import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskApp } from '../../examples/console-session-auth.js';
import { createSupportDeskData, createSupportDeskRegistry } from '../../examples/support-desk-registry.js';
import { startExample } from '../helpers/example-process.js';

const data = createSupportDeskData();
const registry = createSupportDeskRegistry(data);
const { app, approvals } = createDeskApp({ registry, sessionSecret: randomBytes(32).toString('hex') });
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  approvals.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const logIn = (login: string, password: string) =>
  fetch(`${url}/login`, {
    method: 'POST',
    body: new URLSearchParams({ login, password }),
    redirect: 'manual',
  });
const sessionCookie = (response: Response) =>
  (response.headers.getSetCookie().find((cookie) => cookie.startsWith('desk.sid=')) ?? '').split(';')[0] ??
  '';
const who = async (cookie: string) => {
  const response = await fetch(`${url}/approvals/api/session`, { headers: { cookie } });
  return { status: response.status, body: (await response.json()) as { person?: { id: string } } };
};

describe('examples/console-session-auth.ts: the console behind express-session', () => {
  it('a wrong password gets no session, and the console answers 401 without one', async () => {
    const wrong = await logIn('li', 'not-her-password');
    expect(wrong.status).toBe(401);
    expect(sessionCookie(wrong)).toBe('');
    expect((await logIn('nobody', 'li-password')).status).toBe(401);
    expect((await who('')).status).toBe(401);
  });

  it('a forged or tampered session cookie is nobody', async () => {
    const cookie = sessionCookie(await logIn('li', 'li-password'));
    expect(cookie).toMatch(/^desk\.sid=s%3A/);
    const [sid = '', signature = ''] = decodeURIComponent(cookie.slice('desk.sid='.length)).split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect((await who(`desk.sid=${encodeURIComponent(`${sid}.${flipped}`)}`)).status).toBe(401);
    expect((await who(`desk.sid=${encodeURIComponent(sid)}`)).status).toBe(401);
    expect((await who('desk.sid=s%3Amade-up.signature')).status).toBe(401);
  });

  it('Li logs in, sees the agent’s proposal and confirms it; the record names her; logging out ends it', async () => {
    const asked = await registry.propose(
      'message.send',
      { conversationId: 'c-1001', text: 'We refunded the duplicate charge.' },
      { actor: 'agent:desk-bot', scope: 'desk', note: 'The customer asked twice.' },
    );
    if (!asked.ok || !asked.requiresConfirm) throw new Error(`propose failed: ${JSON.stringify(asked)}`);

    const login = await logIn('li', 'li-password');
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/approvals/');
    const cookie = sessionCookie(login);
    expect(login.headers.getSetCookie().join('\n')).toMatch(/HttpOnly/i);
    expect(await who(cookie)).toMatchObject({ status: 200, body: { person: { id: 'lead-li' } } });

    const page = await fetch(`${url}/approvals/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const list = (await (
      await fetch(`${url}/approvals/api/confirmations`, { headers: { cookie } })
    ).json()) as {
      confirmations: { id: string; digest: string }[];
    };
    expect(list.confirmations.map((c) => c.id)).toContain(asked.confirmationId);

    const decided = await fetch(`${url}/approvals/api/confirmations/${asked.confirmationId}/confirm`, {
      method: 'POST',
      headers: { cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ digest: asked.digest }),
    });
    expect(await decided.json()).toMatchObject({ ok: true, status: 'delivered' });
    expect(data.outbox).toHaveLength(1);
    const record = await registry.confirmations.get(asked.confirmationId);
    if (!record.ok) throw new Error(record.error);
    expect(record.confirmation.history.find((entry) => entry.status === 'delivering')?.by).toBe('lead-li');
    expect(record.confirmation.actor).toBe('agent:desk-bot');

    const logout = await fetch(`${url}/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(logout.status).toBe(303);
    expect((await who(cookie)).status).toBe(401);
  });
});

describe('examples/console-session-auth.ts behind a TLS proxy (trustProxy, publicUrl)', () => {
  const proxied = createSupportDeskRegistry(createSupportDeskData());
  const desk = createDeskApp({
    registry: proxied,
    sessionSecret: randomBytes(32).toString('hex'),
    publicUrl: 'https://desk.example',
    trustProxy: true,
  });
  let behind: Server;
  let origin = '';
  beforeAll(async () => {
    behind = createServer(desk.app);
    await new Promise<void>((resolve) => behind.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(behind.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    desk.approvals.close();
    behind.closeAllConnections();
    await new Promise((resolve) => behind.close(resolve));
  });
  // What the proxy adds to every request it forwards from https://desk.example.
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'desk.example' };

  it('signs in over the proxy with a Secure cookie and decides with the public origin', async () => {
    const asked = await proxied.propose(
      'message.send',
      { conversationId: 'c-1002', text: 'Settings → Data → Export.' },
      { actor: 'agent:desk-bot', scope: 'desk' },
    );
    if (!asked.ok || !asked.requiresConfirm) throw new Error(`propose failed: ${JSON.stringify(asked)}`);
    const login = await fetch(`${origin}/login`, {
      method: 'POST',
      headers: forwarded,
      body: new URLSearchParams({ login: 'wu', password: 'wu-password' }),
      redirect: 'manual',
    });
    expect(login.headers.getSetCookie().join('\n')).toMatch(/; Secure/i);
    const cookie = sessionCookie(login);
    // Straight to the app's port, without the proxy's headers: not the console's host.
    expect((await fetch(`${origin}/approvals/api/session`, { headers: { cookie } })).status).toBe(403);
    const decided = await fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/reject`, {
      method: 'POST',
      headers: { ...forwarded, cookie, origin: 'https://desk.example', 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Wrong conversation' }),
    });
    expect(await decided.json()).toMatchObject({ ok: true, status: 'rejected' });
    const link = await desk.approvals.createApprovalLink(asked.confirmationId, { approver: 'lead-li' });
    expect(link).toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
  });
});

describe('npx tsx examples/console-session-auth.ts', () => {
  it('serves the login page with one proposal waiting, and exits 0 on Ctrl-C', async () => {
    const { child, exited, stdout, stderr } = startExample('console-session-auth.ts', {
      PORT: '0',
      NODE_ENV: 'development',
    });
    try {
      await expect
        .poll(() => /Desk: (http:\/\/127\.0\.0\.1:\d+)\/login/.exec(stdout())?.[1], { timeout: 20_000 })
        .toBeDefined();
      const desk = /Desk: (http:\/\/127\.0\.0\.1:\d+)\/login/.exec(stdout())?.[1] ?? '';
      expect(await (await fetch(`${desk}/login`)).text()).toContain('name="password"');
      const login = await fetch(`${desk}/login`, {
        method: 'POST',
        body: new URLSearchParams({ login: 'li', password: 'li-password' }),
        redirect: 'manual',
      });
      const cookie = sessionCookie(login);
      const list = (await (
        await fetch(`${desk}/approvals/api/confirmations`, { headers: { cookie } })
      ).json()) as {
        confirmations: { actor?: string }[];
      };
      expect(list.confirmations.map((c) => c.actor)).toEqual(['agent:desk-bot']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr()).toBe('');
  });
});
