import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore } from '../stores/store.js';
import { hasCapability } from '../stores/store-capabilities.js';
import { HOUR, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';

/** A pending confirmation holding a fresh idempotency key (or `key`), as `propose` with a key stores it. */
function keyed(key = randomBytes(32).toString('hex'), overrides: Partial<Confirmation> = {}): Confirmation {
  return pendingConfirmation({ idempotency: { key, intent: 'i'.repeat(64) }, ...overrides });
}

/** Capability `idempotency`: one kept confirmation per idempotency key, in every process. */
export function idempotencyCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, idempotency keys: ${name}`, () => {
    let store: ConfirmationStore;
    let subject: StoreUnderTest;
    usesStore(
      open,
      (opened, under) => {
        store = opened;
        subject = under;
      },
      'idempotency',
    );
    const findKeyed = (on: ConfirmationStore, key: string) => {
      if (!hasCapability(on, 'idempotency')) throw new Error(`${name} has no findKeyed`);
      return on.findKeyed(key);
    };

    it('finds another pending one of the tool by payload digest first, else by ref; never an expired or decided one', async () => {
      if (!hasCapability(store, 'idempotency')) return;
      const tool = `alike.${randomBytes(6).toString('hex')}`;
      const ref = `ORDER-${randomBytes(4).toString('hex')}`;
      const digest = randomBytes(32).toString('hex');
      const byRef = pendingConfirmation({ tool, ref });
      await store.create(byRef);
      const query = { tool, digest, ref, now: T0 + 1 };
      expect(await store.findAlike(query)).toEqual({ id: byRef.id, by: 'ref' });
      expect(await store.findAlike({ ...query, ref: undefined })).toBeUndefined();
      expect(await store.findAlike({ ...query, tool: `${tool}.other` })).toBeUndefined();
      expect(await store.findAlike({ ...query, now: T0 + 2 * HOUR })).toBeUndefined();
      const byPayload = pendingConfirmation({ tool, digest });
      await store.create(byPayload);
      expect(await store.findAlike(query)).toEqual({ id: byPayload.id, by: 'payload' });
      expect(await store.reject(byRef.id, { now: T0 + 2, by: 'li' })).toMatchObject({ ok: true });
      expect(await store.findAlike({ ...query, digest: 'e'.repeat(64) })).toBeUndefined();
    });

    it('finds the confirmation holding a key, as it was stored, and nothing for a key no one holds', async () => {
      const held = keyed();
      await store.create(held);
      expect(await findKeyed(store, held.idempotency?.key ?? '')).toEqual(held);
      expect(await store.get(held.id)).toEqual(held);
      expect(await findKeyed(store, 'f'.repeat(64))).toBeUndefined();
    });

    it('refuses a second confirmation with the same key, keeping the first, and lets keyless ones be', async () => {
      const first = keyed();
      await store.create(first);
      const second = keyed(first.idempotency?.key);
      await expect(store.create(second)).rejects.toBeDefined();
      expect(await store.get(second.id)).toBeUndefined();
      expect(await findKeyed(store, first.idempotency?.key ?? '')).toEqual(first);
      await store.create(pendingConfirmation());
      await store.create(pendingConfirmation());
    });

    it('keeps the key held after a decision, and frees it only when prune deletes the confirmation', async () => {
      const held = keyed(undefined, { createdAt: new Date(T0 - 3 * HOUR).toISOString() });
      await store.create(held);
      const key = held.idempotency?.key ?? '';
      expect(await store.reject(held.id, { now: T0 - 2 * HOUR, by: 'li' })).toMatchObject({ ok: true });
      expect(await findKeyed(store, key)).toMatchObject({ id: held.id, status: 'rejected' });
      await expect(store.create(keyed(key))).rejects.toBeDefined();
      await store.prune({ before: T0 - HOUR });
      expect(await findKeyed(store, key)).toBeUndefined();
      const again = keyed(key);
      await store.create(again);
      expect(await findKeyed(store, key)).toEqual(again);
    });

    it('stores no step of a bundle whose first step holds a key already held', async () => {
      if (store.createBundle === undefined) return;
      const first = keyed();
      await store.create(first);
      const id = pendingConfirmation().id;
      const bundle = { id, size: 2, digest: 'd'.repeat(64) };
      const steps = [
        keyed(first.idempotency?.key, { id: `${id}-0`, bundle: { ...bundle, index: 0 } }),
        pendingConfirmation({ id: `${id}-1`, bundle: { ...bundle, index: 1 } }),
      ];
      await expect(store.createBundle(steps)).rejects.toBeDefined();
      expect(await store.get(`${id}-1`)).toBeUndefined();
    });

    it('stores exactly one of many racing creates with one key, across two instances', async ({ skip }) => {
      if (subject.another === undefined) {
        const why = `${name} gave no second instance (\`another\`), so a race between two instances is not tried`;
        console.warn(`[graded-tools/testing] skipping: ${why}`);
        return skip(why);
      }
      const other = await subject.another();
      const key = randomBytes(32).toString('hex');
      const racers = Array.from({ length: 8 }, () => keyed(key));
      const settled = await Promise.allSettled(
        racers.map((racer, i) => (i % 2 === 0 ? store : other).create(racer)),
      );
      expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const winner = await findKeyed(other, key);
      expect(racers.map((racer) => racer.id)).toContain(winner?.id);
    });
  });
}
