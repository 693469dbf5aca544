import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  canonicalJson,
  createMemoryStore,
  payloadDigest,
  type SendToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Two send tools with the same payload shape: a refund to one customer, a broadcast to everyone. */
function payTools(store: ConfirmationStore) {
  const delivered: string[] = [];
  const tool = (name: string): SendToolDefinition => ({
    name,
    description: `${name}.`,
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { amount: { type: 'integer' } } },
    prepare: (input: unknown) => ({ amount: (input as { amount: number }).amount, to: 'ana@example.com' }),
    deliver: () => {
      delivered.push(name);
      return 'sent';
    },
  });
  const registry = new ToolRegistry({ confirmations: store })
    .register(tool('pay.refund'))
    .register(tool('pay.broadcast'));
  return { registry, delivered };
}

async function askRefund(registry: ToolRegistry) {
  const asked = await registry.invoke('pay.refund', { amount: 5 });
  if (!asked.ok || !asked.requiresConfirm)
    throw new Error(`expected a confirmation: ${JSON.stringify(asked)}`);
  return asked;
}

describe('the digest binds the tool and the payload', () => {
  it('is SHA-256 hex of canonicalJson({ payload, tool })', () => {
    const payload = { to: 'ana@example.com', amount: 5 };
    const expected = createHash('sha256')
      .update(canonicalJson({ payload, tool: 'pay.refund' }), 'utf8')
      .digest('hex');
    expect(payloadDigest('pay.refund', payload)).toBe(expected);
    expect(canonicalJson({ payload, tool: 'pay.refund' })).toBe(
      '{"payload":{"amount":5,"to":"ana@example.com"},"tool":"pay.refund"}',
    );
    expect(payloadDigest('pay.broadcast', payload)).not.toBe(expected);
  });

  it('refuses a tool that is not a name with a TypeError', () => {
    expect(() => payloadDigest(undefined as never, {})).toThrow(TypeError);
    expect(() => payloadDigest({ to: 'x' } as never, undefined)).toThrow(TypeError);
  });

  it('is what invoke answers, and the store keeps', async () => {
    const store = createMemoryStore();
    const { registry } = payTools(store);
    const asked = await askRefund(registry);
    expect(asked.digest).toBe(payloadDigest('pay.refund', asked.confirmPayload));
    expect((await store.get(asked.confirmationId))?.digest).toBe(asked.digest);
  });

  it('refuses a record whose tool was changed in the store, with or without the digest; nothing sent', async () => {
    const inner = createMemoryStore();
    const swapped: ConfirmationStore = {
      ...inner,
      get: async (id) => {
        const record = await inner.get(id);
        return record && { ...record, tool: 'pay.broadcast' };
      },
    };
    const { registry, delivered } = payTools(swapped);
    const asked = await askRefund(registry);
    for (const digest of [asked.digest, undefined]) {
      await expect(
        registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest }),
      ).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED' });
    }
    expect(delivered).toEqual([]);
  });
});

describe('a tampered SQLite row', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('whose tool column was changed from pay.refund to pay.broadcast is refused: PAYLOAD_CHANGED, nothing sent', async () => {
    const path = join(dir.path, 'tampered.db');
    const store = createSqliteStore({ path });
    const { registry, delivered } = payTools(store);
    const asked = await askRefund(registry);
    const db = new Database(path);
    const changed = db
      .prepare('UPDATE graded_tools_confirmations SET tool = ? WHERE id = ?')
      .run('pay.broadcast', asked.confirmationId);
    db.close();
    expect(changed.changes).toBe(1);
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED', confirmation: { status: 'pending' } });
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    expect(delivered).toEqual([]);
    store.close();
  });

  it('whose tool and digest were both changed is refused against the digest the person was shown', async () => {
    const path = join(dir.path, 'tampered-digest.db');
    const store = createSqliteStore({ path });
    const { registry, delivered } = payTools(store);
    const asked = await askRefund(registry);
    const db = new Database(path);
    db.prepare('UPDATE graded_tools_confirmations SET tool = ?, digest = ? WHERE id = ?').run(
      'pay.broadcast',
      payloadDigest('pay.broadcast', asked.confirmPayload),
      asked.confirmationId,
    );
    db.close();
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED' });
    expect(delivered).toEqual([]);
    store.close();
  });
});

const table = uniqueTable('gt_binding');
let admin: pg.Pool | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

await describePostgres('a tampered PostgreSQL row', (url) => {
  it('whose tool column was changed from pay.refund to pay.broadcast is refused: PAYLOAD_CHANGED, nothing sent', async () => {
    admin = new pg.Pool({ connectionString: url, max: 1 });
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    const { registry, delivered } = payTools(store);
    const asked = await askRefund(registry);
    const changed = await admin.query(`UPDATE ${table} SET tool = $1 WHERE id = $2`, [
      'pay.broadcast',
      asked.confirmationId,
    ]);
    expect(changed.rowCount).toBe(1);
    await expect(
      registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest }),
    ).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED', confirmation: { status: 'pending' } });
    await expect(registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).resolves.toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    expect(delivered).toEqual([]);
    await store.close();
  });
});
