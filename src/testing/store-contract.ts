import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payloadDigest } from '../confirm/digest.js';
import type { Confirmation } from '../confirmation.js';
import { encodeCursor } from '../stores/cursor.js';
import type {
  ApprovalLinkRecord,
  ConfirmationQuery,
  ConfirmationStore,
  PayloadEdit,
} from '../stores/store.js';
import { HOUR, iso, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';
import { bundleCases } from './store-contract-bundles.js';
import { escalationCases } from './store-contract-escalation.js';
import { heldCases } from './store-contract-held.js';
import { idempotencyCases } from './store-contract-idempotency.js';
import { limitCases, quorumCases } from './store-contract-rules.js';
import { runCases } from './store-contract-runs.js';

/**
 * The contract every `ConfirmationStore` keeps, run against each implementation (ours and yours) as
 * vitest suites: call it at the top level of a test file. `open` makes the store (once per group of
 * tests) and says how to tidy it up. The cases of a capability the store lacks are skipped. Times are
 * passed in, so nothing here sleeps; ids are random, so a shared database never collides between runs.
 *
 * @example
 * ```ts
 * import { createMemoryStore } from 'graded-tools';
 * import { storeContract } from 'graded-tools/testing';
 *
 * storeContract('memory', async () => ({ store: createMemoryStore() }));
 * ```
 */
export function storeContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(open, (opened) => {
      store = opened;
    });

    const created = async (overrides: Partial<Confirmation> = {}, at = T0) => {
      const confirmation = pendingConfirmation(overrides, at);
      await store.create(confirmation);
      return confirmation;
    };

    it('stores a confirmation and gives every field back as it was', async () => {
      const payload = {
        to: 'li@example.com',
        text: 'Quotes \' " and \\ backslashes, a NUL \u0000, emoji 🎉, 中文, and a line\nbreak.',
        nested: { list: [1, 2.5, -0.125, true, null, { deep: ['x'] }], empty: {}, none: [] },
      };
      const original = await created({
        payload,
        digest: payloadDigest('message.send', payload),
        input: { raw: 'ß' },
      });
      const read = await store.get(original.id);
      expect(read).toEqual(original);
      expect(payloadDigest('message.send', read?.payload)).toBe(original.digest);
    });

    it("keeps the asker's note, links and ref through every change", async () => {
      const about = {
        note: 'The customer asked twice; quotes \' " \\, 中文, and a\nsecond line.',
        links: [
          { label: 'Conversation #4411', url: 'https://desk.example/c/4411' },
          { label: 'Order', url: 'http://orders.example/o/9?x=1&y=2' },
        ],
        ref: 'conv-4411',
      };
      const original = await created(about);
      expect(await store.get(original.id)).toEqual(original);
      const claimed = await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
      expect(claimed).toMatchObject({ ok: true, confirmation: about });
      const listed = await store.list({ limit: 1000 });
      expect(listed.confirmations.find((c) => c.id === original.id)).toMatchObject(about);
      const { note: _n, links: _l, ref: _r, ...bare } = pendingConfirmation();
      await store.create(bare);
      const read = await store.get(bare.id);
      expect(read).toEqual(bare);
      expect(read && ('note' in read || 'links' in read || 'ref' in read)).toBe(false);
    });

    it('keeps where each destination came from (origins) through every change, beside note and links', async () => {
      const origins = {
        to: [{ from: 'tool', tool: 'inbox.read' }, { from: 'none' }],
        cc: [{ from: 'request' }, { from: 'trusted' }],
        'to.email': [{ from: 'tool', tool: 'web.get' }],
      };
      // A destination field named `__proto__` stays a field (a store must not treat it as a prototype).
      const withKey = JSON.parse(JSON.stringify(origins)) as NonNullable<Confirmation['origins']>;
      Object.defineProperty(withKey, '__proto__', {
        value: [{ from: 'request' }],
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const original = await created({ origins: withKey, note: 'Forwarding the invoice.' });
      expect(await store.get(original.id)).toEqual(original);
      // Origins describe the payload; they are not sent, so the digest is the payload's alone.
      expect(original.digest).toBe(payloadDigest('message.send', original.payload));
      const claimed = await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
      expect(claimed).toMatchObject({ ok: true, confirmation: { origins: withKey } });
      const finished = await store.finish(original.id, { now: T0 + 2, status: 'delivered', attempt: 1 });
      expect(finished).toMatchObject({ ok: true, confirmation: { origins: withKey } });
      const read = await store.get(original.id);
      expect(read?.origins).toEqual(withKey);
      expect(Object.hasOwn(read?.origins ?? {}, '__proto__')).toBe(true);
      const listed = await store.list({ limit: 1000 });
      expect(listed.confirmations.find((c) => c.id === original.id)?.origins).toEqual(withKey);
      const bare = await created();
      const readBare = await store.get(bare.id);
      expect(readBare).toEqual(bare);
      expect(readBare !== undefined && 'origins' in readBare).toBe(false);
    });

    it('keeps each value with its own origins (originValues, trusted lists by name) and originsOutsideRun', async () => {
      const originValues = {
        to: [
          { value: 'ana@example.com', origins: [{ from: 'request' }] },
          { value: 'evil@attacker.test', origins: [{ from: 'tool', tool: 'inbox.read' }] },
          { value: '{"name":"Eve"}', origins: [{ from: 'none' }] },
        ],
        '/payee/iban': [{ value: 'de89370400440532013000', origins: [{ from: 'trusted', list: 'payees' }] }],
      } as const;
      const origins = {
        to: [{ from: 'request' }, { from: 'tool', tool: 'inbox.read' }, { from: 'none' }],
        '/payee/iban': [{ from: 'trusted', list: 'payees' }],
      } as const;
      const original = await created({ origins, originValues });
      expect(await store.get(original.id)).toEqual(original);
      const claimed = await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
      expect(claimed).toMatchObject({ ok: true, confirmation: { origins, originValues } });
      const listed = await store.list({ limit: 1000 });
      expect(listed.confirmations.find((c) => c.id === original.id)?.originValues).toEqual(originValues);
      const outside = await created({ originsOutsideRun: true });
      expect((await store.get(outside.id))?.originsOutsideRun).toBe(true);
      await store.claim(outside.id, { now: T0 + 1, by: 'lead-2' });
      const finished = await store.finish(outside.id, { now: T0 + 2, status: 'delivered', attempt: 1 });
      expect(finished).toMatchObject({ ok: true, confirmation: { originsOutsideRun: true } });
      const bare = await store.get((await created()).id);
      expect(bare !== undefined && ('originValues' in bare || 'originsOutsideRun' in bare)).toBe(false);
    });

    it('keeps an empty origins map (asked within a run, no destination named) as empty', async () => {
      const original = await created({ origins: {} });
      expect((await store.get(original.id))?.origins).toEqual({});
    });

    it('keeps an own "__proto__" key in a payload as data', async () => {
      const payload = JSON.parse('{"__proto__":{"admin":true},"text":"hi"}') as unknown;
      const original = await created({ payload, digest: payloadDigest('message.send', payload) });
      const read = (await store.get(original.id))?.payload as { admin?: boolean };
      expect(Object.hasOwn(read, '__proto__')).toBe(true);
      expect(payloadDigest('message.send', read)).toBe(original.digest);
      expect(read.admin).toBeUndefined();
    });

    it('keeps a confirmation without actor or scope without them', async () => {
      const { actor: _a, scope: _s, ...bare } = pendingConfirmation();
      await store.create(bare);
      const read = await store.get(bare.id);
      expect(read).toEqual(bare);
      expect(read && 'actor' in read).toBe(false);
    });

    it('answers undefined for an id it does not hold', async () => {
      await expect(store.get('no-such-confirmation')).resolves.toBeUndefined();
    });

    it('refuses a second confirmation with the same id', async () => {
      const first = await created();
      await expect(store.create({ ...first, tool: 'other.tool' })).rejects.toBeDefined();
      expect((await store.get(first.id))?.tool).toBe('message.send');
    });

    it('hands out snapshots: changing a record read back does not change the store', async () => {
      const original = await created();
      const read = (await store.get(original.id)) as Confirmation & { payload: { to: string } };
      try {
        read.payload.to = 'mallory@example.com';
        (read as { status: string }).status = 'delivered';
      } catch {
        // A frozen record refuses the change outright, which is just as good.
      }
      expect(await store.get(original.id)).toEqual(original);
    });

    it('claims a pending confirmation once: delivering, attempt 1, the approver in the history', async () => {
      const original = await created();
      const won = await store.claim(original.id, { now: T0 + 1_000, by: 'lead-2' });
      expect(won.ok).toBe(true);
      if (!won.ok) return;
      expect(won.confirmation).toMatchObject({
        status: 'delivering',
        attempt: 1,
        updatedAt: iso(T0 + 1_000),
      });
      expect(won.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 1_000),
        status: 'delivering',
        by: 'lead-2',
      });
      const lost = await store.claim(original.id, { now: T0 + 2_000, by: 'lead-3' });
      expect(lost).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'delivering' },
      });
      expect((await store.get(original.id))?.history).toHaveLength(2);
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const original = await created();
      const outcomes = await Promise.all(
        Array.from({ length: 16 }, (_, i) => store.claim(original.id, { now: T0 + 1_000, by: `p${i}` })),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok && o.reason === 'wrong-status')).toHaveLength(15);
      expect((await store.get(original.id))?.attempt).toBe(1);
    });

    it('does not claim an unknown id or an expired confirmation, and leaves the expired one pending', async () => {
      await expect(store.claim('no-such-confirmation', { now: T0 })).resolves.toEqual({
        ok: false,
        reason: 'not-found',
      });
      const original = await created();
      const late = await store.claim(original.id, { now: T0 + HOUR, by: 'lead-2' });
      expect(late).toMatchObject({ ok: false, reason: 'expired', confirmation: { status: 'pending' } });
      expect((await store.get(original.id))?.status).toBe('pending');
    });

    it('finishes the claimed attempt as delivered with its result, and only that attempt', async () => {
      const original = await created();
      await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
      const wrongAttempt = await store.finish(original.id, { now: T0 + 2, attempt: 7, status: 'delivered' });
      expect(wrongAttempt).toMatchObject({ ok: false, reason: 'wrong-status' });
      const done = await store.finish(original.id, {
        now: T0 + 3,
        attempt: 1,
        status: 'delivered',
        resultJson: JSON.stringify({ messageId: 'm-1', n: null }),
      });
      expect(done).toMatchObject({
        ok: true,
        confirmation: { status: 'delivered', result: { messageId: 'm-1', n: null }, updatedAt: iso(T0 + 3) },
      });
      const again = await store.finish(original.id, {
        now: T0 + 4,
        attempt: 1,
        status: 'failed',
        error: 'x',
      });
      expect(again).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'delivered' },
      });
    });

    it('refuses to finish what is not being delivered, or as a status a delivery cannot end in', async () => {
      const original = await created();
      await expect(
        store.finish(original.id, { now: T0, attempt: 0, status: 'delivered' }),
      ).resolves.toMatchObject({
        ok: false,
        reason: 'wrong-status',
      });
      await expect(
        store.finish('no-such-confirmation', { now: T0, attempt: 1, status: 'failed' }),
      ).resolves.toEqual({
        ok: false,
        reason: 'not-found',
      });
      await store.claim(original.id, { now: T0 + 1 });
      await expect(
        store.finish(original.id, { now: T0 + 2, attempt: 1, status: 'pending' as never }),
      ).rejects.toBeInstanceOf(TypeError);
      expect((await store.get(original.id))?.status).toBe('delivering');
    });

    it('records a failure with its error, then lets a person retry (attempt 2) or mark it delivered', async () => {
      const a = await created();
      await store.claim(a.id, { now: T0 + 1, by: 'lead-2' });
      const failed = await store.finish(a.id, {
        now: T0 + 2,
        attempt: 1,
        status: 'failed',
        error: 'SMTP 550',
      });
      expect(failed).toMatchObject({ ok: true, confirmation: { status: 'failed', error: 'SMTP 550' } });
      expect(failed.ok && failed.confirmation.history.at(-1)).toMatchObject({
        status: 'failed',
        note: 'SMTP 550',
      });
      const retried = await store.reclaim(a.id, { now: T0 + 3, by: 'lead-3' });
      expect(retried).toMatchObject({ ok: true, confirmation: { status: 'delivering', attempt: 2 } });
      const stale = await store.finish(a.id, { now: T0 + 4, attempt: 1, status: 'delivered' });
      expect(stale).toMatchObject({ ok: false, reason: 'wrong-status' });
      const done = await store.finish(a.id, {
        now: T0 + 5,
        attempt: 2,
        status: 'delivered',
        resultJson: '"ok"',
      });
      expect(done.ok && done.confirmation).toMatchObject({ status: 'delivered', result: 'ok' });
      expect(done.ok && 'error' in done.confirmation).toBe(false);

      const b = await created();
      await store.claim(b.id, { now: T0 + 1 });
      await store.finish(b.id, { now: T0 + 2, attempt: 1, status: 'failed', error: 'boom' });
      const marked = await store.markDelivered(b.id, { now: T0 + 3, by: 'lead-2', note: 'customer got it' });
      expect(marked).toMatchObject({ ok: true, confirmation: { status: 'delivered', attempt: 1 } });
      expect(marked.ok && marked.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 3),
        status: 'delivered',
        by: 'lead-2',
        note: 'customer got it',
      });
    });

    it('neither retries nor marks delivered a pending or delivered confirmation', async () => {
      const original = await created();
      await expect(store.reclaim(original.id, { now: T0 + 1 })).resolves.toMatchObject({
        reason: 'wrong-status',
      });
      await expect(store.markDelivered(original.id, { now: T0 + 1, by: 'x' })).resolves.toMatchObject({
        reason: 'wrong-status',
      });
      await store.claim(original.id, { now: T0 + 1 });
      await store.finish(original.id, { now: T0 + 2, attempt: 1, status: 'delivered' });
      await expect(store.reclaim(original.id, { now: T0 + 3 })).resolves.toMatchObject({
        reason: 'wrong-status',
      });
      expect((await store.get(original.id))?.attempt).toBe(1);
    });

    it('rejects a pending confirmation with who and why, and nothing else', async () => {
      const original = await created();
      const rejected = await store.reject(original.id, { now: T0 + 5, by: 'lead-2', note: 'wrong customer' });
      expect(rejected).toMatchObject({ ok: true, confirmation: { status: 'rejected' } });
      expect(rejected.ok && rejected.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 5),
        status: 'rejected',
        by: 'lead-2',
        note: 'wrong customer',
      });
      await expect(store.claim(original.id, { now: T0 + 6 })).resolves.toMatchObject({
        reason: 'wrong-status',
      });
      await expect(store.reject(original.id, { now: T0 + 6, by: 'x' })).resolves.toMatchObject({
        reason: 'wrong-status',
      });
    });

    it('expires pending confirmations that are due, one by id or all, and only those', async () => {
      const due = await created({}, T0 - 2 * HOUR);
      const alsoDue = await created({}, T0 - 3 * HOUR);
      const fresh = await created({}, T0);
      const claimed = await created({}, T0 - 2 * HOUR);
      await store.claim(claimed.id, { now: T0 - 2 * HOUR + 1 });

      const one = await store.expire({ now: T0, id: due.id });
      expect(one.map((c) => c.id)).toEqual([due.id]);
      expect(one[0]).toMatchObject({ status: 'expired', updatedAt: iso(T0) });
      expect(await store.expire({ now: T0, id: fresh.id })).toEqual([]);

      const all = await store.expire({ now: T0 });
      const ids = all.map((c) => c.id);
      expect(ids).toContain(alsoDue.id);
      expect(ids).not.toContain(due.id);
      expect(ids).not.toContain(fresh.id);
      expect(ids).not.toContain(claimed.id);
      expect((await store.get(fresh.id))?.status).toBe('pending');
      expect((await store.get(claimed.id))?.status).toBe('delivering');
    });

    it('marks only deliveries started longer ago than the cut-off as unknown, with a note, never re-delivering', async () => {
      const old = await created({}, T0);
      const recent = await created({}, T0);
      const pending = await created({}, T0);
      await store.claim(old.id, { now: T0 + 1_000, by: 'lead-2' });
      await store.claim(recent.id, { now: T0 + 50_000, by: 'lead-2' });
      const changed = await store.recoverStale({ now: T0 + 61_000, olderThanMs: 30_000 });
      const ids = changed.map((c) => c.id);
      expect(ids).toContain(old.id);
      expect(ids).not.toContain(recent.id);
      expect(ids).not.toContain(pending.id);
      const unknown = await store.get(old.id);
      expect(unknown).toMatchObject({ status: 'unknown', attempt: 1 });
      expect(unknown?.error).toMatch(/may or may not have been delivered/);
      expect(unknown?.history.map((h) => h.status)).toEqual(['pending', 'delivering', 'unknown']);
      expect((await store.get(recent.id))?.status).toBe('delivering');
      expect(
        (await store.recoverStale({ now: T0 + 61_000, olderThanMs: 30_000 })).map((c) => c.id),
      ).not.toContain(old.id);
      // A delivery the caller says it is still running is never called stale.
      const running = await created({}, T0);
      await store.claim(running.id, { now: T0 + 1_000, by: 'lead-2' });
      const spared = await store.recoverStale({
        now: T0 + 61_000,
        olderThanMs: 30_000,
        running: [running.id],
      });
      expect(spared.map((c) => c.id)).not.toContain(running.id);
      expect((await store.get(running.id))?.status).toBe('delivering');
      // The attempt that was given up on finishes after all: the truth replaces "unknown".
      const late = await store.finish(old.id, {
        now: T0 + 62_000,
        attempt: 1,
        status: 'delivered',
        resultJson: '1',
      });
      expect(late).toMatchObject({ ok: true, confirmation: { status: 'delivered', result: 1 } });
      expect(late.ok && 'error' in late.confirmation).toBe(false);
    });

    it('lists newest first, filtered by status, tool and expiry, within the limit', async () => {
      const tool = `list.t${randomBytes(4).toString('hex')}`;
      const a = await created({ tool }, T0 + 10);
      const b = await created({ tool }, T0 + 20);
      const c = await created({ tool }, T0 + 30);
      const other = await created({ tool: `${tool}x` }, T0 + 40);
      await store.claim(b.id, { now: T0 + 31 });

      const all = (await store.list({ tool })).confirmations;
      expect(all.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
      const pending = (await store.list({ tool, status: 'pending' })).confirmations;
      expect(pending.map((x) => x.id)).toEqual([c.id, a.id]);
      expect((await store.list({ tool, limit: 1 })).confirmations.map((x) => x.id)).toEqual([c.id]);
      const live = (await store.list({ tool, status: 'pending', expiresAfter: T0 + 15 + HOUR }))
        .confirmations;
      expect(live.map((x) => x.id)).toEqual([c.id]);
      expect((await store.list({ tool: `${tool}x` })).confirmations.map((x) => x.id)).toEqual([other.id]);
      expect((await store.list({ tool: 'nobody.uses' })).confirmations).toEqual([]);
      expect((await store.list({ limit: 100_000 })).confirmations.length).toBeLessThanOrEqual(1_000);
    });

    it('prunes only finished confirmations last changed before the cut-off', async () => {
      const tool = `prune.t${randomBytes(4).toString('hex')}`;
      const delivered = await created({ tool }, T0 - 10 * HOUR);
      await store.claim(delivered.id, { now: T0 - 10 * HOUR + 1 });
      await store.finish(delivered.id, { now: T0 - 10 * HOUR + 2, attempt: 1, status: 'delivered' });
      const rejected = await created({ tool }, T0 - 10 * HOUR);
      await store.reject(rejected.id, { now: T0 - 10 * HOUR + 1, by: 'x' });
      const failed = await created({ tool }, T0 - 10 * HOUR);
      await store.claim(failed.id, { now: T0 - 10 * HOUR + 1 });
      await store.finish(failed.id, { now: T0 - 10 * HOUR + 2, attempt: 1, status: 'failed', error: 'x' });
      const oldPending = await created({ tool }, T0 - 10 * HOUR);
      const recentRejected = await created({ tool }, T0);
      await store.reject(recentRejected.id, { now: T0 + 1, by: 'x' });

      expect(await store.prune({ before: T0 - HOUR })).toBeGreaterThanOrEqual(2);
      expect(await store.get(delivered.id)).toBeUndefined();
      expect(await store.get(rejected.id)).toBeUndefined();
      expect((await store.get(failed.id))?.status).toBe('failed');
      expect((await store.get(oldPending.id))?.status).toBe('pending');
      expect((await store.get(recentRejected.id))?.status).toBe('rejected');
    });

    snapshotCases(() => store, created);
  });

  pageCases(name, open);
  editCases(name, open);
  linkCases(name, open);
  quorumCases(name, open);
  limitCases(name, open);
  escalationCases(name, open);
  heldCases(name, open);
  bundleCases(name, open);
  runCases(name, open);
  idempotencyCases(name, open);

  // The SQL engine's cases (issue 7): prune in batches, list by tool.
  describe(`ConfirmationStore contract, prune and list at volume: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(open, (opened) => {
      store = opened;
    });

    /** Runs `work` for 0 … count-1, a few at a time (a pool serves them side by side). */
    const each = async (count: number, work: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < count; i += 16) {
        await Promise.all(Array.from({ length: Math.min(16, count - i) }, (_, j) => work(i + j)));
      }
    };

    const created = async (tool: string, at: number) => {
      const confirmation = pendingConfirmation({ tool }, at);
      await store.create(confirmation);
      return confirmation;
    };

    it('prunes more finished confirmations than one batch holds, and keeps every open one', async () => {
      const tool = `prune.bulk${randomBytes(4).toString('hex')}`;
      const at = T0 - 100 * HOUR;
      // More than any sensible batch, so a store that deletes in batches must loop.
      const rejected: string[] = [];
      await each(1_100, async () => {
        const c = pendingConfirmation({ tool }, at);
        await store.create(c);
        await store.reject(c.id, { now: at + 1, by: 'x' });
        rejected.push(c.id);
      });
      const delivered = pendingConfirmation({ tool }, at);
      await store.create(delivered);
      await store.claim(delivered.id, { now: at + 1 });
      await store.finish(delivered.id, { now: at + 2, attempt: 1, status: 'delivered' });
      const expired = pendingConfirmation({ tool }, at - 2 * HOUR);
      await store.create(expired);
      await store.expire({ now: at, id: expired.id });
      const open: Confirmation[] = [];
      for (const status of ['pending', 'delivering', 'failed', 'unknown'] as const) {
        const c = pendingConfirmation({ tool }, at);
        await store.create(c);
        if (status !== 'pending') await store.claim(c.id, { now: at + 1 });
        if (status === 'failed' || status === 'unknown')
          await store.finish(c.id, { now: at + 2, attempt: 1, status, error: 'x' });
        open.push(c);
      }

      expect(await store.prune({ before: T0 - 50 * HOUR })).toBeGreaterThanOrEqual(1_102);
      const left = (await store.list({ tool })).confirmations;
      expect(left.map((c) => c.status).sort()).toEqual(['delivering', 'failed', 'pending', 'unknown']);
      expect(left.map((c) => c.id).sort()).toEqual(open.map((c) => c.id).sort());
      expect(await store.get(rejected[0] as string)).toBeUndefined();
      expect(await store.get(rejected.at(-1) as string)).toBeUndefined();
      expect(await store.get(delivered.id)).toBeUndefined();
      expect(await store.get(expired.id)).toBeUndefined();
      expect(await store.prune({ before: T0 - 50 * HOUR })).toBe(0);
    });

    it('lists one tool among many, newest first, whatever the others hold', async () => {
      const tool = `list.many${randomBytes(4).toString('hex')}`;
      await each(300, (i) => store.create(pendingConfirmation({ tool: `${tool}.other${i % 7}` }, T0 + i)));
      const mine = [
        await created(tool, T0 + 5),
        await created(tool, T0 + 150),
        await created(tool, T0 + 299),
      ];
      const listed = (await store.list({ tool })).confirmations;
      expect(listed.map((c) => c.id)).toEqual(mine.map((c) => c.id).reverse());
      expect(
        (await store.list({ tool, status: 'pending', limit: 2 })).confirmations.map((c) => c.id),
      ).toEqual(
        mine
          .map((c) => c.id)
          .reverse()
          .slice(0, 2),
      );
    });
  });
}

/** Where the page tests put their confirmations: hours no other case uses, one span per test. */
const PAGE_REGION = T0 + 10_000 * HOUR;
const SPAN = 100 * HOUR;
const regionOf = (k: number) => ({ from: PAGE_REGION + k * SPAN, to: PAGE_REGION + (k + 1) * SPAN });

/** Every page of `query` from `cursor` on, as id lists, and whether each page came with a cursor. */
async function walk(
  store: ConfirmationStore,
  query: ConfirmationQuery,
  until: (c: Confirmation) => boolean = () => false,
): Promise<{ pages: Confirmation[][]; cursors: (string | undefined)[] }> {
  const pages: Confirmation[][] = [];
  const cursors: (string | undefined)[] = [];
  let cursor = query.cursor;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await store.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    const kept = page.confirmations.filter((c) => !until(c));
    pages.push(kept);
    cursors.push(page.nextCursor);
    if (page.nextCursor === undefined || kept.length < page.confirmations.length) break;
    cursor = page.nextCursor;
  }
  return { pages, cursors };
}

/** Newest first, ties broken by creation order (the later created first). */
const newestFirst = (created: Confirmation[]) =>
  created
    .map((c, i) => ({ c, i }))
    .sort((a, b) => Date.parse(b.c.createdAt) - Date.parse(a.c.createdAt) || b.i - a.i)
    .map(({ c }) => c.id);

/** Keyset pages: every store walks its list the same way (issue 8). */
function pageCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, pages: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(open, (opened) => {
      store = opened;
    });

    const create = async (overrides: Partial<Confirmation>, at: number) => {
      const c = pendingConfirmation(overrides, at);
      await store.create(c);
      return c;
    };

    it('pages cover every match once, newest first, with filters and same-millisecond rows', async () => {
      const { from, to } = regionOf(0);
      const tool = `page.t${randomBytes(4).toString('hex')}`;
      const other = `${tool}.other`;
      const all: Confirmation[] = [];
      for (let i = 0; i < 30; i++) {
        // Three to a millisecond; some soon expiring, some claimed, some of another tool.
        const at = from + 1_000 + Math.floor(i / 3);
        const c = await create(
          { tool: i % 5 === 4 ? other : tool, expiresAt: iso(at + (i % 4 === 1 ? 60_000 : HOUR)) },
          at,
        );
        all.push(c);
      }
      const claimed = new Set<string>();
      for (const i of [2, 3, 10, 17, 29]) {
        const c = all[i] as Confirmation;
        expect((await store.claim(c.id, { now: from + 1_100 })).ok).toBe(true);
        claimed.add(c.id);
      }
      const isPending = (c: Confirmation) => !claimed.has(c.id);
      const soon = from + 1_000 + 10 + 60_000;
      const cases: { query: ConfirmationQuery; expected: Confirmation[]; bounded: boolean }[] = [
        { query: { tool }, expected: all.filter((c) => c.tool === tool), bounded: true },
        { query: { tool: other }, expected: all.filter((c) => c.tool === other), bounded: true },
        {
          query: { tool, status: 'pending' },
          expected: all.filter((c) => c.tool === tool && isPending(c)),
          bounded: true,
        },
        {
          query: { tool, status: 'pending', expiresAfter: soon },
          expected: all.filter((c) => c.tool === tool && isPending(c) && Date.parse(c.expiresAt) > soon),
          bounded: true,
        },
        { query: { status: 'delivering' }, expected: all.filter((c) => !isPending(c)), bounded: false },
        { query: { status: 'pending' }, expected: all.filter(isPending), bounded: false },
        { query: {}, expected: all, bounded: false },
      ];
      // Unfiltered lists hold other cases' rows too: start just above this case's span, stop below it.
      const top = encodeCursor({ createdAt: to, order: '0' });
      const below = (c: Confirmation) => Date.parse(c.createdAt) < from;
      for (const { query, expected, bounded } of cases) {
        for (const limit of [1, 2, 3, 7, 100]) {
          const q = bounded ? { ...query, limit } : { ...query, limit, cursor: top };
          const { pages, cursors } = await walk(store, q, bounded ? undefined : below);
          const ids = pages.flat().map((c) => c.id);
          expect(ids, `${JSON.stringify(query)} limit ${limit}`).toEqual(newestFirst(expected));
          for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
          if (bounded) {
            // limit + 1 read: no empty page at the end, and only the last page lacks a cursor.
            expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
            expect(cursors.at(-1)).toBeUndefined();
            expect(cursors.slice(0, -1).every((c) => typeof c === 'string')).toBe(true);
          }
        }
      }
    });

    it('a confirmation created or decided between pages neither shifts nor repeats a page', async () => {
      const { from } = regionOf(1);
      const tool = `page.live${randomBytes(4).toString('hex')}`;
      const first: Confirmation[] = [];
      for (let i = 0; i < 12; i++) first.push(await create({ tool }, from + 1_000 + Math.floor(i / 2)));
      const order = newestFirst(first);
      const page1 = await store.list({ tool, status: 'pending', limit: 4 });
      expect(page1.confirmations.map((c) => c.id)).toEqual(order.slice(0, 4));
      // Meanwhile: newer ones, one in the same millisecond as the page's last (made later, so newer
      // than it), one older than all; and one on the next page is confirmed.
      const last = page1.confirmations.at(-1) as Confirmation;
      const newer = [
        await create({ tool }, from + 2_000),
        await create({ tool }, Date.parse(last.createdAt)),
      ];
      const older = await create({ tool }, from + 10);
      const decided = order[5] as string;
      expect((await store.claim(decided, { now: from + 1_050 })).ok).toBe(true);

      const rest = await walk(store, {
        tool,
        status: 'pending',
        limit: 4,
        cursor: page1.nextCursor as string,
      });
      const seen = rest.pages.flat().map((c) => c.id);
      expect(seen).toEqual([...order.slice(4).filter((id) => id !== decided), older.id]);
      expect(seen.some((id) => newer.some((c) => c.id === id))).toBe(false);
      // A fresh first page shows what came meanwhile.
      const fresh = await store.list({ tool, status: 'pending', limit: 2 });
      expect(fresh.confirmations.map((c) => c.id)).toEqual([newer[0]?.id, order[0]]);
      expect(fresh.nextCursor).toBeDefined();
    });

    it('clamps the limit and starts from the top for a cursor past every position', async () => {
      const { from } = regionOf(2);
      const tool = `page.clamp${randomBytes(4).toString('hex')}`;
      const made: Confirmation[] = [];
      for (let i = 0; i < 3; i++) made.push(await create({ tool }, from + i));
      const order = newestFirst(made);
      const zero = await store.list({ tool, limit: 0 });
      expect(zero.confirmations.map((c) => c.id)).toEqual(order.slice(0, 1));
      expect(zero.nextCursor).toBeDefined();
      expect((await store.list({ tool, limit: -4 })).confirmations).toHaveLength(1);
      expect((await store.list({ tool, limit: 2.9 })).confirmations.map((c) => c.id)).toEqual(
        order.slice(0, 2),
      );
      const unbounded = await store.list({ tool, limit: Number.NaN });
      expect(unbounded.confirmations.map((c) => c.id)).toEqual(order);
      expect(unbounded.nextCursor).toBeUndefined();
      const past = encodeCursor({ createdAt: Number.MAX_SAFE_INTEGER, order: '99999999999999999999' });
      expect((await store.list({ tool, cursor: past })).confirmations.map((c) => c.id)).toEqual(order);
      const floor = encodeCursor({ createdAt: 0, order: '0' });
      expect(await store.list({ tool, cursor: floor })).toEqual({ confirmations: [] });
    });

    it('refuses a cursor no store made (the registry refuses it first)', async () => {
      await expect(store.list({ cursor: 'not a cursor' })).rejects.toThrow();
    });

    it('pages more than the most one list returns', async () => {
      const { from } = regionOf(3);
      const tool = `page.max${randomBytes(4).toString('hex')}`;
      for (let i = 0; i < 1_001; i += 13) {
        await Promise.all(
          Array.from({ length: Math.min(13, 1_001 - i) }, (_, j) =>
            create({ tool }, from + Math.floor((i + j) / 10)),
          ),
        );
      }
      const page = await store.list({ tool, limit: 100_000 });
      expect(page.confirmations).toHaveLength(1_000);
      const next = await store.list({ tool, limit: 100_000, cursor: page.nextCursor as string });
      expect(next.confirmations).toHaveLength(1);
      expect(next.nextCursor).toBeUndefined();
      const ids = new Set([...page.confirmations, ...next.confirmations].map((c) => c.id));
      expect(ids.size).toBe(1_001);
    });
  });
}

/** A person's edit, as the registry would make it from `original`'s payload. */
function editOf(
  original: Confirmation,
  payload: Record<string, unknown>,
  fromDigest = original.digest,
): PayloadEdit {
  const before = original.payload as Record<string, unknown>;
  return {
    payload,
    payloadJson: JSON.stringify(payload),
    digest: payloadDigest(original.tool, payload),
    fromDigest,
    fields: Object.keys(payload).filter((k) => JSON.stringify(payload[k]) !== JSON.stringify(before[k])),
  };
}

/** A claim that stores a person's edit, in the same conditional write (issue 8). */
function editCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, reminders: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'reminders',
    );

    // A window of time no other test (or earlier run on a shared database) uses.
    const base = T0 + (1_000 + Math.floor(Math.random() * 1_000_000)) * HOUR;
    const remindDue = (change: { now: number; within: number }) => {
      if (store.remindDue === undefined) throw new Error(`${name} has no remindDue`);
      return store.remindDue(change);
    };
    const createdExpiring = async (expiresAt: number, overrides: Partial<Confirmation> = {}) => {
      const c = pendingConfirmation({ expiresAt: iso(expiresAt), ...overrides }, expiresAt - HOUR);
      await store.create(c);
      return c;
    };

    it('hands out each pending one that expires within the window once, and nothing else', async () => {
      const now = base;
      const soon = await createdExpiring(now + 5 * 60_000);
      const later = await createdExpiring(now + 50 * 60_000);
      const gone = await createdExpiring(now - 1);
      const decided = await createdExpiring(now + 6 * 60_000);
      await store.reject(decided.id, { now, by: 'lead-2' });
      const first = await remindDue({ now, within: 10 * 60_000 });
      expect(first.map((c) => c.id)).toEqual([soon.id]);
      expect(first[0]).toMatchObject({ status: 'pending', payload: soon.payload });
      expect(await remindDue({ now, within: 10 * 60_000 })).toEqual([]);
      const next = await remindDue({ now: now + 45 * 60_000, within: 10 * 60_000 });
      expect(next.map((c) => c.id)).toEqual([later.id]);
      expect([gone.id, decided.id].some((id) => next.some((c) => c.id === id))).toBe(false);
    });

    it('of any number of concurrent sweeps, exactly one gets each reminder', async () => {
      const now = base + 100 * HOUR;
      const due = await Promise.all([1, 2, 3, 4, 5, 6].map((m) => createdExpiring(now + m * 60_000)));
      const sweeps = await Promise.all([1, 2, 3, 4, 5].map(() => remindDue({ now, within: 10 * 60_000 })));
      const handedOut = sweeps.flat().map((c) => c.id);
      expect(handedOut.sort()).toEqual(due.map((c) => c.id).sort());
    });
  });

  describe(`ConfirmationStore contract, edits: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(open, (opened) => {
      store = opened;
    });

    const created = async (overrides: Partial<Confirmation> = {}) => {
      const c = pendingConfirmation(overrides);
      await store.create(c);
      return c;
    };

    it('stores the edited payload and digest with the claim, and records the edit in its history', async () => {
      const original = await created();
      const edit = editOf(original, {
        to: 'ana@example.com',
        text: 'Your refund — 中文 🎉 — is on its way.',
      });
      const won = await store.claim(original.id, { now: T0 + 1_000, by: 'lead-2', edit });
      expect(won).toMatchObject({
        ok: true,
        confirmation: { status: 'delivering', attempt: 1, payload: edit.payload, digest: edit.digest },
      });
      const entry = { at: iso(T0 + 1_000), status: 'delivering', by: 'lead-2' };
      const edited = {
        ...entry,
        edit: { fromDigest: original.digest, toDigest: edit.digest, fields: ['text'] },
      };
      expect(won.ok && won.confirmation.history.at(-1)).toEqual(edited);
      const read = await store.get(original.id);
      expect(read).toEqual(won.ok && won.confirmation);
      expect(payloadDigest(original.tool, read?.payload)).toBe(edit.digest);
      // The edited one is what is finished, and what stays.
      const done = await store.finish(original.id, { now: T0 + 2_000, attempt: 1, status: 'delivered' });
      expect(done.ok && done.confirmation).toMatchObject({ payload: edit.payload, digest: edit.digest });
      expect((await store.get(original.id))?.history.map((h) => h.edit?.toDigest)).toEqual([
        undefined,
        edit.digest,
        undefined,
      ]);
    });

    it('keeps an edited payload exactly, an own "__proto__" key included', async () => {
      const original = await created();
      const payload = JSON.parse(
        '{"__proto__":{"admin":true},"to":"li@example.com","text":"x\\u0000y"}',
      ) as Record<string, unknown>;
      const edit = editOf(original, payload);
      expect((await store.claim(original.id, { now: T0 + 1, edit })).ok).toBe(true);
      const read = (await store.get(original.id))?.payload as Record<string, unknown>;
      expect(Object.hasOwn(read, '__proto__')).toBe(true);
      expect(payloadDigest(original.tool, read)).toBe(edit.digest);
    });

    it('refuses an edit of a payload that is no longer the one shown, changing nothing', async () => {
      const original = await created();
      await store.get(original.id); // remembered, where a store remembers rows
      const stale = editOf(original, { to: 'mallory@example.com', text: 'x' }, 'f'.repeat(64));
      const refused = await store.claim(original.id, { now: T0 + 1, by: 'lead-2', edit: stale });
      expect(refused).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'pending' },
      });
      expect(await store.get(original.id)).toEqual(original);
      // Even when it is also expired: the payload changed is what the person is told.
      const late = await store.claim(original.id, { now: T0 + 2 * HOUR, edit: stale });
      expect(late).toMatchObject({ ok: false, reason: 'wrong-status' });
      const expiredEdit = editOf(original, { to: 'ana@example.com', text: 'late' });
      const expired = await store.claim(original.id, { now: T0 + 2 * HOUR, edit: expiredEdit });
      expect(expired).toMatchObject({
        ok: false,
        reason: 'expired',
        confirmation: { digest: original.digest },
      });
      expect(await store.get(original.id)).toEqual(original);
    });

    it("an edited claim loses like any claim: one winner, and the stored payload is the winner's", async () => {
      const original = await created();
      const edits = Array.from({ length: 6 }, (_, i) =>
        editOf(original, { to: 'ana@example.com', text: `version ${i}` }),
      );
      const outcomes = await Promise.all([
        ...edits.map((edit, i) => store.claim(original.id, { now: T0 + 1, by: `p${i}`, edit })),
        store.claim(original.id, { now: T0 + 1, by: 'plain' }),
      ]);
      const winners = outcomes.filter((o) => o.ok);
      expect(winners).toHaveLength(1);
      const stored = await store.get(original.id);
      const winner = winners[0]?.ok ? winners[0].confirmation : undefined;
      expect(stored).toEqual(winner);
      expect(stored?.history).toHaveLength(2);
      const by = stored?.history.at(-1)?.by;
      if (by === 'plain')
        expect(stored).toMatchObject({ payload: original.payload, digest: original.digest });
      else expect(stored?.payload).toEqual(edits[Number(by?.slice(1))]?.payload);
      // An edit of what is already being delivered is refused with the record as it is.
      const again = await store.claim(original.id, { now: T0 + 2, edit: editOf(original, { text: 'z' }) });
      expect(again).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'delivering' },
      });
    });
  });
}

/** Records handed out by `list` and by every change are snapshots too, at any depth. */
function snapshotCases(
  storeOf: () => ConfirmationStore,
  created: (overrides?: Partial<Confirmation>, at?: number) => Promise<Confirmation>,
): void {
  it('hands out snapshots from list and from every change: changing one changes nothing stored', async () => {
    const store = storeOf();
    const tool = `snap.t${randomBytes(4).toString('hex')}`;
    const payload = { to: 'ana@example.com', deep: { list: [{ n: 1 }] } };
    const original = await created({ tool, payload, input: { deep: { text: 'hi' } } });
    const tamper = (record: Confirmation | undefined) => {
      const r = record as unknown as {
        payload: { deep: { list: { n: number }[] } };
        input: { deep: { text: string } };
        history: unknown[];
        status: string;
      };
      for (const change of [
        () => {
          r.payload.deep.list[0] = { n: 2 };
        },
        () => {
          r.input.deep.text = 'changed';
        },
        () => r.history.push({ at: 'x', status: 'pending' }),
        () => {
          r.status = 'delivered';
        },
      ]) {
        try {
          change();
        } catch {
          // Frozen: refused outright, just as good.
        }
      }
    };
    for (const record of (await store.list({ tool })).confirmations) tamper(record);
    const claimed = await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
    if (claimed.ok) tamper(claimed.confirmation);
    const read = await store.get(original.id);
    expect(read).toMatchObject({ status: 'delivering', payload, input: { deep: { text: 'hi' } } });
    expect(read?.history).toHaveLength(2);
  });
}

/** One-time approval links: kept by token hash, used once, pruned after they expire (issue 9). */
function linkCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, approval links: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'links',
    );

    const links = () => {
      const { saveLink, findLink, useLink } = store;
      if (saveLink === undefined || findLink === undefined || useLink === undefined)
        throw new Error(`${name} keeps no approval links`);
      return {
        save: saveLink.bind(store),
        find: findLink.bind(store),
        use: useLink.bind(store),
      };
    };
    const linkRecord = (overrides: Partial<ApprovalLinkRecord> = {}): ApprovalLinkRecord => ({
      tokenHash: randomBytes(32).toString('hex'),
      confirmationId: randomBytes(16).toString('base64url'),
      digest: 'a'.repeat(64),
      approver: { id: 'lead-2', name: 'Li 李', flags: { outbound: true, beta: false }, scope: 'desk' },
      createdAt: T0 + 123,
      expiresAt: T0 + HOUR + 456,
      ...overrides,
    });

    it('finds a saved link by its hash, exactly as saved, and nothing by another hash', async () => {
      const link = linkRecord();
      await links().save(link);
      expect(await links().find(link.tokenHash)).toEqual(link);
      expect(await links().find(randomBytes(32).toString('hex'))).toBeUndefined();
    });

    it('refuses a second link with the same hash', async () => {
      const link = linkRecord();
      await links().save(link);
      await expect(links().save({ ...link, confirmationId: 'someone-else' })).rejects.toThrow();
      expect((await links().find(link.tokenHash))?.confirmationId).toBe(link.confirmationId);
    });

    it('uses a link once, records when, and never after it expires', async () => {
      const link = linkRecord();
      await links().save(link);
      expect(await links().use(link.tokenHash, { now: T0 + 1_000 })).toBe(true);
      expect(await links().use(link.tokenHash, { now: T0 + 2_000 })).toBe(false);
      expect(await links().find(link.tokenHash)).toEqual({ ...link, usedAt: T0 + 1_000 });
      const late = linkRecord();
      await links().save(late);
      expect(await links().use(late.tokenHash, { now: late.expiresAt })).toBe(false);
      expect((await links().find(late.tokenHash))?.usedAt).toBeUndefined();
      expect(await links().use(randomBytes(32).toString('hex'), { now: T0 })).toBe(false);
    });

    it('of any number of concurrent uses, exactly one wins', async () => {
      const link = linkRecord();
      await links().save(link);
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => links().use(link.tokenHash, { now: T0 + 1_000 + i })),
      );
      expect(uses.filter(Boolean)).toHaveLength(1);
    });

    it('a claim or reject through a link decides only while the link is live, and spends it in the same write', async () => {
      const claimed = pendingConfirmation({}, T0);
      const rejected = pendingConfirmation({}, T0);
      await store.create(claimed);
      await store.create(rejected);
      const forClaim = linkRecord({ confirmationId: claimed.id });
      const forReject = linkRecord({ confirmationId: rejected.id });
      const foreign = linkRecord({ confirmationId: rejected.id });
      await links().save(forClaim);
      await links().save(forReject);
      await links().save(foreign);
      const link = (l: ApprovalLinkRecord) => ({ tokenHash: l.tokenHash });
      // Another confirmation's link, an unknown one, a used one: refused, nothing changes.
      expect(
        await store.claim(claimed.id, { now: T0 + 1_000, by: 'lead-2', link: link(foreign) }),
      ).toMatchObject({
        ok: false,
        reason: 'link-refused',
        confirmation: { status: 'pending' },
      });
      const unknownLink = { tokenHash: randomBytes(32).toString('hex') };
      expect(
        await store.claim(claimed.id, { now: T0 + 1_000, by: 'lead-2', link: unknownLink }),
      ).toMatchObject({
        ok: false,
        reason: 'link-refused',
      });
      expect(
        await store.claim(claimed.id, { now: T0 + 2_000, by: 'lead-2', link: link(forClaim) }),
      ).toMatchObject({
        ok: true,
        confirmation: { status: 'delivering', attempt: 1 },
      });
      expect((await links().find(forClaim.tokenHash))?.usedAt).toBe(T0 + 2_000);
      expect((await links().find(foreign.tokenHash))?.usedAt).toBeUndefined();
      // Expired: refused, unspent.
      expect(
        await store.reject(rejected.id, { now: forReject.expiresAt, by: 'lead-2', link: link(forReject) }),
      ).toMatchObject({ ok: false, reason: 'link-refused', confirmation: { status: 'pending' } });
      expect((await links().find(forReject.tokenHash))?.usedAt).toBeUndefined();
      expect(
        await store.reject(rejected.id, { now: T0 + 3_000, by: 'lead-2', link: link(forReject) }),
      ).toMatchObject({ ok: true, confirmation: { status: 'rejected' } });
      expect((await links().find(forReject.tokenHash))?.usedAt).toBe(T0 + 3_000);
    });

    it('of concurrent claims through one link, exactly one wins', async () => {
      const confirmation = pendingConfirmation({}, T0);
      await store.create(confirmation);
      const l = linkRecord({ confirmationId: confirmation.id });
      await links().save(l);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.claim(confirmation.id, {
            now: T0 + 1_000 + i,
            by: 'lead-2',
            link: { tokenHash: l.tokenHash },
          }),
        ),
      );
      expect(claims.filter((c) => c.ok)).toHaveLength(1);
    });

    it('prune forgets links that expired before its cutoff, and keeps the rest', async () => {
      const old = linkRecord({ expiresAt: T0 - 10 * HOUR });
      const open = linkRecord({ expiresAt: T0 + 10 * HOUR });
      await links().save(old);
      await links().save(open);
      await store.prune({ before: T0 - HOUR });
      expect(await links().find(old.tokenHash)).toBeUndefined();
      expect(await links().find(open.tokenHash)).toEqual(open);
    });
  });
}
