import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payloadDigest } from '../confirm/digest.js';
import type { Confirmation, ConfirmationApproval } from '../confirmation.js';
import type {
  ApprovalLinkRecord,
  ApproveChange,
  ConfirmationStore,
  LimitSpend,
  PayloadEdit,
} from '../stores/store.js';
import { hasCapability } from '../stores/store-capabilities.js';
import { pendingConfirmation, type StoreUnderTest, usesStore } from './contract-setup.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Three approvals from finance, as the registry would record them at create. */
const requires = { approvals: 3, approverFlags: ['finance'], rules: ['#1', 'big refunds'] };

/** One approval of `record`'s current payload by `by` at `at`. */
const approvalOf = (record: Confirmation, by: string, at = T0 + 1): ConfirmationApproval => ({
  by,
  at: iso(at),
  digest: record.digest,
});

/** A store method the three stores have, or a failure naming the one that lacks it. */
function required<K extends keyof ConfirmationStore>(
  store: ConfirmationStore,
  name: string,
  method: K,
): NonNullable<ConfirmationStore[K]> {
  const found = store[method];
  if (typeof found !== 'function') throw new Error(`${name} has no ${String(method)}`);
  return found.bind(store) as NonNullable<ConfirmationStore[K]>;
}

/** A person's edit of `original`'s payload, as the registry would make it. */
function editOf(original: Confirmation, text: string, fromDigest = original.digest): PayloadEdit {
  const payload = { ...(original.payload as Record<string, unknown>), text };
  return {
    payload,
    payloadJson: JSON.stringify(payload),
    digest: payloadDigest(original.tool, payload),
    fromDigest,
    fields: ['text'],
  };
}

/** Approvals short of a quorum and the claim that completes one: compare-and-set on the approvals. */
export function quorumCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, approvals: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'quorum',
    );

    const created = async (overrides: Partial<Confirmation> = {}) => {
      const c = pendingConfirmation({ requires, ...overrides });
      await store.create(c);
      return c;
    };
    const approve = (id: string, change: ApproveChange) => required(store, name, 'approve')(id, change);
    /** The approval of `by` added to those `record` holds, one of three. */
    const nextOf = (record: Confirmation, by: string, now = T0 + 1): ApproveChange => {
      const expected = record.approvals ?? [];
      const next = [...expected, approvalOf(record, by, now)];
      return { now, by, quorum: { expected, next }, approval: { count: next.length, needed: 3 } };
    };

    it('keeps what the rules required and the approvals so far, and leaves them out when absent', async () => {
      const tool = `quorum.t${randomBytes(4).toString('hex')}`;
      const approvals = [{ by: 'li 李', at: iso(T0), digest: 'a'.repeat(64) }];
      const original = await created({ tool, approvals });
      expect(await store.get(original.id)).toEqual(original);
      const listed = (await store.list({ tool })).confirmations;
      expect(listed).toEqual([original]);
      const claimed = await store.claim(original.id, { now: T0 + 1, by: 'lead-2' });
      expect(claimed).toMatchObject({ ok: true, confirmation: { requires, approvals } });
      const { requires: _r, ...bare } = pendingConfirmation();
      await store.create(bare);
      const read = await store.get(bare.id);
      expect(read).toEqual(bare);
      expect(read && ('requires' in read || 'approvals' in read)).toBe(false);
    });

    it('records an approval short of the quorum: still pending, the approvals grown, the count in the history', async () => {
      const original = await created();
      const first = await approve(original.id, nextOf(original, 'li', T0 + 1_000));
      expect(first).toMatchObject({
        ok: true,
        confirmation: { status: 'pending', attempt: 0, updatedAt: iso(T0 + 1_000), requires },
      });
      if (!first.ok) return;
      expect(first.confirmation.approvals).toEqual([approvalOf(original, 'li', T0 + 1_000)]);
      expect(first.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 1_000),
        status: 'pending',
        by: 'li',
        approval: { count: 1, needed: 3 },
      });
      expect(await store.get(original.id)).toEqual(first.confirmation);
      const second = await approve(original.id, nextOf(first.confirmation, 'ana', T0 + 2_000));
      expect(second.ok && second.confirmation.approvals?.map((a) => a.by)).toEqual(['li', 'ana']);
      expect(second.ok && second.confirmation.history.at(-1)?.approval).toEqual({ count: 2, needed: 3 });
      // Still pending and in the pending list, in its place.
      const pending = (await store.list({ status: 'pending', tool: original.tool, limit: 1000 }))
        .confirmations;
      expect(pending.some((c) => c.id === original.id)).toBe(true);
    });

    it('refuses an approval over approvals that changed since they were read, changing nothing', async () => {
      const original = await created();
      const first = await approve(original.id, nextOf(original, 'li'));
      expect(first.ok).toBe(true);
      const stale = await approve(original.id, nextOf(original, 'ana'));
      expect(stale).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'pending', approvals: [{ by: 'li' }] },
      });
      expect(await store.get(original.id)).toEqual(first.ok && first.confirmation);
      // Also when they differ only in when, or in the digest approved.
      const read = (await store.get(original.id)) as Confirmation;
      const [li] = read.approvals ?? [];
      for (const changed of [
        { ...li, at: iso(T0 + 5) },
        { ...li, digest: 'f'.repeat(64) },
      ]) {
        const expected = [changed as ConfirmationApproval];
        const change = { ...nextOf(read, 'ana'), quorum: { expected, next: [...expected] } };
        expect(await approve(original.id, change)).toMatchObject({ ok: false, reason: 'wrong-status' });
      }
      expect((await store.get(original.id))?.history).toHaveLength(2);
    });

    it('refuses an approval of an unknown id, an expired one, or one no longer pending', async () => {
      await expect(approve('no-such-confirmation', nextOf(pendingConfirmation(), 'li'))).resolves.toEqual({
        ok: false,
        reason: 'not-found',
      });
      const late = await created();
      expect(await approve(late.id, nextOf(late, 'li', T0 + HOUR))).toMatchObject({
        ok: false,
        reason: 'expired',
        confirmation: { status: 'pending' },
      });
      expect(await store.get(late.id)).toEqual(late);
      const rejected = await created();
      await store.reject(rejected.id, { now: T0 + 1, by: 'lead-2' });
      expect(await approve(rejected.id, nextOf(rejected, 'li', T0 + 2))).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'rejected' },
      });
    });

    it('stores an edit with the approval only over the digest shown, and records both', async () => {
      const original = await created();
      const stale = editOf(original, 'stale', 'f'.repeat(64));
      expect(await approve(original.id, { ...nextOf(original, 'li'), edit: stale })).toMatchObject({
        ok: false,
        reason: 'wrong-status',
      });
      expect(await store.get(original.id)).toEqual(original);
      const edit = editOf(original, 'Edited — 中文 🎉');
      const change = nextOf({ ...original, digest: edit.digest }, 'li', T0 + 3);
      const approved = await approve(original.id, { ...change, edit });
      expect(approved).toMatchObject({
        ok: true,
        confirmation: { status: 'pending', payload: edit.payload, digest: edit.digest },
      });
      expect(approved.ok && approved.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 3),
        status: 'pending',
        by: 'li',
        approval: { count: 1, needed: 3 },
        edit: { fromDigest: original.digest, toDigest: edit.digest, fields: ['text'] },
      });
      expect(await store.get(original.id)).toEqual(approved.ok && approved.confirmation);
      // The same edit again: the digest shown is no longer the stored one.
      const again = await approve(original.id, { ...nextOf(original, 'ana'), edit });
      expect(again).toMatchObject({ ok: false, reason: 'wrong-status' });
    });

    it('of concurrent approvals over the same approvals, exactly one is recorded', async () => {
      const original = await created();
      const outcomes = await Promise.all(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((by) => approve(original.id, nextOf(original, by))),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      const read = await store.get(original.id);
      expect(read?.approvals).toHaveLength(1);
      expect(read?.history).toHaveLength(2);
    });

    it('claims to complete a quorum only over the approvals read, storing the completed ones', async () => {
      const original = await created();
      const one = await approve(original.id, nextOf(original, 'li'));
      const two = one.ok ? await approve(original.id, nextOf(one.confirmation, 'ana', T0 + 2)) : one;
      if (!two.ok) throw new Error('two approvals were not recorded');
      const read = two.confirmation;
      const completing = nextOf(read, 'wu', T0 + 3).quorum;
      // Read before the second approval: refused, still pending.
      const staleQuorum = nextOf(one.ok ? one.confirmation : read, 'wu', T0 + 3).quorum;
      expect(await store.claim(original.id, { now: T0 + 3, by: 'wu', quorum: staleQuorum })).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'pending' },
      });
      expect(await store.get(original.id)).toEqual(read);
      const won = await store.claim(original.id, { now: T0 + 4, by: 'wu', quorum: completing });
      expect(won).toMatchObject({ ok: true, confirmation: { status: 'delivering', attempt: 1 } });
      expect(won.ok && won.confirmation.approvals).toEqual(completing.next);
      expect(await store.get(original.id)).toEqual(won.ok && won.confirmation);
      expect(await store.claim(original.id, { now: T0 + 5, by: 'x', quorum: completing })).toMatchObject({
        ok: false,
        reason: 'wrong-status',
      });
    });

    it('a quorum claim with an edit checks both, and stores both', async () => {
      const original = await created({ approvals: [approvalOf(pendingConfirmation(), 'li')] });
      const quorum = nextOf(original, 'ana').quorum;
      const edit = editOf(original, 'edited at the last approval');
      const staleEdit = editOf(original, 'x', 'f'.repeat(64));
      expect(await store.claim(original.id, { now: T0 + 1, quorum, edit: staleEdit })).toMatchObject({
        ok: false,
        reason: 'wrong-status',
      });
      const won = await store.claim(original.id, { now: T0 + 2, by: 'ana', quorum, edit });
      expect(won).toMatchObject({
        ok: true,
        confirmation: { status: 'delivering', digest: edit.digest, approvals: quorum.next },
      });
      expect(won.ok && won.confirmation.history.at(-1)?.edit?.toDigest).toBe(edit.digest);
    });

    it('a quorum claim or an approval through a link spends it in the same write, only over the approvals read', async ({
      skip,
    }) => {
      if (!hasCapability(store, 'links')) {
        const why = 'this store has no links capability, so a decision through a link does not apply';
        console.warn(`[graded-tools/testing] skipping: ${why}`);
        return skip(why);
      }
      const { saveLink, findLink } = {
        saveLink: required(store, name, 'saveLink'),
        findLink: required(store, name, 'findLink'),
      };
      const original = await created();
      const link = (): ApprovalLinkRecord => ({
        tokenHash: randomBytes(32).toString('hex'),
        confirmationId: original.id,
        digest: original.digest,
        approver: { id: 'li' },
        createdAt: T0,
        expiresAt: T0 + HOUR,
      });
      const forApproval = link();
      const forClaim = link();
      await saveLink(forApproval);
      await saveLink(forClaim);
      const approved = await approve(original.id, {
        ...nextOf(original, 'li', T0 + 10),
        link: { tokenHash: forApproval.tokenHash },
      });
      expect(approved).toMatchObject({ ok: true, confirmation: { status: 'pending' } });
      expect((await findLink(forApproval.tokenHash))?.usedAt).toBe(T0 + 10);
      if (!approved.ok) return;
      // Over the approvals before that one: refused as changed (not as a bad link), the link unspent.
      const stale = nextOf(original, 'ana', T0 + 20).quorum;
      const refused = await store.claim(original.id, {
        now: T0 + 20,
        quorum: stale,
        link: { tokenHash: forClaim.tokenHash },
      });
      expect(refused).toMatchObject({ ok: false, reason: 'wrong-status' });
      expect((await findLink(forClaim.tokenHash))?.usedAt).toBeUndefined();
      const spent = await store.claim(original.id, {
        now: T0 + 30,
        by: 'ana',
        quorum: nextOf(approved.confirmation, 'ana', T0 + 30).quorum,
        link: { tokenHash: forApproval.tokenHash },
      });
      expect(spent).toMatchObject({ ok: false, reason: 'link-refused' });
      const won = await store.claim(original.id, {
        now: T0 + 40,
        by: 'ana',
        quorum: nextOf(approved.confirmation, 'ana', T0 + 40).quorum,
        link: { tokenHash: forClaim.tokenHash },
      });
      expect(won).toMatchObject({ ok: true, confirmation: { status: 'delivering' } });
      expect((await findLink(forClaim.tokenHash))?.usedAt).toBe(T0 + 40);
    });

    it('of concurrent approvals and quorum claims over the same approvals, exactly one wins', async () => {
      const original = await created({ approvals: [approvalOf(pendingConfirmation(), 'li')] });
      const outcomes = await Promise.all([
        ...['a', 'b', 'c'].map((by) =>
          store.claim(original.id, { now: T0 + 1, by, quorum: nextOf(original, by).quorum }),
        ),
        ...['d', 'e', 'f'].map((by) => approve(original.id, nextOf(original, by))),
      ]);
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect((await store.get(original.id))?.history).toHaveLength(2);
    });
  });
}

/** Limit counters: one conditional write per spend, never past `max` (issue 17). */
export function limitCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, limits: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'limits',
    );

    const spend = (s: LimitSpend) => required(store, name, 'spendLimit')(s);
    const peek = (key: string, windowStart: number) => required(store, name, 'peekLimit')(key, windowStart);
    const refund = (s: Pick<LimitSpend, 'key' | 'windowStart' | 'amount'>) =>
      required(store, name, 'refundLimit')(s);
    /** A counter no other case (or earlier run on a shared database) uses, in the hour from T0. */
    const counter = (max: number, amount = 1) => ({
      key: `limit:${randomBytes(6).toString('hex')}`,
      windowStart: T0,
      windowEnd: T0 + HOUR,
      amount,
      max,
    });

    it('spends up to max, then refuses and leaves the counter where it stands', async () => {
      const c = counter(3);
      expect(await peek(c.key, c.windowStart)).toBe(0);
      for (const used of [1, 2, 3]) expect(await spend(c)).toEqual({ ok: true, used });
      expect(await spend(c)).toEqual({ ok: false, used: 3 });
      expect(await spend({ ...c, amount: 0 })).toEqual({ ok: true, used: 3 });
      expect(await peek(c.key, c.windowStart)).toBe(3);
    });

    it('refuses an amount over max on a fresh counter, and one that would pass max on a used one', async () => {
      const c = counter(100, 150);
      expect(await spend(c)).toEqual({ ok: false, used: 0 });
      expect(await peek(c.key, c.windowStart)).toBe(0);
      expect(await spend({ ...c, amount: 60 })).toEqual({ ok: true, used: 60 });
      expect(await spend({ ...c, amount: 41 })).toEqual({ ok: false, used: 60 });
      expect(await spend({ ...c, amount: 40 })).toEqual({ ok: true, used: 100 });
    });

    it('counts without refusing under an Infinity max', async () => {
      const c = counter(Number.POSITIVE_INFINITY, 1e12);
      expect(await spend(c)).toEqual({ ok: true, used: 1e12 });
      expect(await spend(c)).toEqual({ ok: true, used: 2e12 });
      expect(await peek(c.key, c.windowStart)).toBe(2e12);
    });

    it('sums fractional amounts', async () => {
      const c = counter(1);
      expect(await spend({ ...c, amount: 0.25 })).toEqual({ ok: true, used: 0.25 });
      expect(await spend({ ...c, amount: 0.5 })).toEqual({ ok: true, used: 0.75 });
      expect(await spend({ ...c, amount: 0.375 })).toEqual({ ok: false, used: 0.75 });
      expect(await spend({ ...c, amount: 0.25 })).toEqual({ ok: true, used: 1 });
      expect(await peek(c.key, c.windowStart)).toBe(1);
    });

    it('keeps each window and each key apart', async () => {
      const c = counter(2, 2);
      const next = { ...c, windowStart: c.windowEnd, windowEnd: c.windowEnd + HOUR };
      const other = { ...c, key: `${c.key}:other` };
      for (const s of [c, next, other]) expect(await spend(s)).toEqual({ ok: true, used: 2 });
      for (const s of [c, next, other]) expect(await spend(s)).toEqual({ ok: false, used: 2 });
      expect(await peek(c.key, c.windowEnd + 2 * HOUR)).toBe(0);
    });

    it('takes back a refund, never below zero', async () => {
      const c = counter(5, 4);
      await spend(c);
      await refund({ ...c, amount: 1.5 });
      expect(await peek(c.key, c.windowStart)).toBe(2.5);
      await refund({ ...c, amount: 10 });
      expect(await peek(c.key, c.windowStart)).toBe(0);
      expect(await spend({ ...c, amount: 5 })).toEqual({ ok: true, used: 5 });
      await refund({ ...counter(1), amount: 1 });
    });

    it('of many concurrent spends, exactly max succeed', async () => {
      const c = counter(7);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => spend(c)));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(7);
      expect(outcomes.every((o) => o.used <= 7)).toBe(true);
      expect(await peek(c.key, c.windowStart)).toBe(7);
    });

    /** A pending confirmation that counted `amount` on the fresh counter `c` (as the registry does at ask). */
    const countedConfirmation = async (amount: number, overrides: Partial<Confirmation> = {}) => {
      const c = counter(1_000, amount);
      expect(await spend(c)).toEqual({ ok: true, used: amount });
      const counted = [
        { rule: 'daily', key: c.key, windowStart: c.windowStart, windowEnd: c.windowEnd, amount },
      ];
      const record = pendingConfirmation({ counted, ...overrides });
      await store.create(record);
      return { c, record, used: () => peek(c.key, c.windowStart) };
    };

    it('keeps what a confirmation counted on delivery, and leaves it out when absent', async () => {
      const { record } = await countedConfirmation(450);
      expect(await store.get(record.id)).toEqual(record);
      const plain = pendingConfirmation();
      await store.create(plain);
      expect(await store.get(plain.id)).not.toHaveProperty('counted');
    });

    it('gives back what a confirmation counted in the write that rejects it, once', async () => {
      const { record, used } = await countedConfirmation(450);
      expect((await store.reject(record.id, { now: T0 + 1, by: 'ana' })).ok).toBe(true);
      expect(await used()).toBe(0);
      expect((await store.reject(record.id, { now: T0 + 2, by: 'ana' })).ok).toBe(false);
      expect(await used()).toBe(0);
    });

    it('of concurrent expires and rejects of one confirmation, the one that commits gives back, once', async () => {
      const { c, record, used } = await countedConfirmation(300);
      // Another call's count on the same counter shows a second give-back.
      expect(await spend({ ...c, amount: 100 })).toEqual({ ok: true, used: 400 });
      const late = T0 + 2 * HOUR;
      const outcomes = await Promise.all([
        store.expire({ now: late }),
        store.expire({ now: late, id: record.id }),
        store.reject(record.id, { now: late, by: 'ana' }),
        store.expire({ now: late }),
      ]);
      const changed = outcomes.filter((o) => (Array.isArray(o) ? o.some((r) => r.id === record.id) : o.ok));
      expect(changed).toHaveLength(1);
      expect(await used()).toBe(100);
    });

    it('a held send cancelled in its undo window gives back; one sent keeps its count', async () => {
      if (!hasCapability(store, 'held')) return;
      const cancelled = await countedConfirmation(120);
      const sent = await countedConfirmation(80);
      for (const { record } of [cancelled, sent])
        expect((await store.claim(record.id, { now: T0 + 1, by: 'ana', deliverAt: T0 + 60_000 })).ok).toBe(
          true,
        );
      expect((await store.cancel(cancelled.record.id, { now: T0 + 2, by: 'ana' })).ok).toBe(true);
      expect(await cancelled.used()).toBe(0);
      expect((await store.deliverDue(sent.record.id, { now: T0 + 60_000 })).ok).toBe(true);
      expect(
        (await store.finish(sent.record.id, { now: T0 + 60_001, status: 'delivered', attempt: 1 })).ok,
      ).toBe(true);
      expect(await sent.used()).toBe(80);
    });

    it('a failed delivery gives back; a retry counts again; unknown keeps it; unknown then failed gives back', async () => {
      const { record, used } = await countedConfirmation(200);
      expect((await store.claim(record.id, { now: T0 + 1, by: 'ana' })).ok).toBe(true);
      expect(await used()).toBe(200);
      expect(
        (await store.finish(record.id, { now: T0 + 2, status: 'failed', attempt: 1, error: 'down' })).ok,
      ).toBe(true);
      expect(await used()).toBe(0);
      expect((await store.reclaim(record.id, { now: T0 + 3, by: 'ana' })).ok).toBe(true);
      expect(await used()).toBe(200);
      expect((await store.finish(record.id, { now: T0 + 4, status: 'unknown', attempt: 2 })).ok).toBe(true);
      expect(await used()).toBe(200);
      expect(
        (await store.finish(record.id, { now: T0 + 5, status: 'failed', attempt: 2, error: 'no' })).ok,
      ).toBe(true);
      expect(await used()).toBe(0);
      expect((await store.markDelivered(record.id, { now: T0 + 6, by: 'ana' })).ok).toBe(true);
      expect(await used()).toBe(200);
    });

    it('stores what an edited call counts with the edit, and gives that back', async () => {
      const { c, record, used } = await countedConfirmation(450);
      // The edit lowered the amount to 100: the registry gives back 350 and stores what is left.
      await refund({ ...c, amount: 350 });
      const counted = [
        { rule: 'daily', key: c.key, windowStart: c.windowStart, windowEnd: c.windowEnd, amount: 100 },
      ];
      const edit = editOf(record, 'smaller refund');
      const claimed = await store.claim(record.id, { now: T0 + 1, by: 'ana', edit, counted });
      expect(claimed.ok && claimed.confirmation.counted).toEqual(counted);
      expect((await store.get(record.id))?.counted).toEqual(counted);
      expect((await store.finish(record.id, { now: T0 + 2, status: 'failed', attempt: 1 })).ok).toBe(true);
      expect(await used()).toBe(0);
    });

    it('prune forgets counters whose window ended before its cutoff, and keeps the rest', async () => {
      const old = { ...counter(9, 3), windowStart: T0 - 20 * HOUR, windowEnd: T0 - 19 * HOUR };
      const current = counter(9, 4);
      await spend(old);
      await spend(current);
      await store.prune({ before: T0 - HOUR });
      expect(await peek(old.key, old.windowStart)).toBe(0);
      expect(await peek(current.key, current.windowStart)).toBe(4);
    });
  });
}
