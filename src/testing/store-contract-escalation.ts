import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import type { EscalationClaim } from '../stores/escalation-claim.js';
import type { ConfirmationStore } from '../stores/store.js';
import { pendingConfirmation, type StoreUnderTest, usesStore } from './contract-setup.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `escalateDue`: one conditional write per confirmation and step (issue 18, part 3). */
export function escalationCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, escalations: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(
      open,
      (opened) => {
        store = opened;
      },
      'escalations',
    );

    // A window of time and a tool no other test (or earlier run on a shared database) uses.
    const base = T0 + (2_000_000 + Math.floor(Math.random() * 1_000_000)) * HOUR;
    const tool = `esc.t${Math.random().toString(36).slice(2, 8)}`;
    const escalateDue = (claim: Omit<EscalationClaim, 'tool'> & { tool?: string }) => {
      if (store.escalateDue === undefined) throw new Error(`${name} has no escalateDue`);
      return store.escalateDue({ tool, ...claim });
    };
    const createdAt = async (at: number, overrides: Partial<Confirmation> = {}) => {
      const c = pendingConfirmation({ tool, ...overrides }, at);
      await store.create(c);
      return c;
    };
    const ids = (list: readonly Confirmation[]) => list.map((c) => c.id).sort();

    it('marks each pending one of the tool old enough once per step, and records it in the history', async () => {
      const now = base;
      const old = await createdAt(now - 20 * MINUTE);
      const young = await createdAt(now - 5 * MINUTE);
      const other = await createdAt(now - 20 * MINUTE, { tool: 'message.send' });
      const decided = await createdAt(now - 20 * MINUTE);
      await store.reject(decided.id, { now: now - MINUTE, by: 'lead-2' });
      const gone = await createdAt(now - 2 * HOUR);

      const first = await escalateDue({ now, step: 1, olderThan: now - 15 * MINUTE });
      expect(ids(first)).toEqual([old.id]);
      const entry = { at: iso(now), status: 'pending', escalated: { step: 1 } };
      expect(first[0]).toMatchObject({ status: 'pending', payload: old.payload });
      expect(first[0]?.history.at(-1)).toEqual(entry);
      expect((await store.get(old.id))?.history).toEqual([...old.history, entry]);
      expect(await escalateDue({ now, step: 1, olderThan: now - 15 * MINUTE })).toEqual([]);
      for (const id of [young.id, other.id, decided.id, gone.id])
        expect((await store.get(id))?.history.some((h) => h.escalated !== undefined)).toBe(false);

      const later = now + 15 * MINUTE;
      const second = await escalateDue({ now: later, step: 2, olderThan: later - 30 * MINUTE });
      expect(ids(second)).toEqual([old.id]);
      const again = await escalateDue({ now: later, step: 1, olderThan: later - 15 * MINUTE });
      expect(ids(again)).toEqual([young.id]);
      // A step below the highest announced one is never sent after it.
      expect(await escalateDue({ now: later, step: 1, olderThan: later })).toEqual([]);
    });

    it('an escalated confirmation is still claimed, finished and read back whole', async () => {
      const now = base + 100 * HOUR;
      const c = await createdAt(now - 20 * MINUTE);
      await store.get(c.id); // a store that remembers rows now holds the version before the escalation
      await escalateDue({ now, step: 1, olderThan: now - 15 * MINUTE });
      const won = await store.claim(c.id, { now: now + 1, by: 'lead-2' });
      expect(won.ok && won.confirmation.history.map((h) => h.status)).toEqual([
        'pending',
        'pending',
        'delivering',
      ]);
      const done = await store.finish(c.id, { now: now + 2, attempt: 1, status: 'delivered' });
      expect(done.ok && done.confirmation).toEqual(await store.get(c.id));
      expect(await escalateDue({ now: now + 3, step: 2, olderThan: now + 3 })).toEqual([]);
    });

    it('of any number of concurrent sweeps, exactly one marks each confirmation for each step', async () => {
      const now = base + 200 * HOUR;
      const due = await Promise.all([1, 2, 3, 4, 5, 6].map((m) => createdAt(now - (20 + m) * MINUTE)));
      for (const step of [1, 2]) {
        const sweeps = await Promise.all(
          [1, 2, 3, 4, 5].map(() => escalateDue({ now, step, olderThan: now - 15 * MINUTE })),
        );
        expect(
          sweeps
            .flat()
            .map((c) => c.id)
            .sort(),
        ).toEqual(ids(due));
      }
    });
  });
}
