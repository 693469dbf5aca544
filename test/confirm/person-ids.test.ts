import { join } from 'node:path';
import { createMemoryStore, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { readTool } from '../helpers/tools.js';
import { desk } from './setup.js';

// Issue 23: a lone surrogate is stored by the SQL stores as other text (U+FFFD), so the asker
// `mallory\uD800` came back as `mallory\uFFFD` and could approve their own send as `mallory\uD800`.
const LONE = ['mallory\uD800', 'mallory\uDC00x', '\uDBFF'];

function idCases(open: () => Promise<{ store: ConfirmationStore; close(): Promise<void> }>): void {
  it('refuses an asker id with a lone surrogate where it enters: nothing is stored', async () => {
    const { store, close } = await open();
    const { registry } = desk({ confirmations: store, requireDifferentApprover: true });
    for (const actor of LONE) {
      const asked = await registry.invoke(
        'message.send',
        { conversationId: 'c-1001', text: 'Hi.' },
        { scope: 'desk', actor },
      );
      expect(asked).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
      expect(asked.ok ? '' : asked.error).toContain('actor');
      const proposed = await registry.propose(
        'message.send',
        { conversationId: 'c-1001', text: 'Hi.' },
        { scope: 'desk', actor },
      );
      expect(proposed).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    const listed = await registry.confirmations.list();
    expect(listed.ok && listed.confirmations).toEqual([]);
    await close();
  });

  it('refuses an approver, a decider and a link approver with a lone surrogate: still pending', async () => {
    const { store, close } = await open();
    const { registry, ask, data } = desk({ confirmations: store, requireDifferentApprover: true });
    const asked = await ask('Hi.', { actor: 'mallory' });
    for (const id of LONE) {
      const confirmed = await registry.confirm(asked.confirmationId, {
        approvedBy: id,
        digest: asked.digest,
      });
      expect(confirmed).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
      expect(confirmed.ok ? '' : confirmed.error).toContain('approvedBy');
      await expect(registry.reject(asked.confirmationId, { rejectedBy: id })).resolves.toMatchObject({
        ok: false,
        code: 'INVALID_OPTION',
      });
      await expect(
        registry.approvalLinks.issue(asked.confirmationId, { approver: id }),
      ).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
      await expect(
        registry.approvalLinks.issue(asked.confirmationId, { approver: { id } }),
      ).resolves.toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    expect(data.outbox).toEqual([]);
    const found = await registry.confirmations.get(asked.confirmationId);
    expect(found).toMatchObject({ ok: true, confirmation: { status: 'pending', actor: 'mallory' } });
    await close();
  });
}

describe('person ids with lone surrogates: memory store', () => {
  idCases(async () => ({ store: createMemoryStore(), close: async () => {} }));
});

const dir = tempDir();
afterAll(() => dir.remove());

describe('person ids with lone surrogates: SQLite', () => {
  let n = 0;
  idCases(async () => {
    const store = createSqliteStore({ path: join(dir.path, `ids-${++n}.db`) });
    return { store, close: async () => store.close() };
  });
});

await describePostgres('person ids with lone surrogates: PostgreSQL', (url) => {
  const tables: string[] = [];
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });
  idCases(async () => {
    const table = uniqueTable('gt_person_ids');
    tables.push(table);
    const store = createPostgresStore({ connectionString: url, table });
    await store.migrate();
    return { store, close: () => store.close() };
  });
});

describe('per-actor limits count the same checked id', () => {
  it('an actor id propose refuses is refused on invoke too: no fresh allowance', async () => {
    const { tool, calls } = readTool('kb.search', {
      rules: [{ name: 'daily', limit: { calls: 1, per: 'day', by: 'actor' } }],
    });
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('kb.search', { query: 'a' }, { actor: 'agent:bot' })).resolves.toMatchObject(
      {
        ok: true,
      },
    );
    for (const actor of ['agent:bot\u200b', 'agent:bot ', 'agent:bot\uD800', '']) {
      const again = await registry.invoke('kb.search', { query: 'a' }, { actor });
      expect(again).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    }
    await expect(registry.invoke('kb.search', { query: 'a' }, { actor: 'agent:bot' })).resolves.toMatchObject(
      {
        ok: false,
        code: 'LIMIT_REACHED',
      },
    );
    expect(calls).toHaveLength(1);
  });
});
