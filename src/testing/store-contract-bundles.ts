import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore, LimitSpend } from '../stores/store.js';
import { pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';

/** A bundle of `size` pending steps under one random bundle id, as `proposeBundle` builds them. */
function bundleOf(size: number): Confirmation[] {
  const id = pendingConfirmation().id;
  return Array.from({ length: size }, (_, index) =>
    pendingConfirmation({ id: `${id}-${index}`, bundle: { id, index, size, digest: 'd'.repeat(64) } }),
  );
}

/** Capability `bundles`: a bundle's steps stored together, with their audit entries, or none. */
export function bundleCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, bundles: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'bundles',
    );
    const createBundle = (steps: readonly Confirmation[], spends?: readonly LimitSpend[]) => {
      if (store.createBundle === undefined) throw new Error(`${name} has no createBundle`);
      return store.createBundle(steps, spends);
    };
    /** A counter of its own for one case, in a window around T0. */
    const spendOn = (key: string, amount: number, max: number): LimitSpend => ({
      key: `${key}-${pendingConfirmation().id}`,
      windowStart: T0,
      windowEnd: T0 + 86_400_000,
      amount,
      max,
    });
    const used = (spend: LimitSpend) =>
      (store.peekLimit as NonNullable<typeof store.peekLimit>).call(store, spend.key, spend.windowStart);

    it('stores every step and gives each back as it was, its bundle included', async () => {
      const steps = bundleOf(3);
      await createBundle(steps);
      for (const step of steps) expect(await store.get(step.id)).toEqual(step);
    });

    it('stores none of them when one id exists already', async () => {
      const taken = pendingConfirmation();
      await store.create(taken);
      const steps = bundleOf(3);
      const clash = [steps[0], { ...(steps[1] as Confirmation), id: taken.id }, steps[2]] as Confirmation[];
      await expect(createBundle(clash)).rejects.toThrow();
      expect(await store.get(steps[0]?.id ?? '')).toBeUndefined();
      expect(await store.get(steps[2]?.id ?? '')).toBeUndefined();
      expect(await store.get(taken.id)).toEqual(taken);
    });

    it('spends its counts in the same write: on one counter added up, each within its max', async () => {
      if (store.peekLimit === undefined) return;
      const capped = spendOn('cap', 300, 500);
      const shadow = spendOn('shadow', 7, Number.POSITIVE_INFINITY);
      const steps = bundleOf(2);
      const answer = await createBundle(steps, [capped, { ...capped, amount: 200 }, shadow]);
      expect(answer).toEqual({ ok: true });
      expect(await used(capped)).toBe(500);
      expect(await used(shadow)).toBe(7);
      for (const step of steps) expect(await store.get(step.id)).toEqual(step);
    });

    it('refuses the whole bundle when one spend would pass its max: no step stored, no counter moved', async () => {
      if (store.peekLimit === undefined || store.spendLimit === undefined) return;
      const fits = spendOn('fits', 10, 100);
      const full = spendOn('full', 50, 100);
      expect(await store.spendLimit(full)).toMatchObject({ ok: true, used: 50 });
      const steps = bundleOf(2);
      const answer = await createBundle(steps, [fits, { ...full, amount: 60 }]);
      expect(answer).toMatchObject({ ok: false, code: 'limit-reached', used: 50, spend: { key: full.key } });
      expect(await used(fits)).toBe(0);
      expect(await used(full)).toBe(50);
      for (const step of steps) expect(await store.get(step.id)).toBeUndefined();
    });

    it('stores 100 steps at once, each one claimable on its own', async () => {
      const steps = bundleOf(100);
      await createBundle(steps);
      const last = steps.at(-1) as Confirmation;
      const claim = await store.claim(last.id, { now: T0 + 1, by: 'li' });
      expect(claim).toMatchObject({ ok: true, confirmation: { status: 'delivering', bundle: last.bundle } });
    });

    it('commits a `created` audit entry for every step, naming its bundle', async () => {
      const { audit } = store;
      if (audit === undefined) return;
      const steps = bundleOf(2);
      await createBundle(steps);
      await audit.sequence();
      const seen: unknown[] = [];
      for (let after = 0; ; ) {
        const page = await audit.read({ afterSeq: after, limit: 1_000 });
        if (page.length === 0) break;
        for (const entry of page)
          if (entry.action === 'created' && entry.detail?.bundle === steps[0]?.bundle?.id)
            seen.push(entry.detail?.step);
        after = page.at(-1)?.seq ?? after;
      }
      expect(seen.sort()).toEqual([0, 1]);
    });
  });
}
