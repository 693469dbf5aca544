import type { AuditChain } from '../audit/audit-chain.js';
import type {
  Confirmation,
  ConfirmationApproval,
  ConfirmationStatus,
  CountedLimit,
} from '../confirmation.js';
import type { PasskeyProof } from '../passkeys/passkey-types.js';
import type { ApprovalRequirement } from '../rule.js';
import type { EscalationClaim } from './escalation-claim.js';
import type { PasskeyStore } from './passkey-store.js';

export type { PasskeyChallengeRecord, PasskeyStore } from './passkey-store.js';

/**
 * What a store is asked to list. Newest first; `limit` is already clamped by the caller.
 */
export interface ConfirmationQuery {
  readonly status?: ConfirmationStatus;
  readonly tool?: string;
  readonly limit?: number;
  /** Only confirmations whose `expiresAt` is later than this (epoch ms). */
  readonly expiresAfter?: number;
  /**
   * Start after this position: a `nextCursor` this store returned (`decodeCursor` reads it; the
   * registry has checked that it decodes). Keyset pagination: a deep page costs what the first costs.
   */
  readonly cursor?: string;
}

/** One page of `list`: newest first, and where the next page starts when there may be one. */
export interface ConfirmationPage {
  readonly confirmations: Confirmation[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * What `watch` reports: the confirmation that was created or changed, when the store knows which;
 * without `id`, something may have changed and a reader should read again.
 */
export interface StoreNotice {
  readonly id?: string;
}

/** A change made by a person (or the system) at a time. `now` is epoch ms from the registry's clock. */
export interface StoreChange {
  readonly now: number;
  /** Who made it; recorded in the history. */
  readonly by?: string | undefined;
  /** Why; recorded in the history. */
  readonly note?: string | undefined;
}

/**
 * A claim, and optionally a person's edit of the payload made in the same conditional write: the
 * stored `payload` and `digest` become the edited ones only if the claim wins and the stored digest is
 * still `fromDigest` (otherwise the claim is refused as `wrong-status` with the record as it is).
 */
export interface ClaimChange extends DecisionChange {
  readonly edit?: PayloadEdit | undefined;
  /**
   * The claim completes a quorum (`requires.approvals` > 1): it is made only if the stored approvals
   * are still exactly `expected` (compare-and-set), and stores `next` (the completing approval added).
   */
  readonly quorum?: ApprovalsSwap | undefined;
  /**
   * A send with an undo window (`holdMs`): the claim moves it to `scheduled` with this `deliverAt`
   * (epoch ms) instead of `delivering`, and starts no attempt; `deliverDue` starts it later.
   */
  readonly deliverAt?: number | undefined;
  /**
   * Only with `edit`: what the tool's rules ask of approvers for the edited payload (stricter than the
   * stored `requires`), stored as `requires` in the same write.
   */
  readonly requires?: ApprovalRequirement | undefined;
  /** Only with `edit`: what the edited call counts on delivery, stored as `counted` in the same write. */
  readonly counted?: readonly CountedLimit[] | undefined;
}

/** The approvals as read, and as they are to be: a conditional write refuses when they changed since. */
export interface ApprovalsSwap {
  readonly expected: readonly ConfirmationApproval[];
  readonly next: readonly ConfirmationApproval[];
}

/**
 * One approval short of the quorum: the confirmation stays `pending`, its approvals become `quorum.next`
 * and the history gains `entry` — only if it is pending, not expired at `now`, and its approvals are
 * still `quorum.expected`. With `edit`, the payload and digest become the edited ones in the same write,
 * only if the stored digest is still `edit.fromDigest`.
 */
export interface ApproveChange extends DecisionChange {
  readonly quorum: ApprovalsSwap;
  readonly approval: { readonly count: number; readonly needed: number };
  readonly edit?: PayloadEdit | undefined;
  /** Only with `edit`: the stricter `requires` for the edited payload, stored in the same write. */
  readonly requires?: ApprovalRequirement | undefined;
  /** Only with `edit`: what the edited call counts on delivery, stored as `counted` in the same write. */
  readonly counted?: readonly CountedLimit[] | undefined;
}

/**
 * One call's use of a limit: add `amount` to the counter `key` in the window starting at `windowStart`
 * (epoch ms; it ends at `windowEnd`) if the total stays at or under `max`.
 */
export interface LimitSpend {
  readonly key: string;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly amount: number;
  /** `Infinity` counts without refusing (a shadow rule). */
  readonly max: number;
}

/** What `spendLimit` answers: spent (the counter now stands at `used`), or refused (it stands at `used`). */
export interface LimitOutcome {
  readonly ok: boolean;
  readonly used: number;
}

/**
 * A person's decision, made through a one-time approval link when `link` is given: the link is spent
 * in the same conditional write — only if it is `confirmationId`'s, unused and expires after `now`;
 * otherwise the write is refused as `link-refused` and nothing changes.
 */
export interface DecisionChange extends StoreChange {
  readonly link?: { readonly tokenHash: string } | undefined;
  /** The approver's passkey assertion that proved this decision: kept in its audit entry. */
  readonly passkey?: PasskeyProof | undefined;
}

/** What a person changed before confirming; recorded in the claim's history entry as `edit`. */
export interface PayloadEdit {
  /** The edited payload (plain JSON, already validated) … */
  readonly payload: unknown;
  /** … and its JSON text, as stored. */
  readonly payloadJson: string;
  /** `payloadDigest(tool, payload)` of the edited payload. */
  readonly digest: string;
  /** The digest the person was shown before editing: the stored one. */
  readonly fromDigest: string;
  /** The top-level fields whose values changed. */
  readonly fields: readonly string[];
}

/** How a delivery attempt ended. `attempt` must be the one the claim returned. */
export interface FinishChange extends StoreChange {
  readonly attempt: number;
  readonly status: 'delivered' | 'failed' | 'unknown';
  /** What `deliver` returned, as JSON text (`delivered` only). */
  readonly resultJson?: string | undefined;
  /** Why it failed or is unknown. */
  readonly error?: string | undefined;
}

/** Why a conditional change did not happen. */
export type TransitionRefusal = 'not-found' | 'wrong-status' | 'expired' | 'link-refused';

/**
 * The result of a conditional change: the record after it, or why it did not happen (with the record
 * as it is, when there is one).
 */
export type TransitionOutcome =
  | { readonly ok: true; readonly confirmation: Confirmation }
  | { readonly ok: false; readonly reason: 'not-found' }
  | {
      readonly ok: false;
      readonly reason: 'wrong-status' | 'expired' | 'link-refused';
      readonly confirmation: Confirmation;
    };

/** The person a one-time approval link is for, stored with it: they are the approver when it is used. */
export interface LinkApprover {
  /** Their user id: recorded as the approver (or the one who rejected). */
  readonly id: string;
  readonly name?: string;
  /** Their feature flags, for the tool's gates at confirm. */
  readonly flags?: Readonly<Record<string, boolean>>;
  readonly scope?: string;
}

/**
 * A one-time approval link as a store keeps it: never the token itself, only its SHA-256, bound to one
 * confirmation, the digest of the payload it was made for, one approver and an expiry. Times are epoch ms.
 */
export interface ApprovalLinkRecord {
  /** SHA-256 (hex) of the link's token: the key. */
  readonly tokenHash: string;
  readonly confirmationId: string;
  /** The payload digest the link was made for: a payload changed since refuses it. */
  readonly digest: string;
  readonly approver: LinkApprover;
  readonly createdAt: number;
  /** The link opens nothing at or after this. */
  readonly expiresAt: number;
  /** When it was used; absent while unused. */
  readonly usedAt?: number;
}

/**
 * What every store does: the eleven methods of a confirmation's life. Every status change is one
 * conditional, atomic write: of any number of concurrent callers — in one process or across many —
 * exactly one sees `ok: true`. Stores never decide policy (gates, digests, who may confirm); the
 * registry does, and tells them the time.
 *
 * Methods may reject (a lost connection, a full disk); the registry turns that into a `STORE_FAILED`
 * result. Records handed out must be snapshots: changing one must not change the store.
 */
export interface CoreStore {
  /**
   * Stores a new `pending` confirmation. Rejects when the id exists, and (a store with `idempotency`)
   * when another kept confirmation holds its `idempotency.key`.
   */
  create(confirmation: Confirmation): Promise<void>;
  /** The confirmation, or `undefined`. */
  get(id: string): Promise<Confirmation | undefined>;
  /** One page of the confirmations matching `query`, newest first (`encodeCursor` makes `nextCursor`). */
  list(query?: ConfirmationQuery): Promise<ConfirmationPage>;
  /**
   * `pending` → `delivering` when not expired at `now`, adding one to `attempt`. The single step that
   * makes delivery exactly-once. With `change.link`, it also spends that link, in the same write.
   */
  claim(id: string, change: ClaimChange): Promise<TransitionOutcome>;
  /** `unknown` | `failed` → `delivering` for a person's retry, adding one to `attempt`. */
  reclaim(id: string, change: StoreChange): Promise<TransitionOutcome>;
  /**
   * Records how delivery attempt `change.attempt` ended: `delivering` → `delivered` | `failed` |
   * `unknown`. Also from `unknown` to `delivered`/`failed` (the same attempt finished after
   * `recoverStale` gave up on it: the truth wins). A later attempt makes it refuse.
   */
  finish(id: string, change: FinishChange): Promise<TransitionOutcome>;
  /** `pending` → `rejected`; with `change.link`, spending that link in the same write. */
  reject(id: string, change: DecisionChange): Promise<TransitionOutcome>;
  /** `unknown` | `failed` → `delivered`: a person checked that it arrived. */
  markDelivered(id: string, change: StoreChange): Promise<TransitionOutcome>;
  /**
   * `pending` → `expired` for those whose `expiresAt` is at or before `now` (only `id` when given).
   * Returns the ones it changed.
   */
  expire(change: { readonly now: number; readonly id?: string }): Promise<Confirmation[]>;
  /**
   * `delivering` → `unknown` for those whose delivery started more than `olderThanMs` before `now`.
   * Never re-delivers, and never touches the ids in `running` (deliveries the caller's process is still
   * running). Returns the ones it changed.
   */
  recoverStale(change: {
    readonly now: number;
    readonly olderThanMs: number;
    readonly running?: readonly string[] | undefined;
  }): Promise<Confirmation[]>;
  /**
   * Deletes finished confirmations (`delivered`, `rejected`, `expired`) last changed before `before`
   * (epoch ms); returns how many. Never deletes one that is open or whose outcome a person must still
   * decide.
   */
  prune(change: { readonly before: number }): Promise<number>;
}

/** Capability `reminders`: approvers are reminded before a confirmation expires (`notify.remindBeforeMs`). */
export interface ReminderStore {
  /**
   * Marks the `pending` confirmations that expire after `now` and within `within` ms of it, and were
   * not marked before, as reminded; returns them. One conditional write per row, so of any number of
   * sweeping instances exactly one gets each: a reminder goes out once.
   */
  remindDue(change: { readonly now: number; readonly within: number }): Promise<Confirmation[]>;
}

/** Capability `escalations`: unanswered confirmations are escalated step by step (`escalate`). */
export interface EscalationStore {
  /**
   * Marks `change.tool`'s `pending` confirmations created at or before `olderThan`, not expired at
   * `now`, whose highest announced escalation step is below `change.step`, as escalated to that step,
   * appending `escalationEntry` to their history; returns them. One conditional write per row and
   * step, so of any number of sweeping instances exactly one gets each.
   */
  escalateDue(change: EscalationClaim): Promise<Confirmation[]>;
}

/** Capability `links`: one-time approval links (`registry.links`). */
export interface LinkStore {
  /**
   * Stores a new one-time approval link. Rejects when its `tokenHash` exists. `prune` deletes links
   * that expired before its cutoff.
   */
  saveLink(link: ApprovalLinkRecord): Promise<void>;
  /** The link whose token hashes to `tokenHash`, used or not, or `undefined`. */
  findLink(tokenHash: string): Promise<ApprovalLinkRecord | undefined>;
  /**
   * Marks the link used at `now` if it is unused and expires after `now`: one conditional write, so of
   * any number of concurrent callers, in any number of processes, exactly one gets `true`.
   */
  useLink(tokenHash: string, change: { readonly now: number }): Promise<boolean>;
}

/** Capability `quorum`: several people approve one send (a rule's `approvals` above 1). */
export interface QuorumStore {
  /**
   * Records one approval short of the quorum, as `ApproveChange` says, in one conditional write.
   * Refuses as `wrong-status` (also when the approvals or the digest changed since they were read) or
   * `expired`.
   */
  approve(id: string, change: ApproveChange): Promise<TransitionOutcome>;
}

/**
 * Capability `limits`: a rule's `limit` is counted here. A store with it also keeps a confirmation's
 * `counted` and, in the same conditional write as the status change, gives it back when the
 * confirmation moves to `rejected`, `expired`, `cancelled` or `failed`, and counts it again (without
 * a cap) when a `failed` one moves on (`reclaim`, `markDelivered`): `countMove` says which. So of any
 * number of instances making the same change, the one whose write commits gives it back, once.
 */
export interface LimitStore {
  /**
   * One conditional write that adds `amount` to a counter only if it stays within `max`, so any number
   * of callers in any number of processes never take it past `max`.
   */
  spendLimit(spend: LimitSpend): Promise<LimitOutcome>;
  /** Takes back what `spendLimit` added (another limit of the same call refused it). */
  refundLimit(spend: Pick<LimitSpend, 'key' | 'windowStart' | 'amount'>): Promise<void>;
  /** Where a counter stands, writing nothing (`registry.check`): 0 for none. */
  peekLimit(key: string, windowStart: number): Promise<number>;
}

/** Capability `held`: confirmed sends wait out a tool's undo window (`holdMs`) and can be cancelled. */
export interface HeldSendStore {
  /** The `scheduled` confirmations whose `deliverAt` is at or before `now`, earliest first, at most `limit`. Reads only. */
  dueScheduled(change: { readonly now: number; readonly limit: number }): Promise<Confirmation[]>;
  /**
   * `scheduled` → `delivering` when its `deliverAt` is at or before `now`, adding one to `attempt`: one
   * conditional write, so of any number of sweeping instances (and a racing `cancel`) exactly one wins.
   */
  deliverDue(id: string, change: StoreChange): Promise<TransitionOutcome>;
  /** `scheduled` → `cancelled`: a person took the send back in its undo window. One conditional write. */
  cancel(id: string, change: StoreChange): Promise<TransitionOutcome>;
}

/**
 * What `createBundle` answers: stored with every count spent, or refused whole (`limit-reached`:
 * nothing stored, nothing counted) because `spend` would take its counter, standing at `used`, past
 * its `max`.
 */
export type BundleCreated =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: 'limit-reached'; readonly spend: LimitSpend; readonly used: number };

/** Capability `bundles`: several confirmations proposed as one (`registry.proposeBundle`). */
export interface BundleStore {
  /**
   * Stores new `pending` confirmations (a bundle's steps) together, each with its `created` audit
   * entry, and spends `spends` (what the steps count against limits, as `spendLimit` would, each within
   * its `max`) — in one transaction: all of it, or none. A spend past its `max` refuses the whole
   * bundle (`limit-reached`); any id or idempotency key existing, or the disk full, rejects. So a
   * bundle refused never counted, and a crash cannot leave a count without its bundle.
   */
  createBundle(
    confirmations: readonly Confirmation[],
    spends?: readonly LimitSpend[],
  ): Promise<BundleCreated>;
}

/**
 * Capability `idempotency`: one proposal per intent (`propose`'s and `proposeBundle`'s
 * `idempotencyKey`). `create` and `createBundle` refuse a confirmation whose `idempotency.key` another
 * kept confirmation holds — one unique index, so of any number of racing processes one stores it —
 * and the key is free again only once `prune` deleted the confirmation holding it.
 */
export interface IdempotencyStore {
  /** The kept confirmation holding `key` (`Confirmation.idempotency.key`), whatever its status, or `undefined`. */
  findKeyed(key: string): Promise<Confirmation | undefined>;
  /**
   * The newest `pending` confirmation of `query.tool` that expires after `query.now` and whose
   * `digest` is `query.digest` (`by: 'payload'`, preferred) or, failing that, whose `ref` is
   * `query.ref` (`by: 'ref'`); `undefined` for none: one indexed lookup (`propose` flags a duplicate).
   */
  findAlike(query: {
    readonly tool: string;
    readonly digest: string;
    readonly ref?: string | undefined;
    readonly now: number;
  }): Promise<{ readonly id: string; readonly by: 'payload' | 'ref' } | undefined>;
}

/** Capability `watch`: changes made by other processes sharing the store are reported. */
export interface WatchStore {
  /**
   * Calls `listener` soon after a confirmation is created or changed by *another* process sharing this
   * store (PostgreSQL `LISTEN/NOTIFY`, SQLite polling); changes made through this process's registry
   * are reported by the registry itself. Returns a function that stops watching. `listener` is never
   * called after that, and what it throws is swallowed.
   */
  watch(listener: (notice: StoreNotice) => void): () => void;
}

/** Capability `audit`: the tamper-evident audit log (`registry.audit`). A store without one logs nothing. */
export interface AuditStore {
  /** One hash chain per store, appended atomically across processes, each entry with its change. */
  readonly audit: AuditChain;
}

/**
 * An agent run as a store keeps it (`registry.beginRun`): who it is bound to, the person's words, the
 * values the app vouches for by list, and its times (epoch ms).
 */
export interface RunRecord {
  /** The run's id: calls name it as `ctx.run`. */
  readonly id: string;
  /** The actor the run is bound to: a call naming it as anyone else finds no run. */
  readonly actor?: string | undefined;
  /** The person's request, verbatim. */
  readonly request: string;
  /** The values the app vouches for, by list name (a plain list is the list `trusted`). */
  readonly trusted: Readonly<Record<string, readonly string[]>>;
  readonly startedAt: number;
  /** At or after this, the run is gone: `readRun` does not find it, `rememberRead` remembers nothing. */
  readonly expiresAt: number;
  /** True once the run stopped remembering what its agent reads (a read would have passed its bounds). */
  readonly full: boolean;
}

/** What one tool result held, as the registry read it: the keys of its values and its texts of several words. */
export interface RunRead {
  readonly tool: string;
  /** Distinct value keys (`keyOf`). */
  readonly keys: readonly string[];
  /** Its texts of several words, already `plain`: each later searched for several-word values. */
  readonly texts: readonly string[];
}

/** What a read of a run asks for: the time, and which of what its agent read. */
export interface RunLookup {
  readonly now: number;
  /** The value keys asked about (a call's destinations): only these come back in `read`. */
  readonly keys: readonly string[];
  /** Whether the result texts are wanted too (a destination of several words). */
  readonly texts: boolean;
}

/** A run as read: its record, the tools that returned each asked key, and its texts when asked. */
export interface RunSnapshot {
  readonly run: RunRecord;
  /** One entry per (asked key, tool that returned it). */
  readonly read: readonly { readonly key: string; readonly tool: string }[];
  /**
   * The texts read, with their tool (empty unless asked): each entry one read's texts, or a run of them
   * (a store may split a long read), joined by a line break.
   */
  readonly texts: readonly { readonly tool: string; readonly text: string }[];
}

/** How much one run may remember of what its agent reads, and the time of the read (epoch ms). */
export interface RunReadBounds {
  readonly now: number;
  /** Distinct (value, tool) entries a run keeps. */
  readonly maxValues: number;
  /** Characters of result text a run keeps. */
  readonly maxTextChars: number;
}

/**
 * Capability `runs`: agent runs kept where the confirmations are, so every instance and every request
 * sharing the store judges a run alike (`registry.beginRun`, `ctx.run`).
 */
export interface RunStore {
  /**
   * Stores a new run. `maxRuns` bounds a store that keeps runs in memory (it forgets its oldest past
   * it); a durable store keeps each run to its expiry. Rejects when the id exists.
   */
  beginRun(run: RunRecord, bounds: { readonly maxRuns: number }): Promise<void>;
  /**
   * One read: the run if it is kept and not expired at `lookup.now`, with the tools that returned each
   * of `lookup.keys`, and its texts when asked; `undefined` for a run unknown, ended or expired.
   */
  readRun(id: string, lookup: RunLookup): Promise<RunSnapshot | undefined>;
  /**
   * Remembers what one tool result held, in one write: all of it, or — the run gone, full, or the read
   * passing `bounds` (the run then becomes full) — none. True when it was remembered.
   */
  rememberRead(id: string, read: RunRead, bounds: RunReadBounds): Promise<boolean>;
  /** Forgets a run and what its agent read; true when it was kept. */
  endRun(id: string): Promise<boolean>;
  /** Forgets the runs expired at or before `now` and what their agents read (the sweep); returns how many. */
  pruneRuns(change: { readonly now: number }): Promise<number>;
}

/** A capability's members: all of them, or none (a store with half a group does not compile). */
type AllOrNone<Capability> = Capability | { readonly [Member in keyof Capability]?: never };

/**
 * Where confirmations live: the core methods, and each optional capability (`ReminderStore`,
 * `EscalationStore`, `LinkStore`, `QuorumStore`, `LimitStore`, `HeldSendStore`, `WatchStore`,
 * `AuditStore`, `BundleStore`, `RunStore`, `IdempotencyStore`, `PasskeyStore`) whole or not at all. The registry refuses, at construction or `register`, a tool or
 * option that needs a capability its store lacks; `hasCapability` tells at run time.
 *
 * The memory store (`createMemoryStore`), `graded-tools/sqlite` and `graded-tools/postgres` have every
 * capability (`FullConfirmationStore`) and pass the same contract suite (`graded-tools/testing`).
 */
export type ConfirmationStore = CoreStore &
  // A group of one member is all or none when it is optional: written so, the type stays a union of
  // 32 members (one per choice of the larger groups), not 2^11, which TypeScript cannot represent.
  Partial<ReminderStore> &
  Partial<EscalationStore> &
  AllOrNone<LinkStore> &
  Partial<QuorumStore> &
  AllOrNone<LimitStore> &
  AllOrNone<HeldSendStore> &
  Partial<WatchStore> &
  Partial<AuditStore> &
  AllOrNone<PasskeyStore> &
  Partial<BundleStore> &
  Partial<IdempotencyStore> &
  AllOrNone<RunStore>;

/** Each capability a store may have, by name (`hasCapability(store, 'links')`), and what it adds. */
export interface StoreCapabilities {
  readonly reminders: ReminderStore;
  readonly escalations: EscalationStore;
  readonly links: LinkStore;
  readonly quorum: QuorumStore;
  readonly limits: LimitStore;
  readonly held: HeldSendStore;
  readonly watch: WatchStore;
  readonly audit: AuditStore;
  readonly bundles: BundleStore;
  readonly runs: RunStore;
  readonly idempotency: IdempotencyStore;
  readonly passkeys: PasskeyStore;
}

/** A capability's name. */
export type StoreCapability = keyof StoreCapabilities;

type Having<Wanted extends StoreCapability, Name extends StoreCapability> = Name extends Wanted
  ? StoreCapabilities[Name]
  : unknown;

/**
 * A store that has the capabilities `Wanted` (and may have others): what a function that needs them
 * takes, and what a store that has them returns.
 *
 * @example
 * ```ts
 * import type { StoreWith } from 'graded-tools/store';
 *
 * async function linkCount(store: StoreWith<'links'>, hashes: string[]): Promise<number> {
 *   const found = await Promise.all(hashes.map((hash) => store.findLink(hash)));
 *   return found.filter((link) => link !== undefined).length;
 * }
 * ```
 */
export type StoreWith<Wanted extends StoreCapability> = CoreStore &
  Having<Wanted, 'reminders'> &
  Having<Wanted, 'escalations'> &
  Having<Wanted, 'links'> &
  Having<Wanted, 'quorum'> &
  Having<Wanted, 'limits'> &
  Having<Wanted, 'held'> &
  Having<Wanted, 'watch'> &
  Having<Wanted, 'audit'> &
  Having<Wanted, 'bundles'> &
  Having<Wanted, 'runs'> &
  Having<Wanted, 'idempotency'> &
  Having<Wanted, 'passkeys'>;

/** A store with every capability, as the SQLite and PostgreSQL stores are (the memory store has all but `watch`). */
export type FullConfirmationStore = StoreWith<StoreCapability>;

/** Statuses `prune` may delete: nothing is left to decide about them. */
export const FINISHED_STATUSES: readonly ConfirmationStatus[] = [
  'delivered',
  'rejected',
  'expired',
  'cancelled',
];
