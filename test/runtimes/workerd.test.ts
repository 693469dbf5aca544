import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietEnv } from '../../scripts/runtimes.mjs';
import {
  APP_ID,
  APP_PASSWORD,
  CONVERSATION,
  type FakeBotFramework,
  startFakeBotFramework,
} from '../integrations/teams/support/fake-bot-framework.js';
import { pressActivity } from '../integrations/teams/support/teams-requests.js';
import { ROOT } from '../support/ensure-built.js';
import { EXPECTED_ORIGINS, expectScenario } from './expect-scenario.js';
import { packedApp, removePackedApp } from './packed-app.js';
import { binaryOrReason } from './runtime-binary.js';

// The packed package in workerd, Cloudflare Workers' runtime, as `wrangler dev --local` runs a Worker
// (miniflare, local D1): wrangler bundles it with its own esbuild and the `workerd` condition, so this
// is also the bundling a Workers user gets.
const title = 'Cloudflare Workers (workerd, wrangler dev --local)';
const node24 = binaryOrReason('node24', title);
const wrangler = node24 === undefined ? undefined : binaryOrReason('wrangler', title);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe.skipIf(wrangler === undefined)(title, () => {
  let dev: ChildProcess | undefined;
  let base = '';
  let output = '';
  let app = '';

  /** Starts `wrangler dev --local` on the app, its state (the local D1) kept in the app's `.state`. */
  const start = async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    output = '';
    dev = spawn(
      node24 as string,
      [
        wrangler as string,
        'dev',
        '--local',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--persist-to',
        join(app, '.state'),
        // GET /__scheduled runs the Worker's `scheduled` handler, as its Cron Trigger would.
        '--test-scheduled',
      ],
      {
        cwd: join(app, 'worker'),
        env: { ...process.env, ...quietEnv, NO_COLOR: '1', CI: '1' },
        detached: true,
      },
    );
    dev.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    dev.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const started = Date.now();
    while (!/Ready on/.test(output)) {
      if (dev.exitCode !== null || Date.now() - started > 90_000)
        throw new Error(`wrangler dev did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** Stops the wrangler dev this suite started (its process group), and waits for it to end. */
  const stop = async () => {
    const running = dev;
    if (running?.pid === undefined || running.exitCode !== null) return;
    const ended = new Promise((resolve) => running.once('exit', resolve));
    process.kill(-running.pid, 'SIGTERM');
    await ended;
  };

  // Cloudflare Access on loopback: the team's JWKS, and tokens signed with its key.
  let jwks: Server | undefined;
  let team = '';
  let accessKey: CryptoKey;
  const AUDIENCE = 'aud-tag-of-the-approvals-app';
  const accessToken = (audience = AUDIENCE) =>
    new SignJWT({ email: 'li@desk.example' })
      .setProtectedHeader({ alg: 'RS256', kid: 'access-key-1' })
      .setIssuer(team)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(accessKey);

  // The Bot Framework on loopback, for Teams approvals: its JWKS, token endpoint and Connector API.
  let bot: FakeBotFramework | undefined;

  beforeAll(async () => {
    bot = await startFakeBotFramework();
    const pair = await generateKeyPair('RS256', { extractable: true });
    accessKey = pair.privateKey;
    const keys = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'access-key-1', alg: 'RS256' }] };
    const server = createHttpServer((req, res) => {
      if (req.url !== '/cdn-cgi/access/certs') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keys));
    });
    jwks = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    team = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = packedApp('workerd');
    // The recipe as a user copies it into their Worker, and the Access settings as `.dev.vars`.
    cpSync(join(ROOT, 'examples', 'cloudflare-access.ts'), join(app, 'cloudflare-access.ts'));
    writeFileSync(
      join(app, 'worker', '.dev.vars'),
      [
        `ACCESS_TEAM_DOMAIN="${team}"`,
        `ACCESS_AUD="${AUDIENCE}"`,
        `TEAMS_APP_ID="${APP_ID}"`,
        `TEAMS_APP_PASSWORD="${APP_PASSWORD}"`,
        `TEAMS_SERVICE_URL="${bot.serviceUrl}"`,
        `TEAMS_CONVERSATION="${CONVERSATION}"`,
        `TEAMS_OPENID="${bot.openIdMetadataUrl}"`,
        `TEAMS_TOKEN_URL="${bot.tokenUrl}"`,
        '',
      ].join('\n'),
    );
    await start();
  }, 120_000);

  afterAll(async () => {
    await stop();
    removePackedApp(app);
    await bot?.close();
    jwks?.closeAllConnections();
    await new Promise((resolve) => (jwks === undefined ? resolve(undefined) : jwks.close(resolve)));
  });

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    const text = await response.text();
    // workerd answers a request whose handler hangs with text, not JSON: say what it said.
    if (!text.startsWith('{'))
      throw new Error(`${path} answered ${response.status}: ${text}\n${output.slice(-2000)}`);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(
      body.error,
      `${path} failed in workerd:\n${String(body.error)}\n${output.slice(-2000)}`,
    ).toBeUndefined();
    return body;
  };

  it('serves a console made at module scope, as a Worker is written', async () => {
    const response = await fetch(`${base}/approvals/api/session`);
    expect(response.status, output.slice(-2000)).toBe(200);
    expect(await response.json()).toMatchObject({ person: { id: 'lead-li' } });
  });

  it('signs a person in through Cloudflare Access (examples/cloudflare-access.ts, jose) inside workerd', async () => {
    const session = (assertion?: string) =>
      fetch(`${base}/access/api/session`, {
        headers: assertion === undefined ? {} : { 'cf-access-jwt-assertion': assertion },
      });
    const signedIn = await session(await accessToken());
    expect(signedIn.status, output.slice(-2000)).toBe(200);
    expect(await signedIn.json()).toMatchObject({ person: { id: 'li@desk.example' } });
    expect((await session(await accessToken('another-app'))).status).toBe(401);
    expect((await session()).status).toBe(401);
  });

  it('runs the scenario on the memory store', async () => {
    expectScenario(await get('/memory'), 'workerd');
  });

  it('judges an agent run across requests, each with a registry of its own over D1, and across a restart', async () => {
    const { run } = await get('/runs/begin');
    expect(run).toMatch(/^run_/);
    expect(await get(`/runs/read?run=${run}`)).toEqual({ read: 'ok' });
    expect(await get(`/runs/propose?run=${run}`)).toEqual({ origins: EXPECTED_ORIGINS });
    await stop();
    await start();
    expect(await get(`/runs/propose?run=${run}`)).toEqual({ origins: EXPECTED_ORIGINS });
    expect(await get(`/runs/end?run=${run}`)).toEqual({ ended: true });
    expect(await get(`/runs/read?run=${run}`)).toEqual({ read: 'RUN_NOT_FOUND' });
  }, 180_000);

  it('sweeps from the scheduled handler (the Cron Trigger): a held send due is delivered, an overdue confirmation expires', async () => {
    const held = await get('/sweep/held');
    expect(held.confirm).toBe('SCHEDULED');
    const overdue = await get('/sweep/overdue');
    expect(overdue.id).toEqual(expect.any(String));
    expect(await get(`/sweep/status?id=${held.id}`)).toEqual({ status: 'scheduled' });
    expect(await get(`/sweep/status?id=${overdue.id}`)).toEqual({ status: 'pending' });
    const ran = await fetch(`${base}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
    expect(ran.status, `${await ran.text()}\n${output.slice(-2000)}`).toBe(200);
    expect(await get(`/sweep/status?id=${held.id}`)).toEqual({ status: 'delivered' });
    expect(await get(`/sweep/status?id=${overdue.id}`)).toEqual({ status: 'expired' });
  });

  // The case: a wait in one request heard nothing of a confirm in another and timed out.
  it.each([
    ['D1, one registry of the isolate', 'shared'],
    ['D1, a registry made per request', 'own'],
    ['the memory store, one registry of the isolate', 'memory'],
  ])(
    'a wait in one request resolves with a confirm made in another (%s)',
    async (_, which) => {
      const timeoutMs = 20_000;
      const asked = await get(`/waits/${which}/propose`);
      expect(asked).toMatchObject({ id: expect.any(String), digest: expect.any(String) });
      const waiting = get(`/waits/${which}/wait?id=${asked.id}&timeoutMs=${timeoutMs}`);
      // Let the wait begin first (if it did not, its first read sees the decision: the same answer).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await get(`/waits/${which}/confirm?id=${asked.id}&digest=${asked.digest}`)).toEqual({
        status: 'delivered',
      });
      const waited = await waiting;
      expect(waited.status, JSON.stringify(waited)).toBe('delivered');
      // Well before its own timeout: a wait that heard nothing would answer TIMEOUT at timeoutMs.
      expect(waited.ms as number).toBeLessThan(timeoutMs / 4);
    },
    60_000,
  );

  it('runs the scenario on D1 (graded-tools/d1, the local D1 binding)', async () => {
    const result = await get('/d1');
    expectScenario(result, 'workerd');
    expect(result.store).toBe('d1');
  });

  it('approves a send in Teams over D1: a press signed by the Bot Connector decides it once, a forged one is refused', async () => {
    const fake = bot as FakeBotFramework;
    const asked = await get('/teams/propose');
    const posted = await fake.posted(String(asked.id), 20_000).catch((error) => {
      throw new Error(`${error}: ${JSON.stringify({ asked, calls: fake.calls })}\n${output.slice(-2000)}`);
    });
    const activity = pressActivity(fake, posted, 'approve', 'li-guid');
    const pressed = (token: string | undefined) =>
      fetch(`${base}/teams/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(activity),
      });
    const forged = await pressed(await fake.token({ key: 'unpublished' }));
    expect(forged.status, output.slice(-2000)).toBe(401);
    expect(await get(`/teams/status?id=${asked.id}`)).toMatchObject({ status: 'pending', delivered: [] });
    const answer = await pressed(await fake.token());
    expect(answer.status, output.slice(-2000)).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain('Approved by Li');
    expect(await get(`/teams/status?id=${asked.id}`)).toEqual({
      status: 'delivered',
      delivered: [{ to: 'ana@example.com', text: 'Your refund is on its way.' }],
    });
    // The same activity again decides nothing.
    expect((await pressed(await fake.token())).status).toBe(200);
    expect((await get(`/teams/status?id=${asked.id}`)).delivered).toHaveLength(1);
  });
});
