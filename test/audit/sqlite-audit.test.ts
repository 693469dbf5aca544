import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AUDIT_SEQUENCE_BOUND_MS, type AuditEntry } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import {
  auditedRegistry,
  entriesOf,
  expectAuditFaultChangesNothing,
  expectEmptyHeadVerifies,
  expectTamperingCaught,
  expectTruncationCaughtBySignedHead,
  fillLog,
} from './audit-scenarios.js';

const dir = tempDir();
afterAll(() => dir.remove());
const AUDIT = '"graded_tools_confirmations_audit"';
let files = 0;

/** A new SQLite file with a store on it, and a second connection for raw SQL. */
async function fresh() {
  const path = join(dir.path, `audit-${++files}.db`);
  const store = createSqliteStore({ path });
  const db = new Database(path);
  return {
    store,
    audit: AUDIT,
    raw: async (sql: string) => void db.exec(sql),
    close: async () => {
      db.close();
      store.close();
    },
  };
}

describe('audit log on a SQLite file', () => {
  it('records every step, chained, with a store-wide seq', async () => {
    const { store, close } = await fresh();
    const registry = auditedRegistry(store);
    const actions = await fillLog(registry);
    const entries = await entriesOf(registry);
    expect(entries.map((e) => e.action)).toEqual(actions);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(entries[0]?.prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < entries.length; i++) expect(entries[i]?.prevHash).toBe(entries[i - 1]?.hash);
    expect(entries[5]).toMatchObject({ kind: 'rule', tool: 'refund.create', by: 'agent-7', action: 'deny' });
    expect(entries[5]?.detail).toMatchObject({ rule: 'big', caller: 'person' });
    expect(entries[1]).toMatchObject({
      kind: 'confirmation',
      by: 'lead-2',
      detail: { status: 'delivering' },
    });
    // No payload anywhere: the digest stands for it.
    expect(JSON.stringify(entries)).not.toContain('Refunded.');
    expect(await registry.audit.verify()).toMatchObject({
      ok: true,
      entries: 7,
      head: entries[6] && { seq: 7, hash: entries[6].hash },
    });
    await close();
  });

  it('chains committed entries within AUDIT_SEQUENCE_BOUND_MS by itself: no sweep, verify or export', async () => {
    const { store, close } = await fresh();
    await fillLog(auditedRegistry(store));
    const db = new Database(join(dir.path, `audit-${files}.db`), { readonly: true });
    const seqs = () =>
      (db.prepare(`SELECT seq FROM ${AUDIT} ORDER BY id`).all() as { seq: number | null }[]).map(
        (r) => r.seq,
      );
    // Waits for a condition, not a time: the bound is only the deadline.
    const deadline = Date.now() + AUDIT_SEQUENCE_BOUND_MS;
    while (seqs().includes(null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seqs()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    db.close();
    await close();
  });

  it('chains what is still pending as the store closes', async () => {
    const path = join(dir.path, `audit-${++files}.db`);
    const store = createSqliteStore({ path });
    await fillLog(auditedRegistry(store));
    await store.audit?.append({ at: Date.now(), kind: 'rule', tool: 'refund.create', action: 'deny' });
    const db = new Database(path, { readonly: true });
    const pending = () =>
      (db.prepare(`SELECT count(*) AS n FROM ${AUDIT} WHERE seq IS NULL`).get() as { n: number }).n;
    // Off the decision path: at least the entry just committed is not chained yet.
    expect(pending()).toBeGreaterThan(0);
    store.close();
    expect(pending()).toBe(0);
    db.close();
  });

  it('names the first edited, deleted or reordered entry', async () => {
    await expectTamperingCaught(fresh);
  });

  it('verifies a head signed on the empty log, and catches one at 0 naming another hash', async () => {
    const { store, close } = await fresh();
    await expectEmptyHeadVerifies(store);
    await close();
  });

  it('catches the newest entries deleted only against a signed head', async () => {
    const { store, raw, audit, close } = await fresh();
    await expectTruncationCaughtBySignedHead(store, raw, audit);
    await close();
  });

  it('streams JSON Lines, filtered by time', async () => {
    const { store, close } = await fresh();
    const registry = auditedRegistry(store);
    await fillLog(registry);
    const lines: string[] = [];
    for await (const line of registry.audit.export()) lines.push(line);
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
    const all = lines.map((line) => JSON.parse(line) as AuditEntry);
    const at = all[3]?.at ?? 0;
    const since: string[] = [];
    for await (const line of registry.audit.export({ since: at, until: new Date(at + 1) })) since.push(line);
    expect(since.length).toBeGreaterThanOrEqual(1);
    for (const line of since) expect((JSON.parse(line) as AuditEntry).at).toBe(at);
    await close();
  });

  it('a decision whose entry cannot be written is not made (AUDIT_FAILED), and stays decidable', async () => {
    await expectAuditFaultChangesNothing(fresh, {
      breakAudit: (audit) => [
        `CREATE TRIGGER audit_down BEFORE INSERT ON ${audit} BEGIN SELECT RAISE(ABORT, 'the audit disk is full'); END`,
      ],
      mendAudit: () => ['DROP TRIGGER audit_down'],
    });
  });
});
