import type { Origins, ValueOrigins } from './origins/origin.js';
import type { ApprovalRequirement } from './rule.js';

export type { Origin, Origins, ValueOrigin, ValueOrigins } from './origins/origin.js';

/**
 * Where a confirmation stands.
 * - `pending`: prepared, waiting for a person to confirm or reject it.
 * - `scheduled`: confirmed, for a send tool with `holdMs`: it waits until `deliverAt` (the undo window),
 *   then a `sweep` delivers it; until then the approver (or anyone `authorize` allows) may `cancel` it.
 * - `delivering`: claimed by one confirmer; `deliver` is running (or the process died while it ran).
 * - `delivered`: `deliver` returned; the result is recorded.
 * - `failed`: `deliver` threw; a person may `retry` it or `markDelivered`.
 * - `rejected`: a person said no. Final.
 * - `expired`: nobody confirmed it in time. Final.
 * - `cancelled`: a scheduled send taken back before its time; nothing was sent. Final.
 * - `unknown`: nobody knows whether it was delivered (a crash or a timeout inside `deliver`); a person
 *   decides with `markDelivered` or `retry`. Nothing re-delivers it on its own.
 */
export type ConfirmationStatus =
  | 'pending'
  | 'scheduled'
  | 'delivering'
  | 'delivered'
  | 'failed'
  | 'rejected'
  | 'expired'
  | 'cancelled'
  | 'unknown';

/** Every status, in the order a confirmation usually moves through them. */
export const CONFIRMATION_STATUSES: readonly ConfirmationStatus[] = [
  'pending',
  'scheduled',
  'delivering',
  'delivered',
  'failed',
  'rejected',
  'expired',
  'cancelled',
  'unknown',
];

/** One step in a confirmation's life: the audit trail a person reads before deciding. */
export interface ConfirmationHistoryEntry {
  /** When it happened (ISO 8601, UTC). */
  readonly at: string;
  /** The status the confirmation moved to. */
  readonly status: ConfirmationStatus;
  /** Who did it: the asker, the approver, the person who rejected it. Absent for the system's own steps. */
  readonly by?: string;
  /** Why: a rejection reason, a delivery error, a recovery note. */
  readonly note?: string;
  /** One approval of several (`requires.approvals`): how many there are now for this payload, of how many. */
  readonly approval?: { readonly count: number; readonly needed: number };
  /** On the claim of a confirmation a person edited: the digest before, the digest after, what changed. */
  readonly edit?: {
    readonly fromDigest: string;
    readonly toDigest: string;
    readonly fields: readonly string[];
  };
  /** An escalation `registry.sweep()` announced: which step of `escalate` (1 for the first). */
  readonly escalated?: { readonly step: number };
}

/**
 * A prepared `send` waiting for (or past) a person's decision. Every time is an ISO 8601 UTC string,
 * like `ConfirmRequired.expiresAt`; `input`, `payload` and `result` are JSON values.
 */
export interface Confirmation {
  /** Unguessable (128 random bits); the idempotency key `deliver` hands to the downstream API. */
  readonly id: string;
  /** The tool's internal name (`message.send`). */
  readonly tool: string;
  /**
   * `'write'` when confirming applies a change (a write tool's `run`, given the input as the payload)
   * rather than delivering a send; absent on a send. Every surface words it by this: "Confirm and
   * apply", "Applied at …".
   */
  readonly sideEffect?: 'send' | 'write';
  /** The validated input the person gave. */
  readonly input: unknown;
  /** What `prepare` built: what the person is shown and what `deliver` gets. */
  readonly payload: unknown;
  /** `payloadDigest(tool, payload)`: SHA-256 (hex) of the canonical JSON of `{ payload, tool }`. */
  readonly digest: string;
  /** Who asked (`InvokeContext.actor`). */
  readonly actor?: string;
  /** The scope the person asked in. */
  readonly scope?: string;
  /** Why the asker wants this sent (`propose`'s `note`): plain text, shown to the approver. */
  readonly note?: string;
  /** Where the approver can read more (`propose`'s `links`): http(s) only. */
  readonly links?: readonly ConfirmationLink[];
  /** The app's own reference (`propose`'s `ref`): a conversation, a ticket, a workflow id. */
  readonly ref?: string;
  /**
   * Proposed with an `idempotencyKey` (`propose`, or a bundle's first step): the key as scoped and
   * digested, which no other confirmation in the store holds, and the digest of what was asked.
   */
  readonly idempotency?: ConfirmationIdempotency;
  /**
   * When it was proposed, another pending confirmation of the same tool had the same payload digest:
   * its id (the newest). Every surface flags it ("another pending refund with the same payload: #…"),
   * so a double refund is not one click away. Absent on a store without the `idempotency` capability.
   */
  readonly alike?: { readonly id: string };
  readonly createdAt: string;
  /** After this, it can no longer be confirmed. */
  readonly expiresAt: string;
  /** When the status last changed. */
  readonly updatedAt: string;
  /** A send held for its undo window (`holdMs`): when a sweep delivers it, unless someone cancels it. */
  readonly deliverAt?: string;
  readonly status: ConfirmationStatus;
  /** How many times delivery was started (0 while pending; a `retry` adds one). */
  readonly attempt: number;
  /** What `deliver` returned (`delivered` only). */
  readonly result?: unknown;
  /** Why delivery failed or is unknown. */
  readonly error?: string;
  /** Every step, oldest first. */
  readonly history: readonly ConfirmationHistoryEntry[];
  /**
   * What the tool's rules asked of the approvers when it was asked: how many different people, holding
   * which flags. Absent: one person, as the registry's gates and four eyes say.
   */
  readonly requires?: ApprovalRequirement;
  /**
   * The approvals so far, short of `requires.approvals` (the last one claims it): each by a different
   * person, for the payload's current `digest` (an edit starts the count again).
   */
  readonly approvals?: readonly ConfirmationApproval[];
  /**
   * Asked within an agent run (`ctx.run`) of a tool that declares `destinations`: per destination field,
   * where its value came from — named in the person's `request`, one of the app's `trusted` values, only
   * in what the agent read from a tool, or nowhere (`none`: made up). Absent outside a run.
   */
  readonly origins?: Origins;
  /**
   * The same, per value (`origins` is their union per field, which rules read): the card says which
   * recipient came from where. Absent outside a run.
   */
  readonly originValues?: ValueOrigins;
  /**
   * The tool declares `destinations` but the call named no agent run: where its destinations came from
   * was not recorded, and every surface says so ("proposed outside an agent run").
   */
  readonly originsOutsideRun?: true;
  /**
   * What the call counted against limits that count on delivery (`count: 'delivered'`): given back in
   * the same write that moves it to `rejected`, `expired`, `cancelled` or `failed` (and counted again,
   * in the write, when a person retries a failed one or marks it delivered). Absent: nothing to give back.
   */
  readonly counted?: readonly CountedLimit[];
  /**
   * Proposed as one step of a bundle (`registry.proposeBundle`): decided with the others as one
   * (`confirmBundle`), delivered only after the step before it was delivered, stopped when one before
   * it was rejected, expired, cancelled or failed.
   */
  readonly bundle?: ConfirmationBundle;
}

/** One count a confirmation holds against a rule's limit (`Confirmation.counted`). */
export interface CountedLimit {
  /** The rule whose limit it counts against. */
  readonly rule: string;
  /** The counter, as the store keys it. */
  readonly key: string;
  /** The window it was counted in (epoch ms). */
  readonly windowStart: number;
  /** When that window ends (epoch ms): a count given again after a retry goes to the same window. */
  readonly windowEnd: number;
  readonly amount: number;
}

/**
 * What a confirmation proposed with an `idempotencyKey` keeps: `key`, SHA-256 (hex) of the key with its
 * scope (the tool and the actor for `propose`, the actor for a bundle), unique in its store while the
 * confirmation is kept; `intent`, SHA-256 (hex) of the tool and input asked (a bundle: every step's).
 */
export interface ConfirmationIdempotency {
  readonly key: string;
  readonly intent: string;
}

/** Where a confirmation stands in its bundle. */
export interface ConfirmationBundle {
  /** The bundle's id (what `confirmBundle`, `rejectBundle` and `waitFor` take). */
  readonly id: string;
  /** This step's place, from 0. */
  readonly index: number;
  /** How many steps the bundle has. */
  readonly size: number;
  /** The bundle digest: SHA-256 over every step's digest, in order (`bundleDigest`). */
  readonly digest: string;
}

/** One person's approval of a confirmation that needs several. */
export interface ConfirmationApproval {
  readonly by: string;
  /** When (ISO 8601, UTC). */
  readonly at: string;
  /** The payload digest they approved. */
  readonly digest: string;
}

/** A link the asker attached for the approver: a label and an http(s) URL. */
export interface ConfirmationLink {
  readonly label: string;
  readonly url: string;
}

/** @internal A record's fields, writable while a new record or version of one is being built. */
export type Draft = { -readonly [K in keyof Confirmation]: Confirmation[K] };
