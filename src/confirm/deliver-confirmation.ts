import { GuardedCall, type GuardedOutcome } from '../invoke/run-guarded.js';
import type { Locale } from '../messages/index.js';
import { refusalFor } from '../policy/gates.js';
import type { Approval } from '../tool.js';
import { describeThrown } from '../util/describe-thrown.js';
import { approvalFor } from './approval.js';
import { isConfirmationIdShape } from './confirmation-id.js';
import { digestOf, snapshotJson, writeCanonical } from './digest.js';
import { expireOne } from './expire-one.js';
import { type ConfirmFlow, callStore, confirmationFailure, emitConfirmation, storeFailure } from './flow.js';
import { directCall, hasVerifiedDigest } from './in-process-store.js';
import { fromIso } from './iso-time.js';
import { nameProblem, storableText } from './labels.js';
import type { FinishChange, TransitionOutcome } from './store.js';
import { thawedCopy } from './thawed-copy.js';
import type { Confirmation, ConfirmationFailure, ConfirmOptions, ConfirmResult } from './types.js';

/** True for 64 lowercase hex digits: the shape of a digest (checked on every confirm, so no regex). */
function isDigestShape(text: string): boolean {
  if (text.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const code = text.charCodeAt(i);
    if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return true;
}

/** `confirm` approves a pending confirmation; `retry` re-delivers an `unknown` or `failed` one. */
export type DeliveryMode = 'confirm' | 'retry';

/**
 * A person's approval, then exactly one delivery. The order:
 *
 * 1. look up → 2. expired? (mark it, `EXPIRED`) → 3. digest (`PAYLOAD_CHANGED`) → 4. tool and gates
 * → 5. claim (`ALREADY_DECIDED` for every loser) → 6. deliver → 7. record the outcome.
 *
 * Why the checks come before the claim: a refused confirm must leave the confirmation `pending`, so the
 * right approver (with the flag, in the scope, looking at the right payload) can still confirm it.
 * Claiming first would need an "unclaim" — a second write that a crash can skip, leaving a never-sent
 * confirmation stuck in `delivering`, and a window where a concurrent confirm is wrongly told
 * `ALREADY_DECIDED`. Checking on the snapshot is sound because what the checks read is fixed at
 * creation (payload, digest, tool, scope) or comes from the approver and the registry now; the one
 * thing that changes — the status, and with the clock, expiry — is decided again, atomically, by the
 * claim itself (`pending` and not yet expired).
 */
export async function deliverConfirmation(
  flow: ConfirmFlow,
  id: string,
  options: ConfirmOptions,
  mode: DeliveryMode,
): Promise<ConfirmResult> {
  const locale = options?.locale ?? flow.locale;
  try {
    if (!isConfirmationIdShape(id)) return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
    const approvedBy = options?.approvedBy;
    const who = nameProblem(approvedBy, 'approvedBy');
    if (who !== undefined) return confirmationFailure('INVALID_OPTION', { detail: who }, locale);
    // Compared in lower case: a digest shown in capitals is the same digest.
    const shown = typeof options.digest === 'string' ? options.digest.toLowerCase() : options.digest;
    if (shown !== undefined && (typeof shown !== 'string' || !isDigestShape(shown))) {
      return confirmationFailure(
        'INVALID_OPTION',
        { detail: '`digest` must be the 64-character hex digest the person was shown' },
        locale,
      );
    }
    if (shown === undefined && flow.requireDigest) {
      return confirmationFailure(
        'INVALID_OPTION',
        { detail: 'this registry requires the `digest` the person was shown' },
        locale,
      );
    }
    if (options.signal?.aborted) return confirmationFailure('ABORTED', {}, locale);

    // 1. Look up. Always awaited, even from the memory store: a confirm never acts before its caller
    // has regained control, so a signal aborted right after calling it still stops it here.
    let record: Confirmation | undefined;
    try {
      record = await flow.store.get(id);
    } catch (error) {
      return confirmationFailure('STORE_FAILED', { detail: storeFailure(error) }, locale);
    }
    if (record === undefined) return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
    const now = flow.now();

    // 2. Status and expiry. A retry re-delivers something a person already approved once; the expiry
    // bounds how long a *pending* approval stays open, so it does not apply to a retry.
    if (mode === 'confirm') {
      if (record.status === 'expired') return confirmationFailure('EXPIRED', {}, locale, record);
      if (record.status !== 'pending') return alreadyDecided(record, locale);
      if (fromIso(record.expiresAt) <= now) return expireOne(flow, record, now, locale);
    } else if (record.status !== 'unknown' && record.status !== 'failed') {
      return alreadyDecided(record, locale);
    }

    // 3. Digest: recomputed from the stored payload, so an edited row is caught even without `digest`.
    // Only a memory-store record whose payload is the frozen snapshot digested at create is spared.
    const verified = hasVerifiedDigest(flow.store, record);
    if (!verified && digestOf(writeCanonical(record.payload)) !== record.digest)
      return confirmationFailure('PAYLOAD_CHANGED', { detail: 'stored' }, locale, record);
    if (shown !== undefined && shown !== record.digest)
      return confirmationFailure('PAYLOAD_CHANGED', {}, locale, record);

    // 4. The tool as registered now, through the one gate function, with the approver's flags and scope.
    const tool = flow.sendTool(record.tool);
    if (tool === undefined) return confirmationFailure('UNKNOWN_TOOL', { tool: record.tool }, locale, record);
    const scope = options.scope ?? record.scope;
    const refusal = refusalFor(tool.info, { flags: options.flags, scope }, 'person');
    if (refusal !== undefined)
      return confirmationFailure(refusal, { tool: record.tool, scope }, locale, record);
    if (options.signal?.aborted) return confirmationFailure('ABORTED', {}, locale, record);

    // 5. Claim: the single atomic step; of any number of concurrent confirms exactly one gets past it.
    const change = { now, by: approvedBy as string };
    let claim: TransitionOutcome;
    try {
      const direct = mode === 'confirm' ? directCall(flow.store, 'claim') : undefined;
      if (direct !== undefined) claim = direct(id, change);
      else claim = await (mode === 'confirm' ? flow.store.claim(id, change) : flow.store.reclaim(id, change));
    } catch (error) {
      return confirmationFailure('STORE_FAILED', { detail: storeFailure(error) }, locale, record);
    }
    if (!claim.ok) {
      if (claim.reason === 'not-found') return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
      if (claim.reason === 'expired') return expireOne(flow, claim.confirmation, now, locale);
      if (claim.confirmation.status === 'expired')
        return confirmationFailure('EXPIRED', {}, locale, claim.confirmation);
      return alreadyDecided(claim.confirmation, locale);
    }
    emitConfirmation(flow, 'confirmed', claim.confirmation, change.by);

    // 6. Deliver what was digested: a fresh copy of the stored payload (in its own key order), so a
    // `deliver` that changes its argument cannot change the record.
    const timeoutMs = tool.info.timeoutMs ?? flow.defaultTimeoutMs;
    const payload: unknown = verified
      ? thawedCopy(record.payload, true)
      : JSON.parse(JSON.stringify(record.payload));
    const answered = deliverClaimed(flow, claim.confirmation, tool.deliver, payload, timeoutMs, options);
    return answered instanceof Promise ? await answered : answered;
  } catch (error) {
    // Defence in depth: nothing here may turn into an exception for the host.
    return confirmationFailure('RUN_FAILED', { detail: describeThrown(error) }, locale);
  }
}

function alreadyDecided(record: Confirmation, locale: Locale): ConfirmationFailure {
  return confirmationFailure('ALREADY_DECIDED', { status: record.status }, locale, record);
}

/** What a guarded call's outcome is mapped to: itself (one function for every call, not a closure each). */
const asIs = <T>(outcome: T): T => outcome;

/**
 * Runs `deliver` with the tool's timeout and records how it ended (7). Without a promise of ours
 * when `deliver` answers at once and the store is the memory store.
 */
function deliverClaimed(
  flow: ConfirmFlow,
  claimed: Confirmation,
  deliver: (payload: unknown, approval: Approval) => unknown,
  payload: unknown,
  timeoutMs: number,
  options: ConfirmOptions,
): ConfirmResult | Promise<ConfirmResult> {
  const guard = new GuardedCall(timeoutMs, options.signal);
  const approval = approvalFor(claimed.id, options.approvedBy, guard);
  const settled = guard.run(() => deliver(payload, approval), asIs);
  // A `deliver` that returns a plain value has finished: no need to wait a turn for it.
  if (settled instanceof Promise) {
    return settled.then((outcome) => recordOutcome(flow, claimed, outcome, timeoutMs, options));
  }
  return recordOutcome(flow, claimed, settled, timeoutMs, options);
}

function recordOutcome(
  flow: ConfirmFlow,
  claimed: Confirmation,
  outcome: GuardedOutcome<unknown>,
  timeoutMs: number,
  options: ConfirmOptions,
): ConfirmResult | Promise<ConfirmResult> {
  const now = flow.now();
  if (outcome.kind !== 'ok') return recordFailure(flow, claimed, outcome, now, timeoutMs, options);
  const data = outcome.value === undefined ? null : outcome.value;
  const direct = directCall(flow.store, 'finish');
  if (direct === undefined) {
    const result = snapshotJson(data);
    const change: FinishChange = result.ok
      ? { now, attempt: claimed.attempt, status: 'delivered', resultJson: JSON.stringify(result.value) }
      : { now, attempt: claimed.attempt, status: 'delivered', note: NOT_JSON };
    return recordDelivered(flow, claimed, data, change, options);
  }
  // The memory store keeps the frozen snapshot itself: exactly what parsing its JSON text would give.
  const result = snapshotJson(data, 'frozen-as-json');
  let finished: TransitionOutcome;
  try {
    finished = result.ok
      ? direct(claimed.id, { now, attempt: claimed.attempt, status: 'delivered' }, result)
      : direct(claimed.id, { now, attempt: claimed.attempt, status: 'delivered', note: NOT_JSON });
  } catch (error) {
    return deliveredButNotRecorded(flow, claimed, error, options);
  }
  return delivered(flow, claimed, data, finished);
}

const NOT_JSON = 'the result is not JSON and was not stored';

async function recordDelivered(
  flow: ConfirmFlow,
  claimed: Confirmation,
  data: unknown,
  change: FinishChange,
  options: ConfirmOptions,
): Promise<ConfirmResult> {
  let finished: TransitionOutcome;
  try {
    finished = await flow.store.finish(claimed.id, change);
  } catch (error) {
    return deliveredButNotRecorded(flow, claimed, error, options);
  }
  return delivered(flow, claimed, data, finished);
}

function delivered(
  flow: ConfirmFlow,
  claimed: Confirmation,
  data: unknown,
  finished: TransitionOutcome,
): ConfirmResult {
  emitConfirmation(flow, 'delivered', claimed);
  // Refused only when a newer attempt or a person's decision came first; the delivery still happened.
  return { ok: true, data, confirmation: finished.ok ? finished.confirmation : claimed };
}

function deliveredButNotRecorded(
  flow: ConfirmFlow,
  claimed: Confirmation,
  error: unknown,
  options: ConfirmOptions,
): ConfirmationFailure {
  emitConfirmation(flow, 'delivered', claimed);
  return confirmationFailure(
    'STORE_FAILED',
    {
      detail: `it was delivered, but recording that failed (${storeFailure(error)}); it stays "delivering" until recoverStale marks it unknown`,
    },
    options.locale ?? flow.locale,
    claimed,
  );
}

/** `deliver` threw, timed out or was cancelled: recorded as failed or unknown, for a person to settle. */
async function recordFailure(
  flow: ConfirmFlow,
  claimed: Confirmation,
  outcome: Exclude<GuardedOutcome<unknown>, { kind: 'ok' }>,
  now: number,
  timeoutMs: number,
  options: ConfirmOptions,
): Promise<ConfirmResult> {
  const failedOutright = outcome.kind === 'threw';
  const error = storableText(
    outcome.kind === 'threw'
      ? safeDescribe(flow, outcome.error, claimed.tool)
      : outcome.kind === 'timeout'
        ? `it did not finish within ${timeoutMs} ms; it may or may not have been delivered`
        : 'it was cancelled while delivering; it may or may not have been delivered',
  );
  // A throw is the tool saying "not sent". A timeout or a cancel only means we stopped waiting: the
  // send may still have arrived, so the honest status is unknown, for a person to settle.
  const status = failedOutright ? 'failed' : 'unknown';
  const finished = await callStore(() =>
    flow.store.finish(claimed.id, { now, attempt: claimed.attempt, status, error }),
  );
  emitConfirmation(flow, status, claimed);
  const current = finished.ok && finished.value.ok ? finished.value.confirmation : claimed;
  return confirmationFailure(
    'DELIVERY_FAILED',
    { tool: claimed.tool, detail: error },
    options.locale ?? flow.locale,
    current,
  );
}

function safeDescribe(flow: ConfirmFlow, error: unknown, tool: string): string {
  try {
    return flow.describeError(error, tool).slice(0, 2_000);
  } catch {
    return describeThrown(error);
  }
}
