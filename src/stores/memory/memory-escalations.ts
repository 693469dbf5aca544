import { confirmationDraft } from '../../audit/audit-drafts.js';
import type { MemoryAuditChain } from '../../audit/memory-audit.js';
import type { Confirmation } from '../../confirmation.js';
import { type EscalationClaim, escalationEntry } from '../escalation-claim.js';
import type { EscalationStore } from '../store.js';

/** What the memory store's slots offer the escalations: the record and its times, parsed once. */
interface EscalatableSlot {
  record: Confirmation;
  readonly createdMs: number;
  readonly expiresMs: number;
}

/**
 * The memory store's `escalateDue`, over its set of pending slots: the highest announced step of each
 * is kept beside it (a slot that leaves takes its step with it). Synchronous, so atomic in-process.
 */
export function memoryEscalations(
  pending: ReadonlySet<EscalatableSlot>,
  audit: MemoryAuditChain,
): EscalationStore {
  const announced = new WeakMap<EscalatableSlot, number>();
  return {
    async escalateDue({ now, step, olderThan, tool }: EscalationClaim) {
      const marked: Confirmation[] = [];
      for (const slot of pending) {
        const { record } = slot;
        if (record.tool !== tool || slot.createdMs > olderThan || slot.expiresMs <= now) continue;
        if ((announced.get(slot) ?? 0) >= step) continue;
        const entry = Object.freeze(escalationEntry(now, step));
        const next = { ...record, updatedAt: entry.at, history: Object.freeze([...record.history, entry]) };
        audit.commit(
          confirmationDraft({
            action: 'escalated',
            confirmation: next,
            by: undefined,
            at: now,
            viaLink: false,
          }),
        );
        announced.set(slot, step);
        slot.record = next;
        marked.push({ ...slot.record });
      }
      return marked;
    },
  };
}
