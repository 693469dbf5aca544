import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore } from '../stores/store.js';
import { pendingConfirmation, type StoreUnderTest, usesStore } from './contract-setup.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

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

/** The undo window: a held claim (`scheduled`), the sweep's `deliverDue` and a person's `cancel`. */
export function heldCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, held sends: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'held',
    );

    const created = async (overrides: Partial<Confirmation> = {}) => {
      const c = pendingConfirmation(overrides);
      await store.create(c);
      return c;
    };
    /** Claimed by `li` at T0+1 and held until T0+1+`holdMs`. */
    const held = async (holdMs = 30_000) => {
      const c = await created();
      const claim = await store.claim(c.id, { now: T0 + 1, by: 'li', deliverAt: T0 + 1 + holdMs });
      if (!claim.ok) throw new Error(`the held claim was refused: ${claim.reason}`);
      return claim.confirmation;
    };
    const deliverDue = (id: string, now: number) => required(store, name, 'deliverDue')(id, { now });
    const cancel = (id: string, now: number, by = 'li', note?: string) =>
      required(store, name, 'cancel')(id, { now, by, note });
    const dueIds = async (now: number) =>
      (await required(store, name, 'dueScheduled')({ now, limit: 1_000 })).map((c) => c.id);

    it('a claim with deliverAt schedules it: no attempt starts, deliverAt is kept, the history says who', async () => {
      const c = await held();
      expect(c).toMatchObject({ status: 'scheduled', attempt: 0, deliverAt: iso(T0 + 30_001) });
      expect(c.history.at(-1)).toEqual({ at: iso(T0 + 1), status: 'scheduled', by: 'li' });
      expect(await store.get(c.id)).toEqual(c);
      // Scheduled is not pending: another claim, a reject or an expiry does nothing to it.
      expect(await store.claim(c.id, { now: T0 + 2, by: 'chen' })).toMatchObject({
        ok: false,
        reason: 'wrong-status',
      });
      expect(await store.reject(c.id, { now: T0 + 2, by: 'chen' })).toMatchObject({ ok: false });
      expect(await store.expire({ now: T0 + 10 * 3_600_000, id: c.id })).toEqual([]);
    });

    it('a claim without deliverAt is unchanged: delivering, attempt 1, no deliverAt', async () => {
      const c = await created();
      const claim = await store.claim(c.id, { now: T0 + 1, by: 'li' });
      expect(claim.ok && claim.confirmation).toMatchObject({ status: 'delivering', attempt: 1 });
      expect(claim.ok && 'deliverAt' in claim.confirmation).toBe(false);
    });

    it('deliverDue moves it to delivering only once deliverAt has come, exactly once', async () => {
      const c = await held(30_000);
      const early = await deliverDue(c.id, T0 + 30_000);
      expect(early).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'scheduled' },
      });
      expect(await dueIds(T0 + 30_000)).not.toContain(c.id);
      expect(await dueIds(T0 + 30_001)).toContain(c.id);
      const due = await deliverDue(c.id, T0 + 30_001);
      expect(due.ok && due.confirmation).toMatchObject({ status: 'delivering', attempt: 1 });
      expect(await deliverDue(c.id, T0 + 30_002)).toMatchObject({ ok: false, reason: 'wrong-status' });
      expect(await dueIds(T0 + 40_000)).not.toContain(c.id);
      // Then it finishes like any delivery.
      const finished = await store.finish(c.id, { now: T0 + 30_003, attempt: 1, status: 'delivered' });
      expect(finished).toMatchObject({ ok: true, confirmation: { status: 'delivered' } });
    });

    it('cancel moves a scheduled one to cancelled with who and why; then nothing delivers it', async () => {
      const c = await held();
      const cancelled = await cancel(c.id, T0 + 5, 'lead-li', 'wrong customer');
      expect(cancelled.ok && cancelled.confirmation).toMatchObject({ status: 'cancelled', attempt: 0 });
      expect(cancelled.ok && cancelled.confirmation.history.at(-1)).toEqual({
        at: iso(T0 + 5),
        status: 'cancelled',
        by: 'lead-li',
        note: 'wrong customer',
      });
      expect(await deliverDue(c.id, T0 + 60_000)).toMatchObject({ ok: false, reason: 'wrong-status' });
      expect(await dueIds(T0 + 60_000)).not.toContain(c.id);
      expect(await cancel(c.id, T0 + 6)).toMatchObject({ ok: false, reason: 'wrong-status' });
    });

    it('cancel refuses what is not scheduled: pending, delivering, unknown ids', async () => {
      const pending = await created();
      expect(await cancel(pending.id, T0 + 1)).toMatchObject({ ok: false, reason: 'wrong-status' });
      const c = await held(10);
      await deliverDue(c.id, T0 + 100);
      expect(await cancel(c.id, T0 + 101)).toMatchObject({
        ok: false,
        reason: 'wrong-status',
        confirmation: { status: 'delivering' },
      });
      expect(await cancel('no-such-id', T0)).toEqual({ ok: false, reason: 'not-found' });
    });

    it('of a cancel and a deliverDue racing, exactly one wins', async () => {
      for (let round = 0; round < 10; round++) {
        const c = await held(10);
        const [swept, cancelled] = await Promise.all([deliverDue(c.id, T0 + 100), cancel(c.id, T0 + 100)]);
        expect([swept.ok, cancelled.ok].filter(Boolean)).toHaveLength(1);
      }
    });

    it('dueScheduled lists the due ones earliest first and prune deletes cancelled ones', async () => {
      const late = await held(2_000);
      const soon = await held(1_000);
      const ids = await dueIds(T0 + 5_000);
      expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(late.id));
      await cancel(late.id, T0 + 10);
      await cancel(soon.id, T0 + 10);
      expect(await store.prune({ before: T0 + 11 })).toBeGreaterThanOrEqual(2);
      expect(await store.get(late.id)).toBeUndefined();
      expect(await store.get(soon.id)).toBeUndefined();
    });
  });
}
