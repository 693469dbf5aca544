// What the SQLite and PostgreSQL audit tests share: a registry that fills a log with every kind of
// entry, and the tampering each test does to the rows with plain SQL.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  type AuditEntry,
  canonicalJson,
  type RegistryEvent,
  type SignedAuditHead,
  ToolRegistry,
} from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { expect } from 'vitest';

/** Runs one SQL statement on the store's database, outside the store. */
export type RawSql = (sql: string) => Promise<void>;

/** A registry on `store` with a send tool and a write tool whose rule denies big refunds. */
export function auditedRegistry(store: ConfirmationStore, events: RegistryEvent[] = []): ToolRegistry {
  return new ToolRegistry({ confirmations: store, onEvent: (event) => void events.push(event) })
    .register({
      name: 'message.send',
      description: 'Email a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      prepare: (input) => ({ text: String(input.text) }),
      deliver: () => ({ sent: true }),
    })
    .register({
      name: 'refund.create',
      description: 'Refund.',
      sideEffect: 'write',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      rules: [{ name: 'big', when: 'input.amount > 100', deny: 'Refunds over 100 need finance.' }],
      run: () => 'refunded',
    });
}

/**
 * Seven entries: created, confirmed, delivered; created, rejected; a rule's deny; created.
 * Resolves with the actions in order.
 */
export async function fillLog(registry: ToolRegistry): Promise<string[]> {
  const ask = async () => {
    const asked = await registry.invoke('message.send', { text: 'Refunded.' }, { actor: 'agent-7' });
    if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a pending confirmation');
    return asked;
  };
  const first = await ask();
  expect(
    (await registry.confirm(first.confirmationId, { approvedBy: 'lead-2', digest: first.digest })).ok,
  ).toBe(true);
  const second = await ask();
  expect((await registry.reject(second.confirmationId, { rejectedBy: 'lead-2' })).ok).toBe(true);
  const denied = await registry.invoke('refund.create', { amount: 500 }, { actor: 'agent-7' });
  expect(denied).toMatchObject({ ok: false, code: 'RULE_DENIED' });
  await ask();
  return ['created', 'confirmed', 'delivered', 'created', 'rejected', 'deny', 'created'];
}

/** The tampering cases: what each does to a log of seven entries, and what `verify` must say. */
export const TAMPERING: readonly {
  readonly name: string;
  readonly sql: (audit: string, entries: readonly AuditEntry[]) => readonly string[];
  readonly expected: { readonly reason: string; readonly brokenAt: number };
}[] = [
  {
    name: 'an edited entry',
    sql: (audit) => [`UPDATE ${audit} SET by_id = 'someone-else' WHERE seq = 3`],
    expected: { reason: 'edited', brokenAt: 3 },
  },
  {
    name: 'an edited entry with its hash recomputed',
    sql: (audit, entries) => {
      const { hash: _, ...entry } = entries[1] as AuditEntry;
      const rehashed = createHash('sha256')
        .update(canonicalJson({ ...entry, action: 'rejected' }))
        .digest('hex');
      return [`UPDATE ${audit} SET action = 'rejected', hash = '${rehashed}' WHERE seq = 2`];
    },
    expected: { reason: 'edited', brokenAt: 2 },
  },
  {
    name: 'a deleted entry',
    sql: (audit) => [`DELETE FROM ${audit} WHERE seq = 4`],
    expected: { reason: 'deleted', brokenAt: 4 },
  },
  {
    name: 'the first entry deleted',
    sql: (audit) => [`DELETE FROM ${audit} WHERE seq = 1`],
    expected: { reason: 'deleted', brokenAt: 1 },
  },
  {
    name: 'two entries swapped',
    sql: (audit) => [
      `UPDATE ${audit} SET seq = -5 WHERE seq = 5`,
      `UPDATE ${audit} SET seq = 5 WHERE seq = 6`,
      `UPDATE ${audit} SET seq = 6 WHERE seq = -5`,
    ],
    expected: { reason: 'reordered', brokenAt: 5 },
  },
];

/** An Ed25519 key pair for signed heads. */
export function headKeys() {
  return generateKeyPairSync('ed25519');
}

/** A head of our own choosing, signed as `SignedAuditHead` documents it (a forgery with the real key). */
function signAuditHeadAt(privateKey: KeyObject, head: { seq: number; hash: string }): SignedAuditHead {
  const signedAt = new Date().toISOString();
  const text = canonicalJson({ hash: head.hash, seq: head.seq, signedAt });
  const signature = sign(null, Buffer.from(`graded-tools audit head v1\n${text}`, 'utf8'), privateKey);
  return { ...head, signedAt, signature: signature.toString('base64') };
}

/** Every entry, read back through the export. */
export async function entriesOf(registry: ToolRegistry): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for await (const line of registry.audit.export()) entries.push(JSON.parse(line) as AuditEntry);
  return entries;
}

/**
 * The whole suite for one database: `fresh` opens a new, empty store and a way to run raw SQL on it
 * (and the audit table's quoted name).
 */
export async function expectTamperingCaught(
  fresh: () => Promise<{ store: ConfirmationStore; raw: RawSql; audit: string; close: () => Promise<void> }>,
): Promise<void> {
  for (const tampering of TAMPERING) {
    const { store, raw, audit, close } = await fresh();
    const registry = auditedRegistry(store);
    await fillLog(registry);
    expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 7, head: { seq: 7 } });
    for (const sql of tampering.sql(audit, await entriesOf(registry))) await raw(sql);
    expect(await registry.audit.verify(), tampering.name).toMatchObject({ ok: false, ...tampering.expected });
    await close();
  }
}

/**
 * A head signed on an empty log is the genesis (`seq` 0): it verifies on the empty log and on the log
 * grown since, and a head at 0 that names another hash is still caught.
 */
export async function expectEmptyHeadVerifies(store: ConfirmationStore): Promise<void> {
  const registry = auditedRegistry(store);
  const { privateKey, publicKey } = headKeys();
  const signedHead = await registry.audit.signHead(privateKey);
  expect(signedHead).toMatchObject({ seq: 0 });
  expect(await registry.audit.verify({ signedHead, publicKey })).toMatchObject({
    ok: true,
    entries: 0,
    head: { seq: 0, hash: signedHead.hash },
  });
  await fillLog(registry);
  expect(await registry.audit.verify({ signedHead, publicKey })).toMatchObject({ ok: true, entries: 7 });
  const forged = signAuditHeadAt(privateKey, { seq: 0, hash: 'f'.repeat(64) });
  expect(await registry.audit.verify({ signedHead: forged, publicKey })).toMatchObject({
    ok: false,
    reason: 'edited',
    brokenAt: 0,
  });
}

/** Deleting only the newest entries passes `verify()` alone, and is caught against a signed head. */
export async function expectTruncationCaughtBySignedHead(
  store: ConfirmationStore,
  raw: RawSql,
  audit: string,
): Promise<void> {
  const registry = auditedRegistry(store);
  await fillLog(registry);
  const { privateKey, publicKey } = headKeys();
  const signedHead = await registry.audit.signHead(privateKey);
  expect(signedHead.seq).toBe(7);
  expect(registry.audit.verifyHead(signedHead, publicKey)).toBe(true);
  expect(await registry.audit.verify({ signedHead, publicKey })).toMatchObject({ ok: true, entries: 7 });
  await raw(`DELETE FROM ${audit} WHERE seq >= 6`);
  // What no chain can show by itself: it simply ends sooner.
  expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 5, head: { seq: 5 } });
  expect(await registry.audit.verify({ signedHead, publicKey })).toMatchObject({
    ok: false,
    reason: 'deleted',
    brokenAt: 6,
  });
  const other = headKeys();
  expect(registry.audit.verifyHead(signedHead, other.publicKey)).toBe(false);
  expect(await registry.audit.verify({ signedHead, publicKey: other.publicKey })).toMatchObject({
    ok: false,
    reason: 'signature',
  });
}

/**
 * Every change of every confirmation has its entry, and no entry is without its change: for each
 * confirmation in `store`, its history (one entry per change, its creation included) and its audit
 * entries (sequenced first) name the same steps, one to one.
 */
export async function expectEveryChangeLogged(store: ConfirmationStore): Promise<number> {
  const chain = store.audit;
  if (chain === undefined) throw new Error('the store keeps no audit log');
  await chain.sequence();
  expect(await chain.pending()).toBe(0);
  const logged = new Map<string, number>();
  for (let afterSeq = 0; ; ) {
    const page = await chain.read({ afterSeq, limit: 500 });
    for (const entry of page)
      if (entry.confirmationId !== undefined)
        logged.set(entry.confirmationId, (logged.get(entry.confirmationId) ?? 0) + 1);
    if (page.length < 500) break;
    afterSeq = page.at(-1)?.seq ?? afterSeq;
  }
  let changes = 0;
  const seen = new Set<string>();
  for (let cursor: string | undefined; ; ) {
    const page = await store.list({ limit: 100, ...(cursor === undefined ? {} : { cursor }) });
    for (const confirmation of page.confirmations) {
      seen.add(confirmation.id);
      changes += confirmation.history.length;
      expect(logged.get(confirmation.id) ?? 0, `entries of ${confirmation.id}`).toBe(
        confirmation.history.length,
      );
    }
    if (page.nextCursor === undefined) break;
    cursor = page.nextCursor;
  }
  for (const id of logged.keys())
    expect(seen.has(id), `an entry of ${id}, a confirmation never made`).toBe(true);
  return changes;
}

/**
 * The audit table refuses inserts (`breakAudit`: a trigger that raises, as a full disk or a revoked
 * grant would): no decision is made without its entry — each answers `AUDIT_FAILED`, nothing is
 * delivered, nothing changes, and the confirmation stays decidable. Once mended, the same confirmation
 * is confirmed and delivered once, every step logged.
 */
export async function expectAuditFaultChangesNothing(
  fresh: () => Promise<{ store: ConfirmationStore; raw: RawSql; audit: string; close: () => Promise<void> }>,
  faults: {
    readonly breakAudit: (audit: string) => string[];
    readonly mendAudit: (audit: string) => string[];
  },
): Promise<void> {
  const { store, raw, audit, close } = await fresh();
  let deliveries = 0;
  const registry = new ToolRegistry({ confirmations: store }).register({
    name: 'message.send',
    description: 'Email a customer.',
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    prepare: (input) => ({ text: String(input.text) }),
    deliver: () => {
      deliveries++;
      return { sent: true };
    },
  });
  const asked = await registry.invoke('message.send', { text: 'Refunded.' }, { actor: 'agent-7' });
  if (!asked.ok || !asked.requiresConfirm) throw new Error('expected a pending confirmation');
  for (const sql of faults.breakAudit(audit)) await raw(sql);

  const confirmed = await registry.confirm(asked.confirmationId, {
    approvedBy: 'lead-2',
    digest: asked.digest,
  });
  expect(confirmed).toMatchObject({ ok: false, code: 'AUDIT_FAILED' });
  expect(deliveries).toBe(0);
  expect(await registry.reject(asked.confirmationId, { rejectedBy: 'lead-2' })).toMatchObject({
    ok: false,
    code: 'AUDIT_FAILED',
  });
  const again = await registry.invoke('message.send', { text: 'Another.' }, { actor: 'agent-7' });
  expect(again).toMatchObject({ ok: false, code: 'AUDIT_FAILED' });
  const kept = await store.get(asked.confirmationId);
  expect(kept).toMatchObject({ status: 'pending', attempt: 0 });
  expect(kept?.history).toHaveLength(1);
  expect((await store.list({})).confirmations).toHaveLength(1);

  for (const sql of faults.mendAudit(audit)) await raw(sql);
  const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
  expect(sent).toMatchObject({ ok: true, data: { sent: true } });
  expect(deliveries).toBe(1);
  expect(await expectEveryChangeLogged(store)).toBe(3);
  const entries = await entriesOf(registry);
  expect(entries.map((entry) => entry.action)).toEqual(['created', 'confirmed', 'delivered']);
  expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 3, unsequenced: 0 });
  await close();
}
