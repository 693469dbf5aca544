import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ToolRegistry } from 'graded-tools';
import { webhookNotifier } from 'graded-tools/notify';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepTask } from '../fixtures/sweep-app.js';

// Several app instances on one store, each sweeping in a loop: every notice reaches the receiver
// once — verified by the standardwebhooks library, counted by webhook-id.
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/sweep-app.ts', import.meta.url));
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
const COUNT = 12;
const TTL = 60_000;

let server: Server;
let url = '';
const received: { id: string; type: string }[] = [];
let rejected = 0;

beforeAll(async () => {
  const webhook = new Webhook(secret);
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      try {
        const event = webhook.verify(body, req.headers as Record<string, string>) as { type: string };
        received.push({ id: String(req.headers['webhook-id']), type: event.type });
        res.writeHead(204).end();
      } catch {
        rejected += 1;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const sweepIn = (task: SweepTask) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(task)], {
    cwd: root,
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  }).then(({ stdout }) => JSON.parse(stdout.trim()) as { reminded: number; expired: number });

async function scenario(store: ConfirmationStore, storeTask: SweepTask['store']) {
  received.length = 0;
  const registry = new ToolRegistry({
    confirmations: store,
    confirmationTtlMs: TTL,
    notify: { to: [webhookNotifier({ url, secret })] },
  }).register({
    name: 'message.send',
    title: 'Send a message',
    description: 'Send a message.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    prepare: (input: { text?: string }) => ({ text: input.text ?? '' }),
    deliver: () => ({ sent: true }),
  });
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const asked = await registry.invoke('message.send', { text: `hello ${i}` }, { actor: 'agent-7' });
    if (!(asked.ok && 'requiresConfirm' in asked)) throw new Error('expected a confirmation');
    ids.push((asked as { confirmationId: string }).confirmationId);
  }
  const base = { store: storeTask, webhook: { url, secret }, remindBeforeMs: 10 * TTL, sweeps: 15 };
  // Two instances remind (each confirmation expires within their ten-minute window), then two expire them.
  const reminders = await Promise.all([
    sweepIn({ ...base, clockAheadMs: 0 }),
    sweepIn({ ...base, clockAheadMs: 0 }),
  ]);
  const expiries = await Promise.all([
    sweepIn({ ...base, clockAheadMs: 2 * TTL }),
    sweepIn({ ...base, clockAheadMs: 2 * TTL }),
  ]);
  expect(reminders.reduce((n, r) => n + r.reminded, 0)).toBe(COUNT);
  expect(expiries.reduce((n, r) => n + r.expired, 0)).toBe(COUNT);
  const deadline = Date.now() + 10_000;
  while (received.length < 3 * COUNT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const byId = new Map<string, number>();
  for (const { id } of received) byId.set(id, (byId.get(id) ?? 0) + 1);
  expect([...byId.values()].every((n) => n === 1)).toBe(true);
  const expected = ids.flatMap((id) => [`${id}.created`, `${id}.reminder`, `${id}.decided.expired`]);
  expect([...byId.keys()].sort()).toEqual(expected.sort());
  expect(rejected).toBe(0);
}

describe('notices across app instances sharing one store', () => {
  it('SQLite file: each created, reminder and expired notice arrives once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gt-notify-'));
    const path = join(dir, 'confirmations.db');
    const store = createSqliteStore({ path });
    try {
      await scenario(store, { kind: 'sqlite', path });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('PostgreSQL: each created, reminder and expired notice arrives once', async () => {
    const table = `gt_notify_${process.pid}_${randomBytes(3).toString('hex')}`;
    const store = createPostgresStore({ connectionString: PG_URL, table });
    await store.migrate();
    try {
      await scenario(store, { kind: 'postgres', url: PG_URL, table });
    } finally {
      await store.close();
      const pg = await import('pg');
      const pool = new pg.default.Pool({ connectionString: PG_URL });
      await pool.query(`DROP TABLE IF EXISTS "${table}", "${table}_notices"`);
      await pool.end();
    }
  }, 120_000);
});
