import { AUDIT_SEQUENCE_BOUND_MS } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../helpers/postgres.js';
import {
  auditedRegistry,
  entriesOf,
  expectAuditFaultChangesNothing,
  expectEmptyHeadVerifies,
  expectTamperingCaught,
  expectTruncationCaughtBySignedHead,
  fillLog,
} from './audit-scenarios.js';

await describePostgres('audit log on a PostgreSQL table', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) {
      await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
      await pool.query(`DROP FUNCTION IF EXISTS "${table}_audit_down"()`);
    }
    await pool.end();
  });

  /** A new table with a store on it, and raw SQL on the same pool. */
  const fresh = async () => {
    const table = uniqueTable('gt_audit');
    tables.push(table);
    const store = createPostgresStore({ pool, table });
    await store.migrate();
    return {
      store,
      audit: `"${table}_audit"`,
      raw: async (sql: string) => void (await pool.query(sql)),
      close: () => store.close(),
    };
  };

  it('chains committed entries within AUDIT_SEQUENCE_BOUND_MS by itself: no sweep, verify or export', async () => {
    const { store, audit, close } = await fresh();
    await fillLog(auditedRegistry(store));
    const unsequenced = async () =>
      Number((await pool.query(`SELECT count(*) AS n FROM ${audit} WHERE seq IS NULL`)).rows[0].n);
    // Waits for a condition, not a time: the bound is only the deadline.
    const deadline = Date.now() + AUDIT_SEQUENCE_BOUND_MS;
    while ((await unsequenced()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await unsequenced()).toBe(0);
    await close();
  });

  it('records every step, chained, with a store-wide seq', async () => {
    const { store, close } = await fresh();
    const registry = auditedRegistry(store);
    const actions = await fillLog(registry);
    const entries = await entriesOf(registry);
    expect(entries.map((e) => [e.seq, e.action])).toEqual(actions.map((action, i) => [i + 1, action]));
    expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 7 });
    await close();
  });

  it('a decision whose entry cannot be written is not made (AUDIT_FAILED), and stays decidable', async () => {
    await expectAuditFaultChangesNothing(fresh, {
      breakAudit: (audit) => {
        const fn = audit.replace(/_audit"$/, '_audit_down"');
        return [
          `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit disk is full'; END $$`,
          `CREATE TRIGGER audit_down BEFORE INSERT ON ${audit} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
        ];
      },
      mendAudit: (audit) => [`DROP TRIGGER audit_down ON ${audit}`],
    });
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
});
