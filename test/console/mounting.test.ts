import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { createApprovalsConsole, toNodeListener } from 'graded-tools/console';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { desk } from '../confirm/setup.js';

// The README's mounting recipes, run for real: each framework serves the console under /approvals.
const authenticate = async (request: Request) =>
  request.headers.get('x-user') === 'li' ? { id: 'li', name: 'Li' } : undefined;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  if (!server.listening) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A person lists the inbox and confirms through the mounted console; deliver runs once. */
async function confirmThrough(origin: string, registry: ReturnType<typeof desk>) {
  const asked = await registry.ask('Mounted.');
  const inbox = await fetch(`${origin}/approvals/api/confirmations?status=pending`, {
    headers: { 'x-user': 'li' },
  });
  expect(inbox.status).toBe(200);
  const listed = (await inbox.json()) as { confirmations: { id: string }[] };
  expect(listed.confirmations.map((c) => c.id)).toEqual([asked.confirmationId]);
  const page = await fetch(`${origin}/approvals/`, { headers: { 'x-user': 'li' } });
  expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(await page.text()).toContain('/approvals/assets/console.js');
  const confirmed = await fetch(`${origin}/approvals/api/confirmations/${asked.confirmationId}/confirm`, {
    method: 'POST',
    headers: { 'x-user': 'li', 'content-type': 'application/json', origin },
    body: JSON.stringify({ digest: asked.digest }),
  });
  expect(await confirmed.json()).toMatchObject({ ok: true, status: 'delivered' });
  expect(registry.data.outbox).toHaveLength(1);
  const anonymous = await fetch(`${origin}/approvals/api/confirmations`);
  expect(anonymous.status).toBe(401);
}

describe('mounting the console', () => {
  it('in node:http', async () => {
    const setup = desk();
    const approvals = createApprovalsConsole({
      registry: setup.registry,
      authenticate,
      basePath: '/approvals',
    });
    await confirmThrough(await listen(createServer(toNodeListener(approvals))), setup);
    approvals.close();
  });

  it('in Express, under app.use', async () => {
    const setup = desk();
    const approvals = createApprovalsConsole({
      registry: setup.registry,
      authenticate,
      basePath: '/approvals',
    });
    const app = express();
    app.use('/approvals', toNodeListener(approvals));
    app.get('/', (_req, res) => {
      res.send('the app');
    });
    const origin = await listen(createServer(app));
    await confirmThrough(origin, setup);
    expect(await (await fetch(`${origin}/`)).text()).toBe('the app');
    approvals.close();
  });

  it('in Hono', async () => {
    const setup = desk();
    const approvals = createApprovalsConsole({
      registry: setup.registry,
      authenticate,
      basePath: '/approvals',
    });
    const hono = new Hono();
    hono.all('/approvals/*', (c) => approvals.fetch(c.req.raw));
    hono.all('/approvals', (c) => approvals.fetch(c.req.raw));
    const server = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await once(server, 'listening');
    await confirmThrough(await listen(server), setup);
    approvals.close();
  });

  it('as a Next.js route handler (GET and POST are the fetch handler)', async () => {
    const setup = desk();
    const approvals = createApprovalsConsole({
      registry: setup.registry,
      authenticate,
      basePath: '/approvals',
      // Where people reach it: the console answers on this host only.
      publicUrl: 'https://desk.example/approvals',
    });
    const GET = (request: Request) => approvals.fetch(request);
    const POST = (request: Request) => approvals.fetch(request);
    const asked = await setup.ask('Next.');
    const origin = 'https://desk.example';
    const listed = await GET(
      new Request(`${origin}/approvals/api/confirmations`, { headers: { 'x-user': 'li' } }),
    );
    expect(listed.status).toBe(200);
    const confirmed = await POST(
      new Request(`${origin}/approvals/api/confirmations/${asked.confirmationId}/confirm`, {
        method: 'POST',
        headers: { 'x-user': 'li', 'content-type': 'application/json', origin },
        body: JSON.stringify({ digest: asked.digest }),
      }),
    );
    expect(await confirmed.json()).toMatchObject({ ok: true });
    expect(setup.data.outbox).toHaveLength(1);
    approvals.close();
  });
});
