import { join } from 'node:path';
import { payloadDigest } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { desk } from '../../confirm/setup.js';
import { describePostgres, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** A person's edit through the registry, stored and delivered by a SQL store. */
function editedClaimCases(open: () => Promise<{ store: ConfirmationStore; close(): Promise<void> }>): void {
  it('delivers and keeps exactly the edited payload, with the edit in the claim entry', async () => {
    const { store, close } = await open();
    const { registry, ask, data } = desk({ confirmations: store });
    const asked = await ask('Your refund is on its way.');
    const payload = {
      ...(asked.confirmPayload as object),
      text: 'Your refund of $20 — 退款 — is on its way.',
    };
    const sent = await registry.confirm(asked.confirmationId, {
      approvedBy: 'lead-2',
      digest: asked.digest,
      payload,
    });
    expect(sent).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    expect(data.outbox.map((m) => m.text)).toEqual(['Your refund of $20 — 退款 — is on its way.']);
    const stored = await store.get(asked.confirmationId);
    expect(stored?.payload).toEqual(payload);
    expect(stored?.digest).toBe(payloadDigest('message.send', payload));
    expect(stored?.history.find((h) => h.status === 'delivering')?.edit).toEqual({
      fromDigest: asked.digest,
      toDigest: stored?.digest,
      fields: ['text'],
    });
    await close();
  });

  it('of an edit and a plain confirm from two instances, one delivers', async () => {
    const { store, close } = await open();
    const { store: other, close: closeOther } = await open();
    const here = desk({ confirmations: store });
    const there = desk({ confirmations: other });
    const asked = await here.ask();
    const payload = { ...(asked.confirmPayload as object), text: 'Edited.' };
    const [edited, plain] = await Promise.all([
      here.registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest, payload }),
      there.registry.confirm(asked.confirmationId, { approvedBy: 'lead-3', digest: asked.digest }),
    ]);
    expect([edited.ok, plain.ok].filter(Boolean)).toHaveLength(1);
    const outbox = [...here.data.outbox, ...there.data.outbox];
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.text).toBe(edited.ok ? 'Edited.' : 'Your refund is on its way.');
    await close();
    await closeOther();
  });
}

describe('a person edits before confirming: SQLite', () => {
  const path = join(dir.path, 'edits.db');
  editedClaimCases(async () => {
    const store = createSqliteStore({ path });
    return { store, close: async () => store.close() };
  });
});

await describePostgres('a person edits before confirming: PostgreSQL', (url) => {
  const table = uniqueTable('gt_edits');
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
  });
  editedClaimCases(async () => {
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    return { store, close: () => store.close() };
  });
});
