import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditDraft } from '../audit/audit-entry.js';
import type { PasskeyCredentialInfo } from '../passkeys/passkey-types.js';
import type { ConfirmationStore, PasskeyStore } from '../stores/store.js';
import { hasCapability } from '../stores/store-capabilities.js';
import { type StoreUnderTest, T0, usesStore } from './contract-setup.js';

/**
 * Approvers' passkeys (issue 33): credentials kept with their audit entry in one write, challenges
 * taken once, counters moved only forward by a compare-and-set.
 */
export function passkeyCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, passkeys: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'passkeys',
    );
    const keys = (): ConfirmationStore & PasskeyStore => {
      if (!hasCapability(store, 'passkeys')) throw new Error(`${name} keeps no passkeys`);
      return store;
    };
    const credential = (overrides: Partial<PasskeyCredentialInfo> = {}): PasskeyCredentialInfo => ({
      id: randomBytes(16).toString('base64url'),
      approver: `li-${randomBytes(4).toString('hex')}`,
      publicKey: randomBytes(77).toString('base64url'),
      counter: 0,
      transports: ['internal', 'hybrid'],
      createdAt: new Date(T0 + 1_000).toISOString(),
      ...overrides,
    });
    const draft = (action: string, id: string): AuditDraft => ({
      at: T0,
      kind: 'passkey',
      tool: '',
      by: 'li',
      action,
      detail: { credentialId: id },
    });
    const logged = async (id: string): Promise<string[]> => {
      const audit = store.audit;
      if (audit === undefined) return [];
      await audit.sequence();
      const actions: string[] = [];
      for (let afterSeq = 0; ; ) {
        const page = await audit.read({ afterSeq, limit: 500 });
        for (const entry of page) if (entry.detail?.credentialId === id) actions.push(entry.action);
        if (page.length < 500) return actions;
        afterSeq = (page.at(-1) as { seq: number }).seq;
      }
    };

    it('keeps a credential exactly, lists an approver’s oldest first, and refuses a second with the same id', async () => {
      const first = credential({ label: 'laptop 笔记本' });
      const second = credential({ approver: first.approver, createdAt: new Date(T0 + 2_000).toISOString() });
      expect(await keys().savePasskey(first, draft('registered', first.id))).toBe(true);
      expect(await keys().savePasskey(second, draft('registered', second.id))).toBe(true);
      expect(await keys().findPasskey(first.id)).toEqual(first);
      expect((await keys().listPasskeys(first.approver)).map((c) => c.id)).toEqual([first.id, second.id]);
      expect(await keys().savePasskey({ ...first, approver: 'mallory' }, draft('registered', first.id))).toBe(
        false,
      );
      expect((await keys().findPasskey(first.id))?.approver).toBe(first.approver);
      expect(await logged(first.id)).toEqual(['registered']);
    });

    it('removes only the approver’s own credential, with its audit entry', async () => {
      const kept = credential();
      await keys().savePasskey(kept, draft('registered', kept.id));
      expect(
        await keys().removePasskey({ id: kept.id, approver: 'someone-else' }, draft('removed', kept.id)),
      ).toBe(false);
      expect(
        await keys().removePasskey({ id: kept.id, approver: kept.approver }, draft('removed', kept.id)),
      ).toBe(true);
      expect(await keys().findPasskey(kept.id)).toBeUndefined();
      expect(
        await keys().removePasskey({ id: kept.id, approver: kept.approver }, draft('removed', kept.id)),
      ).toBe(false);
      expect(await logged(kept.id)).toEqual(['registered', 'removed']);
    });

    it('takes a challenge once, and never after it expires', async () => {
      const nonce = randomBytes(32).toString('base64url');
      const challenge = {
        nonce,
        approver: 'li',
        binding: 'b'.repeat(64),
        purpose: 'approve' as const,
        expiresAt: T0 + 60_000,
      };
      await keys().savePasskeyChallenge(challenge);
      const [one, two] = await Promise.all([
        keys().takePasskeyChallenge(nonce, T0),
        keys().takePasskeyChallenge(nonce, T0),
      ]);
      expect([one, two].filter((taken) => taken !== undefined)).toEqual([challenge]);
      const late = { ...challenge, nonce: randomBytes(32).toString('base64url') };
      await keys().savePasskeyChallenge(late);
      expect(await keys().takePasskeyChallenge(late.nonce, late.expiresAt)).toBeUndefined();
      expect(await keys().takePasskeyChallenge(late.nonce, T0)).toBeUndefined();
    });

    it('moves a counter only forward from the value read (0 to 0 for one that does not count)', async () => {
      const kept = credential();
      await keys().savePasskey(kept, draft('registered', kept.id));
      expect(await keys().advancePasskeyCounter(kept.id, { from: 0, to: 0 })).toBe(true);
      const raced = await Promise.all([
        keys().advancePasskeyCounter(kept.id, { from: 0, to: 5 }),
        keys().advancePasskeyCounter(kept.id, { from: 0, to: 6 }),
      ]);
      expect(raced.filter(Boolean)).toHaveLength(1);
      const now = (await keys().findPasskey(kept.id))?.counter ?? -1;
      expect([5, 6]).toContain(now);
      expect(await keys().advancePasskeyCounter(kept.id, { from: now, to: now })).toBe(false);
      expect(await keys().advancePasskeyCounter(kept.id, { from: now, to: now - 1 })).toBe(false);
      expect(await keys().advancePasskeyCounter(kept.id, { from: now, to: now + 1 })).toBe(true);
    });
  });
}
