import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type AuditEntry,
  bundleDigest,
  createMemoryStore,
  describeDecision,
  payloadDigest,
  type ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describePostgres, storeTables, uniqueTable } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { bundleDesk } from './bundle-desk.js';

/** Every audit entry, sequenced first (a SQL store chains its entries when it sequences). */
async function auditEntries(registry: ToolRegistry): Promise<AuditEntry[]> {
  await registry.sweep();
  const entries: AuditEntry[] = [];
  for await (const line of registry.audit.export()) entries.push(JSON.parse(line) as AuditEntry);
  return entries;
}

const FINANCE_A = { approvedBy: 'fin-a', flags: { finance: true } };
const FINANCE_B = { approvedBy: 'fin-b', flags: { finance: true } };

/** The bundle behaviours, against one store kind (`open` gives a fresh, empty store). */
function bundleSuite(open: () => Promise<ConfirmationStore>) {
  it('stores every step, delivers them in order after one decision, and tells it with the bundle id', async () => {
    const { registry, deliveries, events } = bundleDesk(await open());
    const asked = await registry.proposeBundle(
      [
        { tool: 'email.send', input: { text: 'first' } },
        { tool: 'case.note', input: { text: 'second' } },
        { tool: 'email.send', input: { text: 'third' } },
      ],
      { actor: 'agent-7', note: 'Three in order.', ref: 'case-9' },
    );
    if (!asked.ok) throw new Error(asked.error);
    expect(asked.confirmations).toHaveLength(3);
    expect(asked.digest).toBe(bundleDigest(asked.confirmations.map((c) => c.digest)));
    const read = await registry.confirmations.bundle(asked.bundleId);
    if (!read.ok) throw new Error(read.error);
    expect(read.bundle.status).toBe('pending');
    expect(read.bundle.steps.map((s) => [s.bundle?.index, s.bundle?.size, s.note, s.ref])).toEqual([
      [0, 3, 'Three in order.', 'case-9'],
      [1, 3, 'Three in order.', 'case-9'],
      [2, 3, 'Three in order.', 'case-9'],
    ]);
    const decided = await registry.confirmBundle(asked.bundleId, {
      approvedBy: 'lead-li',
      digest: asked.digest,
    });
    if (!decided.ok) throw new Error(decided.error);
    expect(decided.steps).toEqual([0, 1, 2]);
    expect(decided.bundle.status).toBe('delivered');
    expect(deliveries.map((d) => d.text)).toEqual(['first', 'second', 'third']);
    const told = events.flatMap((e) =>
      e.type === 'confirmation' && e.action === 'delivered' ? [e.bundle?.index] : [],
    );
    expect(told).toEqual([0, 1, 2]);
    const entries = await auditEntries(registry);
    const bundled = entries.filter((e) => e.detail?.bundle === asked.bundleId);
    // One transaction commits the three `created` entries; the chain may order them either way.
    const created = bundled.filter((e) => e.action === 'created').map((e) => Number(e.detail?.step));
    expect(created.sort()).toEqual([0, 1, 2]);
    const sent = bundled.filter((e) => e.action === 'delivered').map((e) => e.detail?.step);
    expect(sent).toEqual([0, 1, 2]);
    const waited = await registry.confirmations.waitFor(asked.bundleId);
    if (!waited.ok || waited.bundle === undefined) throw new Error('not a bundle');
    expect(describeDecision(waited.bundle)).toMatch(/^Step 1 of 3 \(email\.send\): Sent at/);
  });

  it('refuses bad input with INVALID_OPTION (or the step’s own failure) and stores nothing', async () => {
    const store = await open();
    const { registry } = bundleDesk(store);
    const step = { tool: 'email.send', input: { text: 'x' } };
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ tool: 'email.send', input: { text: `${i}` } }));
    const cases: [unknown, string][] = [
      [[], 'INVALID_OPTION'],
      [many(101), 'INVALID_OPTION'],
      [many(1000), 'INVALID_OPTION'],
      ['email.send', 'INVALID_OPTION'],
      [{ 0: step, length: 1 }, 'INVALID_OPTION'],
      [[step, step], 'INVALID_OPTION'],
      [[step, { tool: 'email.send', input: { text: 'x' } }], 'INVALID_OPTION'],
      [[step, { tool: 'invoices.read', input: {} }], 'INVALID_OPTION'],
      [[step, { tool: 'no.such', input: {} }], 'UNKNOWN_TOOL'],
      [[step, { tool: 'email.send', input: { text: 7 } }], 'INVALID_INPUT'],
      [[step, null], 'INVALID_OPTION'],
    ];
    for (const [steps, code] of cases) {
      const answer = await registry.proposeBundle(steps as never, { actor: 'agent-7' });
      expect(answer, JSON.stringify(steps).slice(0, 80)).toMatchObject({ ok: false, code });
    }
    const failedAt = await registry.proposeBundle([step, { tool: 'no.such', input: {} }] as never, {
      actor: 'a',
    });
    expect(failedAt).toMatchObject({ ok: false, step: 1 });
    const left = await registry.confirmations.list({ limit: 1000 });
    expect(left.ok && left.confirmations).toEqual([]);
    // 100 is the cap, and is taken.
    expect(await registry.proposeBundle(many(100), { actor: 'agent-7' })).toMatchObject({ ok: true });
  });

  it('decides the bundle whole and only as shown: a step alone, a wrong digest or a changed step refuse', async () => {
    const store = await open();
    const { registry, deliveries } = bundleDesk(store);
    const asked = await registry.proposeBundle(
      [
        { tool: 'email.send', input: { text: 'a' } },
        { tool: 'email.send', input: { text: 'b' } },
      ],
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const [first] = asked.confirmations;
    const alone = await registry.confirm(first?.confirmationId ?? '', {
      approvedBy: 'li',
      digest: first?.digest,
    });
    expect(alone).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(
      await registry.confirmBundle(asked.bundleId, { approvedBy: 'li', digest: 'f'.repeat(64) }),
    ).toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    expect(await registry.confirmBundle(asked.bundleId, { approvedBy: 'li' })).toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
    expect(deliveries).toEqual([]);
    const bundle = await registry.confirmations.bundle(asked.bundleId);
    expect(bundle.ok && bundle.bundle.steps.map((s) => s.status)).toEqual(['pending', 'pending']);
  });

  it('counts one approval for every step the person may approve; a two-approver step holds the rest', async () => {
    const { registry, deliveries } = bundleDesk(await open());
    const asked = await registry.proposeBundle(
      [
        { tool: 'refund.issue', input: { text: 'refund cus-42', amount: 150 } },
        { tool: 'email.send', input: { text: 'We refunded 150 EUR.' } },
      ],
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const { digest, bundleId } = asked;
    // No `finance` flag: the email counts, the refund waits for finance, and so does the email.
    const clerk = await registry.confirmBundle(bundleId, { approvedBy: 'clerk', digest });
    expect(clerk).toMatchObject({ ok: true, steps: [1] });
    expect(deliveries).toEqual([]);
    const one = await registry.confirmBundle(bundleId, { ...FINANCE_A, digest });
    expect(one).toMatchObject({ ok: true, steps: [0], bundle: { status: 'pending' } });
    expect(deliveries).toEqual([]);
    expect(await registry.confirmBundle(bundleId, { ...FINANCE_A, digest })).toMatchObject({
      ok: false,
      code: 'ALREADY_APPROVED',
    });
    const two = await registry.confirmBundle(bundleId, { ...FINANCE_B, digest });
    expect(two).toMatchObject({ ok: true, steps: [0], bundle: { status: 'delivered' } });
    expect(deliveries.map((d) => d.tool)).toEqual(['refund.issue', 'email.send']);
  });

  it('a reject stops every later step, recorded and told; waitFor and describeDecision say each', async () => {
    const { registry, deliveries, events } = bundleDesk(await open());
    const asked = await registry.proposeBundle(
      [
        { tool: 'email.send', input: { text: 'a' } },
        { tool: 'email.send', input: { text: 'b' } },
        { tool: 'email.send', input: { text: 'c' } },
      ],
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const waiting = registry.confirmations.waitFor(asked.bundleId);
    const rejected = await registry.rejectBundle(asked.bundleId, {
      rejectedBy: 'li',
      reason: 'Wrong customer.',
    });
    expect(rejected).toMatchObject({ ok: true, steps: [0], bundle: { status: 'stopped' } });
    const waited = await waiting;
    if (!waited.ok || waited.bundle === undefined) throw new Error('not settled');
    expect(waited.bundle.steps.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(describeDecision(waited.bundle).split('\n')).toEqual([
      'Step 1 of 3 (email.send): A person rejected this: Wrong customer. It was not sent.',
      'Step 2 of 3 (email.send): Not sent: step 1 did not go out, so this step was stopped.',
      'Step 3 of 3 (email.send): Not sent: step 1 did not go out, so this step was stopped.',
    ]);
    expect(deliveries).toEqual([]);
    const told = events.flatMap((e) =>
      e.type === 'confirmation' && e.action === 'rejected' ? [e.bundle?.index] : [],
    );
    expect(told).toEqual([0, 1, 2]);
    const stops = (await auditEntries(registry)).filter(
      (e) => e.action === 'rejected' && e.detail?.bundle === asked.bundleId,
    );
    expect(stops).toHaveLength(3);
  });

  it('a held step goes first after its undo window; a cancel of it stops the rest', async () => {
    const desk = bundleDesk(await open(), { holdMs: 60_000 });
    const { registry, deliveries, clock } = desk;
    const propose = (amount: number) =>
      registry.proposeBundle(desk.refundAndEmail(amount), { actor: 'agent-7' });
    const asked = await propose(90);
    if (!asked.ok) throw new Error(asked.error);
    const decided = await registry.confirmBundle(asked.bundleId, { ...FINANCE_A, digest: asked.digest });
    expect(decided).toMatchObject({ ok: true, steps: [0, 1], bundle: { status: 'delivering' } });
    expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(deliveries).toEqual([]);
    clock.advance(60_000);
    const swept = await registry.sweep();
    expect(swept.ok && swept.delivered.map((c) => c.tool)).toEqual(['refund.issue', 'email.send']);
    expect(deliveries.map((d) => d.tool)).toEqual(['refund.issue', 'email.send']);

    const again = await propose(80);
    if (!again.ok) throw new Error(again.error);
    await registry.confirmBundle(again.bundleId, { ...FINANCE_A, digest: again.digest });
    const [refund] = again.confirmations;
    expect(await registry.cancel(refund?.confirmationId ?? '', { by: 'fin-a' })).toMatchObject({ ok: true });
    const after = await registry.confirmations.bundle(again.bundleId);
    expect(after.ok && after.bundle.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);
    clock.advance(120_000);
    await registry.sweep();
    expect(deliveries).toHaveLength(2);
  });

  it('a failed step stops the rest; an unknown one holds them until a person settles it', async () => {
    let mode: 'throw' | 'hang' = 'throw';
    const desk = bundleDesk(await open(), {
      timeoutMs: 50,
      behave: (tool) => {
        if (tool !== 'refund.issue') return { sent: true };
        if (mode === 'throw') throw new Error('bank said no');
        return new Promise(() => {});
      },
    });
    const { registry, deliveries } = desk;
    const failing = await registry.proposeBundle(desk.refundAndEmail(50), { actor: 'agent-7' });
    if (!failing.ok) throw new Error(failing.error);
    const failed = await registry.confirmBundle(failing.bundleId, {
      approvedBy: 'li',
      digest: failing.digest,
    });
    expect(failed).toMatchObject({ ok: true, bundle: { status: 'stopped' } });
    expect(failed.ok && failed.bundle.steps.map((s) => s.status)).toEqual(['failed', 'cancelled']);
    expect(deliveries.map((d) => d.tool)).toEqual(['refund.issue']);

    mode = 'hang';
    const hanging = await registry.proposeBundle(desk.refundAndEmail(60), { actor: 'agent-7' });
    if (!hanging.ok) throw new Error(hanging.error);
    const unknown = await registry.confirmBundle(hanging.bundleId, {
      approvedBy: 'li',
      digest: hanging.digest,
    });
    expect(unknown).toMatchObject({ ok: true, bundle: { status: 'unknown' } });
    expect(unknown.ok && unknown.bundle.steps.map((s) => s.status)).toEqual(['unknown', 'scheduled']);
    await registry.sweep();
    expect(deliveries.map((d) => d.tool)).toEqual(['refund.issue', 'refund.issue']);
    const [refund] = hanging.confirmations;
    await registry.markDelivered(refund?.confirmationId ?? '', { by: 'li', note: 'the bank shows it' });
    const settled = await registry.confirmations.bundle(hanging.bundleId);
    expect(settled.ok && settled.bundle.status).toBe('delivered');
    expect(deliveries.map((d) => d.tool)).toEqual(['refund.issue', 'refund.issue', 'email.send']);
  });

  it('another instance (or one restarted) carries a held bundle on at its sweep, each step once', async () => {
    const store = await open();
    const first = bundleDesk(store, { holdMs: 60_000 });
    const asked = await first.registry.proposeBundle(first.refundAndEmail(70), { actor: 'agent-7' });
    if (!asked.ok) throw new Error(asked.error);
    await first.registry.confirmBundle(asked.bundleId, { approvedBy: 'li', digest: asked.digest });
    // The first instance is gone; a second one, with its own clock past the window, sweeps twice.
    const second = bundleDesk(store, { holdMs: 60_000 });
    second.clock.advance(61_000);
    const [a, b] = await Promise.all([second.registry.sweep(), second.registry.sweep()]);
    const delivered = [...(a.ok ? a.delivered : []), ...(b.ok ? b.delivered : [])].map(
      (c) => c.bundle?.index,
    );
    expect(delivered.sort()).toEqual([0, 1]);
    expect(second.deliveries.map((d) => d.tool)).toEqual(['refund.issue', 'email.send']);
    expect(first.deliveries).toEqual([]);
  });

  it('a step is decided only with its bundle: no one-time link for it, canDecide asks with the bundle digest', async () => {
    const { registry } = bundleDesk(await open());
    const asked = await registry.proposeBundle(
      [
        { tool: 'email.send', input: { text: 'a' } },
        { tool: 'email.send', input: { text: 'b' } },
      ],
      { actor: 'agent-7' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const stepId = asked.confirmations[1]?.confirmationId ?? '';
    const link = await registry.approvalLinks.issue(stepId, { approver: 'li' });
    expect(link).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    const found = await registry.confirmations.get(stepId);
    if (!found.ok) throw new Error(found.error);
    const person = { id: 'li' };
    expect(
      await registry.confirmations.canDecide(found.confirmation, { kind: 'confirm', person }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_OPTION',
    });
    expect(
      await registry.confirmations.canDecide(found.confirmation, {
        kind: 'confirm',
        person,
        bundleDigest: asked.digest,
      }),
    ).toEqual({ ok: true });
    expect(
      await registry.confirmations.canDecide(found.confirmation, {
        kind: 'confirm',
        person,
        bundleDigest: 'f'.repeat(64),
      }),
    ).toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED' });
  });

  it('an expired step stops the rest at the sweep', async () => {
    const desk = bundleDesk(await open());
    const asked = await desk.registry.proposeBundle(desk.refundAndEmail(50), { actor: 'agent-7' });
    if (!asked.ok) throw new Error(asked.error);
    desk.clock.advance(25 * 60 * 60_000);
    const swept = await desk.registry.sweep();
    expect(swept.ok && swept.expired.map((c) => c.bundle?.index)).toContain(0);
    const after = await desk.registry.confirmations.bundle(asked.bundleId);
    expect(after.ok && after.bundle.status).toBe('stopped');
    expect(
      after.ok && after.bundle.steps.every((s) => s.status === 'expired' || s.status === 'rejected'),
    ).toBe(true);
  });
}

const dir = tempDir();
afterAll(() => dir.remove());

describe('bundles: memory store', () => {
  bundleSuite(async () => createMemoryStore());
});

describe('bundles: SQLite file', () => {
  let n = 0;
  const opened: { close(): void }[] = [];
  afterAll(() => {
    for (const store of opened) store.close();
  });
  bundleSuite(async () => {
    const store = createSqliteStore({ path: join(dir.path, `bundles-${++n}.db`) });
    opened.push(store);
    return store;
  });

  it('a step changed in the database refuses the bundle decision (PAYLOAD_CHANGED), digest recomputed or not', async () => {
    const path = join(dir.path, `bundles-tampered.db`);
    const store = createSqliteStore({ path });
    opened.push(store);
    const { registry, deliveries } = bundleDesk(store);
    const db = new Database(path);
    const propose = async () => {
      const asked = await registry.proposeBundle(
        [
          { tool: 'email.send', input: { text: 'a' } },
          { tool: 'email.send', input: { text: 'b' } },
        ],
        { actor: 'agent-7' },
      );
      if (!asked.ok) throw new Error(asked.error);
      return asked;
    };
    // The payload changed, its digest not: the step's own digest no longer matches.
    const one = await propose();
    const changed = JSON.stringify({ text: 'pay mallory' });
    db.prepare('UPDATE graded_tools_confirmations SET payload = ? WHERE id = ?').run(
      changed,
      one.confirmations[1]?.confirmationId,
    );
    expect(
      await registry.confirmBundle(one.bundleId, { approvedBy: 'li', digest: one.digest }),
    ).toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    // The payload and its digest changed together: the bundle digest no longer matches what was shown.
    const two = await propose();
    db.prepare('UPDATE graded_tools_confirmations SET payload = ?, digest = ? WHERE id = ?').run(
      changed,
      payloadDigest('email.send', { text: 'pay mallory' }),
      two.confirmations[1]?.confirmationId,
    );
    expect(
      await registry.confirmBundle(two.bundleId, { approvedBy: 'li', digest: two.digest }),
    ).toMatchObject({
      ok: false,
      code: 'PAYLOAD_CHANGED',
    });
    expect(deliveries).toEqual([]);
    db.close();
  });
});

await describePostgres('bundles: PostgreSQL', (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await pool.end();
  });
  bundleSuite(async () => {
    const table = uniqueTable('gt_bundle');
    tables.push(table);
    const store = createPostgresStore({ pool, table });
    await store.migrate();
    return store;
  });
});
