import type { ConfirmationApproval, ConfirmationHistoryEntry, ConfirmationStatus } from '../confirmation.js';
import { toIso } from '../util/iso-time.js';
import type { FinishChange, PayloadEdit, StoreChange } from './store.js';

/**
 * The confirmation state machine, written once: every store builds its conditional writes from this
 * table, so the memory, SQLite and PostgreSQL stores cannot disagree about which moves are allowed.
 */
export interface Transition {
  /** The statuses the move starts from; any other status refuses it. */
  readonly from: readonly ConfirmationStatus[];
  readonly to: ConfirmationStatus;
  /** A new delivery attempt starts: `attempt` goes up by one. */
  readonly startsAttempt?: true;
  /** Refused once `expiresAt` is at or before `now`. */
  readonly refusedWhenExpired?: true;
}

/** The moves a person's decision makes. `finish`, `expire` and `recoverStale` are below. */
export const TRANSITIONS = {
  claim: { from: ['pending'], to: 'delivering', startsAttempt: true, refusedWhenExpired: true },
  /** The claim of a send with an undo window (`ClaimChange.deliverAt`): it waits, nothing starts yet. */
  hold: { from: ['pending'], to: 'scheduled', refusedWhenExpired: true },
  /** One approval short of the quorum: the confirmation stays pending, its approvals grow. */
  approve: { from: ['pending'], to: 'pending', refusedWhenExpired: true },
  reclaim: { from: ['unknown', 'failed'], to: 'delivering', startsAttempt: true },
  reject: { from: ['pending'], to: 'rejected' },
  markDelivered: { from: ['unknown', 'failed'], to: 'delivered' },
  /** A held send's time came (only once `deliverAt` is at or before `now`): a sweep delivers it. */
  deliverDue: { from: ['scheduled'], to: 'delivering', startsAttempt: true },
  /** A held send taken back in its undo window. */
  cancel: { from: ['scheduled'], to: 'cancelled' },
} as const satisfies Record<string, Transition>;

/** Where a confirmation did not go out: what it counted on delivery (`counted`) is given back. */
const NOT_SENT: ReadonlySet<ConfirmationStatus> = new Set(['rejected', 'expired', 'cancelled', 'failed']);

/**
 * What a status change does to a confirmation's `counted` limits, made in the same write as the change:
 * give them back when it ends without going out, count them again when a failed one is retried or
 * marked delivered (`unknown` keeps them: it may have gone out).
 */
export function countMove(
  from: ConfirmationStatus,
  to: ConfirmationStatus,
): 'give-back' | 'count-again' | undefined {
  const was = NOT_SENT.has(from);
  const is = NOT_SENT.has(to);
  if (was === is) return undefined;
  return is ? 'give-back' : 'count-again';
}

/** The statuses a delivery attempt may be finished from (its own attempt only). */
export function finishFrom(status: FinishChange['status']): readonly ConfirmationStatus[] {
  if (status !== 'delivered' && status !== 'failed' && status !== 'unknown') {
    throw new TypeError(`a delivery cannot finish as ${String(status)}`);
  }
  // A late outcome may overwrite `unknown` (the truth wins), but an unknown never overwrites anything.
  return status === 'unknown' ? ['delivering'] : ['delivering', 'unknown'];
}

/** The note `recoverStale` leaves, so the person deciding knows why the outcome is unknown. */
export function staleNote(olderThanMs: number): string {
  return `no outcome recorded within ${olderThanMs} ms of the delivery starting (the process may have stopped); it may or may not have been delivered`;
}

/** A history entry for a change, without empty fields; a claim of an edited payload carries `edit`. */
export function historyEntry(
  change: StoreChange,
  status: ConfirmationStatus,
  edit?: PayloadEdit,
  approval?: ConfirmationHistoryEntry['approval'],
): ConfirmationHistoryEntry {
  // One literal per shape, not conditional spreads (a runtime call) or added fields (which spill out
  // of the object): this runs on every status change, and every entry is kept.
  const at = toIso(change.now);
  const { by, note } = change;
  if (edit !== undefined || approval !== undefined)
    return fullEntry({ at, status, by, note }, edit, approval);
  if (note === undefined) return by === undefined ? { at, status } : { at, status, by };
  return by === undefined ? { at, status, note } : { at, status, by, note };
}

/**
 * The entry of an approval short of the quorum (how many of how many) or of a write that stores a
 * person's edit (the digest shown, the digest sent, what changed).
 */
function fullEntry(
  base: { at: string; status: ConfirmationStatus; by: string | undefined; note: string | undefined },
  edit: PayloadEdit | undefined,
  approval: ConfirmationHistoryEntry['approval'],
): ConfirmationHistoryEntry {
  const entry: { -readonly [K in keyof ConfirmationHistoryEntry]: ConfirmationHistoryEntry[K] } = {
    at: base.at,
    status: base.status,
  };
  if (base.by !== undefined) entry.by = base.by;
  if (base.note !== undefined) entry.note = base.note;
  if (approval !== undefined) entry.approval = { count: approval.count, needed: approval.needed };
  if (edit !== undefined)
    entry.edit = { fromDigest: edit.fromDigest, toDigest: edit.digest, fields: [...edit.fields] };
  return entry;
}

/**
 * Approvals as JSON text in one fixed shape and key order, so a compare-and-set can compare them as
 * text (the SQL stores keep exactly this text). Absent approvals are the empty list.
 */
export function approvalsJson(approvals: readonly ConfirmationApproval[] | undefined): string {
  return JSON.stringify((approvals ?? []).map(({ by, at, digest }) => ({ by, at, digest })));
}

/** The most `list` returns, whatever it is asked for. */
export const MAX_LIST_LIMIT = 1_000;
/** What `list` returns without a `limit`. */
export const DEFAULT_LIST_LIMIT = 100;

/** A usable list limit from whatever the caller passed. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIST_LIMIT;
  return Math.min(MAX_LIST_LIMIT, Math.max(1, Math.floor(limit)));
}

/**
 * The store writes that are *decisions*: each decides whether something is sent, or undoes a refusal,
 * so a durable store must have it on disk before it returns (losing a claim after `deliver` ran lets
 * the same send go out again). Any other write may be lost to a power cut without harm: a lost create
 * means asking again, a lost finish leaves `delivering` for `recoverStale` to hand to a person, and a
 * lost expire, recoverStale or prune is simply done again by the next sweep.
 */
export const DECISIONS: ReadonlySet<keyof import('./store.js').ConfirmationStore> = new Set([
  'claim',
  'reclaim',
  'reject',
  'markDelivered',
  // An approval counts toward a quorum, and a limit's spend is what refuses the calls past it: losing
  // either to a power cut would loosen what the rules asked for.
  'approve',
  'spendLimit',
  // Which of a held send's sweep and its cancel won decides whether it is sent.
  'deliverDue',
  'cancel',
] as const);
