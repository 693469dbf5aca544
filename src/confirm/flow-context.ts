import { isAuditWriteError } from '../audit/audit-chain.js';
import type { AuditSink } from '../audit/audit-sink.js';
import type { Confirmation } from '../confirmation.js';
import { type ConfirmationAction, type EventListener, emitSafely } from '../events.js';
import type { JsonSchema } from '../json-schema.js';
import { formatMessage, type Locale, type MessageParams } from '../messages/index.js';
import type { PasskeyVerifier } from '../passkeys/passkey-verifier.js';
import type { CompiledRule } from '../policy/rules/compile-rules.js';
import { type ErrorCode, failure } from '../result.js';
import type { ConfirmationStore } from '../stores/store.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { Approval } from '../tool.js';
import type { ToolInfo } from '../tool-info.js';
import type { EscalationPlan } from '../tools/escalation-steps.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { ValidationOutcome } from '../validation/validator.js';
import type { ApproverNotices } from './notices/approver-notices.js';
import type { ChangeWatchers } from './notices/change-watchers.js';
import type { ConfirmationFailure } from './types.js';

/** A registered `send` tool as the confirmation path needs it. */
/** Where a confirmed call runs: the scope it was confirmed in, and the app's `context` given to the confirm. */
export interface RunIn {
  readonly scope: string | undefined;
  readonly context: unknown;
}

export interface SendToolHandle {
  readonly info: ToolInfo;
  /** A send's `deliver`, or a confirmed write's `run` in `runIn` (a send's `deliver` gets the approval only). */
  readonly deliver: (payload: unknown, approval: Approval, runIn: RunIn) => unknown;
  /** What a person may edit before confirming, when the tool declares `payloadSchema`. */
  readonly edit: EditRules | undefined;
  /** `payloadSchema` as JSON Schema, for a confirmation screen. */
  readonly payloadSchema: JsonSchema | undefined;
}

/**
 * What the registry lends the confirmation path: its store, clock and settings, and a way to find a
 * send tool as registered *now* (so one unregistered or regated since is refused).
 */
export interface ConfirmationFlowSettings {
  readonly store: ConfirmationStore;
  readonly now: () => number;
  readonly ttlMs: number;
  readonly requireDigest: boolean;
  /** Four eyes: `confirm`, `retry` and `markDelivered` refuse the person who asked (`SAME_PERSON`). */
  readonly requireDifferentApprover: boolean;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly onEvent: EventListener | undefined;
  readonly sendTool: (name: string) => SendToolHandle | undefined;
  /** The longest `timeoutMs` of the send and write tools registered now (the default when none sets one). */
  readonly longestDeliveryTimeoutMs: () => number;
  readonly describeError: (error: unknown, tool: string) => string;
  /** Who tells approvers (the registry's `notify`), if anyone. */
  readonly notices: ApproverNotices | undefined;
  /** A reminder this long before expiry, from `sweep` (0: none). */
  readonly remindBeforeMs: number;
  /** The escalation steps of the tools registered now, for `sweep` (empty: none). */
  readonly escalations: () => readonly EscalationPlan[];
  /** Traces each confirm, retry, reject and markDelivered as a span, when the registry traces. */
  readonly telemetry: Telemetry | undefined;
  /**
   * Where a rule's refusal of a person's edit is appended (it changes nothing else, so it is an entry
   * of its own); each change's entry is committed by the store with the change.
   */
  readonly audit?: AuditSink | undefined;
  /** The registry's passkey verifier (`graded-tools/passkeys`), for confirmations that require one. */
  readonly passkeys?: PasskeyVerifier | undefined;
}

/** Builds a failure in the caller's language, carrying the confirmation when there is one. */
export type Fail = (
  code: ErrorCode,
  params: MessageParams,
  confirmation?: Confirmation,
) => ConfirmationFailure;

/**
 * What every step of the confirmation path shares: the registry's settings, who watches, and the
 * deliveries this process is running now (never to be called stale by a sweep).
 */
export interface FlowContext extends ConfirmationFlowSettings {
  readonly watchers: ChangeWatchers;
  /** Ids whose `deliver` this process is running right now. */
  readonly running: Set<string>;
  /** Bundles this process is carrying forward right now (`carryBundle`), and by how many carries. */
  readonly carrying: Map<string, number>;
  /**
   * Reports a step to the registry's listener, to watchers and to notices. The step's audit entry is
   * not written here: the store committed it with the change itself. For a bundle's step it then
   * carries the bundle on (`afterBundleStep`) unless `carry` is false. Never throws or rejects.
   */
  readonly emit: (
    action: ConfirmationAction,
    confirmation: Confirmation,
    by?: string,
    carry?: boolean,
  ) => Promise<void>;
  /** Reports a link spent by a decision, or refused before one (`failure`); never the token. */
  readonly emitLink: (
    id: string,
    outcome: { readonly approver: string } | (ConfirmationFailure & { readonly reason?: string | undefined }),
  ) => void;
}

const DONE: Promise<void> = Promise.resolve();

/** What a bundle's step changing means for the steps after it (`afterBundleStep`), lent by the flow. */
export type BundleCarrier = (action: ConfirmationAction, confirmation: Confirmation) => Promise<void>;

/** The context the flow's steps share, with its one `emit`. */
export function flowContext(
  settings: ConfirmationFlowSettings,
  watchers: ChangeWatchers,
  carrier: { current: BundleCarrier | undefined },
): FlowContext {
  const emit = (
    action: ConfirmationAction,
    confirmation: Confirmation,
    by?: string,
    carry = true,
  ): Promise<void> => {
    watchers.notify({ id: confirmation.id });
    const { notices, onEvent, now } = settings;
    const { bundle } = confirmation;
    // A bundle is announced once, as a whole: by its first step's notice (the card lists every step).
    if (notices !== undefined && (bundle === undefined || bundle.index === 0 || action !== 'created')) {
      if (action === 'created') notices.created(confirmation);
      else if (action !== 'confirmed' && action !== 'approved' && action !== 'escalated')
        notices.decided(confirmation, action);
    }
    emitSafely(onEvent, {
      type: 'confirmation',
      action,
      confirmationId: confirmation.id,
      tool: confirmation.tool,
      ...(by === undefined ? {} : { by }),
      ...(bundle === undefined ? {} : { bundle: { id: bundle.id, index: bundle.index } }),
      at: now(),
    });
    if (bundle === undefined || !carry || carrier.current === undefined) return DONE;
    return carrier.current(action, confirmation).catch(() => {});
  };
  const emitLink: FlowContext['emitLink'] = (id, outcome) => {
    const at = settings.now();
    const confirmationId = id.slice(0, 128);
    if ('approver' in outcome) {
      emitSafely(settings.onEvent, {
        type: 'link',
        action: 'used',
        confirmationId,
        approver: outcome.approver,
        at,
      });
      return;
    }
    const { reason } = outcome;
    emitSafely(settings.onEvent, {
      type: 'link',
      action: 'refused',
      confirmationId,
      code: outcome.code,
      ...(reason === undefined ? {} : { reason }),
      at,
    });
  };
  return { ...settings, watchers, running: new Set(), carrying: new Map(), emit, emitLink };
}

/** A failure builder in `locale`. */
export function failureIn(locale: Locale): Fail {
  return (code, params, confirmation) => {
    const base = failure(code, formatMessage(code, params, locale));
    return confirmation === undefined ? base : { ...base, confirmation };
  };
}

export function alreadyDecided(fail: Fail, record: Confirmation): ConfirmationFailure {
  // A write was applied, not delivered: the caller reads what happened to their change.
  const status = record.sideEffect === 'write' && record.status === 'delivered' ? 'applied' : record.status;
  return fail('ALREADY_DECIDED', { status }, record);
}

/** The `STORE_FAILED` detail for what a store threw or rejected with. */
export function storeFailure(error: unknown): string {
  return describeThrown(error).slice(0, 500);
}

/**
 * The code for what a store threw: `AUDIT_FAILED` when the change's audit entry could not be written
 * (so the change was not made either), otherwise `STORE_FAILED`.
 */
export function storeFailureCode(error: unknown): 'AUDIT_FAILED' | 'STORE_FAILED' {
  return isAuditWriteError(error) ? 'AUDIT_FAILED' : 'STORE_FAILED';
}

/** The failure for what a store threw: `AUDIT_FAILED` or `STORE_FAILED`, with the detail. */
export function storeFailed(fail: Fail, error: unknown, confirmation?: Confirmation): ConfirmationFailure {
  return fail(storeFailureCode(error), { detail: storeFailure(error) }, confirmation);
}

/** A store call's value, or the failure's code and detail: a store that throws never reaches the host. */
export async function callStore<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: 'AUDIT_FAILED' | 'STORE_FAILED'; detail: string }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, code: storeFailureCode(error), detail: storeFailure(error) };
  }
}

/** Marks one pending confirmation past its expiry as `expired`; the answer is `EXPIRED` either way. */
export async function expireOne(
  ctx: FlowContext,
  record: Confirmation,
  now: number,
  fail: Fail,
): Promise<ConfirmationFailure> {
  const expired = await callStore(() => ctx.store.expire({ now, id: record.id }));
  const changed = expired.ok ? expired.value[0] : undefined;
  if (changed !== undefined) await ctx.emit('expired', changed);
  return fail('EXPIRED', {}, changed ?? record);
}

/**
 * `fail` for a decision made through a link (`token` given): every refusal is also reported as the
 * link refused, with its reason, never the token.
 */
export function reportingLinkRefusals(
  ctx: FlowContext,
  id: string,
  token: string | undefined,
  fail: Fail,
): Fail {
  if (token === undefined) return fail;
  return (code, params, confirmation) => {
    const failure = fail(code, params, confirmation);
    ctx.emitLink(id, code === 'LINK_REFUSED' ? { ...failure, reason: params.detail } : failure);
    return failure;
  };
}

/** What a send tool allows a person to change: its `editable` fields, its `payloadSchema`'s check, its rules. */
export interface EditRules {
  readonly editable: readonly string[];
  /** The edited payload against `payloadSchema`; a string when the schema cannot be used. */
  readonly check: (payload: unknown) => Promise<ValidationOutcome | string>;
  /** The tool's rules, which judge the edited call too (`judgeEdit`). */
  readonly rules: readonly CompiledRule[];
}
