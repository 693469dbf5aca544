import { describe, expect, it } from 'vitest';
import { payloadDigest } from '../confirm/digest.js';
import type { Confirmation } from '../confirmation.js';
import type { ConfirmationStore, PayloadEdit } from '../stores/store.js';
import { HOUR, iso, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';

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
export function editCases(name: string, open: () => Promise<StoreUnderTest>): void {
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
