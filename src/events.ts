import type { Origin } from './confirmation.js';
import type { ErrorCode } from './result.js';
import type { CallerKind } from './tool.js';

/** How one invoke ended, for the audit log. */
export type InvokeOutcome = 'ok' | 'confirm_required' | 'refused' | 'failed';

/** One invoke or refusal. The model may have been told `UNKNOWN_TOOL`; `code` here is the real reason. */
export interface InvokeEvent {
  readonly type: 'invoke';
  /** The internal name, or for an unknown tool the name as asked (cut to 128 characters). */
  readonly tool: string;
  readonly caller: CallerKind;
  readonly outcome: InvokeOutcome;
  readonly code?: ErrorCode;
  /** Milliseconds from the call to its result. */
  readonly ms: number;
  /** When the call started (`Date.now()`). */
  readonly at: number;
  readonly scope?: string;
}

/** What happened to a confirmation. */
export type ConfirmationAction =
  | 'created'
  /** One approval of several that the tool's rules ask for; nothing is sent yet. */
  | 'approved'
  | 'confirmed'
  /** Confirmed, and held for its tool's undo window (`holdMs`): a sweep delivers it at `deliverAt`. */
  | 'scheduled'
  /** A held send taken back before its time (`registry.cancel`); nothing was sent. */
  | 'cancelled'
  | 'rejected'
  | 'delivered'
  | 'failed'
  | 'expired'
  | 'unknown'
  /** Still pending after an escalation step's `afterMs`: that step's channels were told. */
  | 'escalated';

/**
 * One step of a confirmation: asked for, confirmed (the claim was won), rejected, delivered, failed,
 * expired or given up on as unknown. Never holds the payload, so an audit sink sees no message text.
 */
export interface ConfirmationEvent {
  readonly type: 'confirmation';
  readonly action: ConfirmationAction;
  readonly confirmationId: string;
  /** The tool's internal name. */
  readonly tool: string;
  /** Who asked, confirmed, rejected or marked it; absent for the system's own steps. */
  readonly by?: string;
  /** A bundle's step (`proposeBundle`): the bundle's id, and the step's place from 0. */
  readonly bundle?: { readonly id: string; readonly index: number };
  /** When it happened (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * One attempt of one channel to tell approvers about a confirmation (`attempt: 0` with `ok: false`:
 * the channel gave up or threw). Never holds the payload.
 */
export interface NotifyEvent {
  readonly type: 'notify';
  readonly channel: string;
  readonly kind: 'created' | 'reminder' | 'decided' | 'escalated';
  /** The notice's stable id (the webhook id). */
  readonly noticeId: string;
  readonly confirmationId: string;
  readonly attempt: number;
  readonly ok: boolean;
  readonly error?: string;
  /** The receiver's HTTP status, when there was one. */
  readonly status?: number;
  readonly ms: number;
  /** When it was reported (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * A one-time approval link was issued, used (to confirm or reject), or refused (unknown, used, expired,
 * its payload changed …: `code` and `reason` say which). Never holds the token or the payload.
 */
export interface LinkEvent {
  readonly type: 'link';
  readonly action: 'issued' | 'used' | 'refused';
  readonly confirmationId: string;
  /** The approver the link is for (absent when a refused link names nobody we know). */
  readonly approver?: string;
  /** For `refused`: the failure's code (`LINK_REFUSED`, `PAYLOAD_CHANGED`, `ALREADY_DECIDED` …). */
  readonly code?: string;
  /** For `LINK_REFUSED`: `unknown`, `used` or `expired`. */
  readonly reason?: string;
  /** When it happened (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * A tool's rule decided something about a call: it refused (`deny`, `limit`), sent a `write` to a
 * person (`confirm`), asked for more approvers (`approvals`), or failed and so denied (`error`). A
 * shadow rule (`enforced: false`) reports what it would have decided and changes nothing.
 */
export interface RuleEvent {
  readonly type: 'rule';
  /** The tool's internal name. */
  readonly tool: string;
  readonly caller: CallerKind;
  /** The rule's name (`#<position>` when it has none). */
  readonly rule: string;
  readonly decision: 'deny' | 'limit' | 'confirm' | 'approvals' | 'error';
  readonly enforced: boolean;
  /** A deny's reason, a limit's state, or what went wrong. */
  readonly reason?: string;
  /** When it happened (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * A rule's refusal of a call could not be appended to the audit log (`registry.audit`); the refusal
 * stands. (A confirmation's change commits with its entry or is refused with `AUDIT_FAILED`: it never
 * raises this.) `entry` is the entry's action (`deny`, `limit`, `error`).
 */
export interface AuditEvent {
  readonly type: 'audit';
  readonly action: 'append-failed';
  readonly kind: 'confirmation' | 'rule' | 'passkey';
  readonly confirmationId?: string;
  readonly tool: string;
  readonly entry: string;
  readonly error: string;
  /** When it was reported (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * The model's exit refused an egress read (`egress` on a read tool): `value` of destination `field`
 * is not named in the run's request nor trusted; `origins` says where it was found instead.
 */
export interface EgressEvent {
  readonly type: 'egress';
  /** The tool's internal name. */
  readonly tool: string;
  readonly caller: CallerKind;
  readonly field: string;
  /** The destination as compared: a host, an address, an IBAN, a value (at most 200 characters). */
  readonly value: string;
  readonly origins: readonly Origin[];
  /** When it happened (epoch ms from the registry's clock). */
  readonly at: number;
}

/**
 * `register` took a tool it thinks is risky as defined: `EGRESS_UNDECLARED` — a read whose input takes
 * a URL but that does not declare `egress`. Without an `onEvent` listener it is a console warning.
 */
export interface DefinitionWarningEvent {
  readonly type: 'warning';
  readonly code: 'EGRESS_UNDECLARED';
  /** The tool's internal name. */
  readonly tool: string;
  readonly message: string;
}

/** Everything the registry reports through `onEvent`. */
export type RegistryEvent =
  | InvokeEvent
  | ConfirmationEvent
  | NotifyEvent
  | LinkEvent
  | RuleEvent
  | AuditEvent
  | EgressEvent
  | DefinitionWarningEvent;

/** Receives events. Whatever it throws or rejects with is swallowed: auditing never breaks an invoke. */
export type EventListener = (event: RegistryEvent) => void | Promise<void>;

/** Calls `listener` without letting it break the caller. */
export function emitSafely(listener: EventListener | undefined, event: RegistryEvent): void {
  if (listener === undefined) return;
  try {
    const returned = listener(event) as unknown;
    if (returned instanceof Promise) returned.catch(() => {});
  } catch {
    // An audit sink that throws must not change the outcome of the call it reports.
  }
}
