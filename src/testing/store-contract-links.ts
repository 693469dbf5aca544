import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApprovalLinkRecord, ConfirmationStore } from '../stores/store.js';
import { HOUR, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';

/** One-time approval links: kept by token hash, used once, pruned after they expire (issue 9). */
export function linkCases(name: string, open: () => Promise<StoreUnderTest>): void {
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
