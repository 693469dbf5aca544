import type { ConfirmationHistoryEntry } from '../confirmation.js';
import { toIso } from '../util/iso-time.js';

/** What a store is asked to mark: step `step` (1 for the first) of `tool`'s pending confirmations. */
export interface EscalationClaim {
  readonly now: number;
  /** The step's number: 1 for the first entry of `escalate`. */
  readonly step: number;
  /** Only confirmations created at or before this (epoch ms: `now - afterMs`). */
  readonly olderThan: number;
  /** Only confirmations of this tool. */
  readonly tool: string;
}

/** The history entry an escalation leaves: still pending, by no one, which step was announced. */
export function escalationEntry(now: number, step: number): ConfirmationHistoryEntry {
  return { at: toIso(now), status: 'pending', escalated: { step } };
}
