import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore } from '../stores/store.js';
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
    const createBundle = (steps: readonly Confirmation[]) => {
      if (store.createBundle === undefined) throw new Error(`${name} has no createBundle`);
      return store.createBundle(steps);
    };

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
