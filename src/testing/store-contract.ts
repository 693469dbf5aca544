import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payloadDigest } from '../confirm/digest.js';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore } from '../stores/store.js';
import { HOUR, iso, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';
import { bundleCases } from './store-contract-bundles.js';
import { editCases } from './store-contract-edits.js';
import { escalationCases } from './store-contract-escalation.js';
import { heldCases } from './store-contract-held.js';
import { idempotencyCases } from './store-contract-idempotency.js';
import { linkCases } from './store-contract-links.js';
import { pageCases } from './store-contract-pages.js';
import { passkeyCases } from './store-contract-passkeys.js';
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
  passkeyCases(name, open);
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
