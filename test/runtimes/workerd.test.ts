import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietEnv } from '../../scripts/runtimes.mjs';
import { expectScenario } from './expect-scenario.js';
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

  beforeAll(async () => {
    app = packedApp('workerd');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
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
  }, 120_000);

  afterAll(() => {
    if (dev?.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, 'SIGTERM');
    removePackedApp(app);
  });

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    const body = (await response.json()) as Record<string, unknown>;
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

  it('runs the scenario on the memory store', async () => {
    expectScenario(await get('/memory'), 'workerd');
  });

  it('runs the scenario on D1 (graded-tools/d1, the local D1 binding)', async () => {
    const result = await get('/d1');
    expectScenario(result, 'workerd');
    expect(result.store).toBe('d1');
  });
});
