import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectEveryChangeLogged } from './audit-scenarios.js';

/** The audit table as the previous version made it: `seq` its key, every entry hashed at its insert. */
const oldTable = (audit: string, seq: string) => `CREATE TABLE ${audit} (
  seq ${seq} PRIMARY KEY NOT NULL, at bigint NOT NULL, kind text NOT NULL, confirmation_id text,
  tool text NOT NULL, by_id text, action text NOT NULL, detail text, prev_hash text NOT NULL, hash text NOT NULL)`;

/** Two chained entries as the previous version wrote them (rule refusals: no confirmation behind them). */
function oldEntries(audit: string): string[] {
  let prevHash = '0'.repeat(64);
  return [1, 2].map((seq) => {
    const fields = { action: 'deny', at: 1_000 + seq, kind: 'rule', prevHash, seq, tool: 'refund.create' };
    const hash = createHash('sha256').update(canonicalJson(fields)).digest('hex');
    const sql = `INSERT INTO ${audit} (seq, at, kind, tool, action, prev_hash, hash) VALUES (${seq}, ${fields.at}, 'rule', 'refund.create', 'deny', '${prevHash}', '${hash}')`;
    prevHash = hash;
    return sql;
  });
}

/** The old entries still verify after the upgrade, and new decisions continue the same chain. */
async function expectChainContinued(store: ConfirmationStore): Promise<void> {
  const registry = new ToolRegistry({ confirmations: store }).register({
    name: 'message.send',
    description: 'Email a customer.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: {} },
    prepare: () => ({ text: 'hi' }),
    deliver: () => 'sent',
  });
  expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 2, head: { seq: 2 } });
  const asked = await registry.invoke('message.send', {}, { actor: 'agent-7' });
  if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a confirmation');
  expect((await registry.confirm(asked.confirmationId, { approvedBy: 'ana', digest: asked.digest })).ok).toBe(
    true,
  );
  expect(await registry.audit.verify()).toMatchObject({
    ok: true,
    entries: 5,
    head: { seq: 5 },
    unsequenced: 0,
  });
  await expectEveryChangeLogged(store);
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('an audit table of the previous version: SQLite', () => {
  it('is rebuilt when the store opens, its entries kept and verified, the chain continued', async () => {
    const path = join(dir.path, 'old.db');
    const db = new Database(path);
    const audit = '"graded_tools_confirmations_audit"';
    db.exec([oldTable(audit, 'INTEGER'), ...oldEntries(audit)].join(';\n'));
    db.close();
    const store = createSqliteStore({ path });
    await expectChainContinued(store);
    store.close();
    // Opening it again changes nothing.
    const again = createSqliteStore({ path });
    expect(await new ToolRegistry({ confirmations: again }).audit.verify()).toMatchObject({
      ok: true,
      entries: 5,
    });
    again.close();
  });
});

await describePostgres('an audit table of the previous version: PostgreSQL', (url) => {
  const table = uniqueTable('gt_audit_old');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });

  it('is rebuilt by migrate(), its entries kept and verified, the chain continued', async () => {
    const audit = `"${table}_audit"`;
    for (const sql of [oldTable(audit, 'bigint'), ...oldEntries(audit)]) await pool.query(sql);
    const store = createPostgresStore({ pool, table });
    await store.migrate();
    await store.migrate();
    await expectChainContinued(store);
  });
});
