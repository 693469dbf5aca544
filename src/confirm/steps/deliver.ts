import type { Confirmation } from '../../confirmation.js';
import { GuardedCall, type GuardedOutcome } from '../../invoke/guarded-call.js';
import { storableText } from '../../policy/labels.js';
import type { FinishChange, TransitionOutcome } from '../../stores/store.js';
import type { Approval } from '../../tool.js';
import { snapshotJson } from '../../util/canonical-json.js';
import { describeThrown } from '../../util/describe-thrown.js';
import {
  callStore,
  type Fail,
  type FlowContext,
  type RunIn,
  type SendToolHandle,
  storeFailure,
} from '../flow-context.js';
import type { ConfirmResult } from '../types.js';

const NOT_JSON = 'the result is not JSON and was not stored';

/** What one claimed delivery needs. */
export interface ClaimedDelivery {
  readonly claimed: Confirmation;
  readonly tool: SendToolHandle;
  readonly payload: unknown;
  readonly approvedBy: string;
  readonly signal: AbortSignal | undefined;
  /** What a confirmed write's `run` is handed as its scope and context. */
  readonly runIn: RunIn;
  readonly fail: Fail;
}

/**
 * Runs `deliver` once, with the tool's timeout, then records how it ended. While it runs, the id is
 * in `ctx.running`, so no sweep of this process calls it stale.
 */
export async function deliverOnce(ctx: FlowContext, call: ClaimedDelivery): Promise<ConfirmResult> {
  const { claimed, tool, payload, approvedBy, signal, runIn } = call;
  const timeoutMs = tool.info.timeoutMs ?? ctx.defaultTimeoutMs;
  const guard = new GuardedCall(timeoutMs, signal);
  // The signal is made only if `deliver` reads it.
  const approval: Approval = {
    confirmationId: claimed.id,
    approvedBy,
    get signal() {
      return guard.signal;
    },
  };
  ctx.running.add(claimed.id);
  try {
    const outcome = await guard.run(() => tool.deliver(payload, approval, runIn), asIs);
    return await recordOutcome(ctx, { claimed, outcome, timeoutMs, fail: call.fail });
  } finally {
    ctx.running.delete(claimed.id);
  }
}

/**
 * Records how delivery attempt `claimed.attempt` ended. A throw is the tool saying "not sent":
 * `failed`. A timeout or a cancel only means we stopped waiting — it may still have arrived — so
 * the honest status is `unknown`, for a person to settle.
 */
async function recordOutcome(
  ctx: FlowContext,
  call: {
    readonly claimed: Confirmation;
    readonly outcome: GuardedOutcome<unknown>;
    readonly timeoutMs: number;
    readonly fail: Fail;
  },
): Promise<ConfirmResult> {
  const { claimed, outcome, fail } = call;
  const now = ctx.now();
  const attempt = claimed.attempt;
  if (outcome.kind === 'ok') {
    const data = outcome.value === undefined ? null : outcome.value;
    const result = snapshotJson(data);
    const change: FinishChange = result.ok
      ? { now, attempt, status: 'delivered', resultJson: JSON.stringify(result.value) }
      : { now, attempt, status: 'delivered', note: NOT_JSON };
    let finished: TransitionOutcome;
    try {
      finished = await ctx.store.finish(claimed.id, change);
    } catch (error) {
      await ctx.emit('delivered', claimed);
      const detail = `it was delivered, but recording that failed (${storeFailure(error)}); it stays "delivering" until recoverStale marks it unknown`;
      return fail('STORE_FAILED', { detail }, claimed);
    }
    await ctx.emit('delivered', claimed);
    // Refused only when a newer attempt or a person's decision came first; the delivery still happened.
    return { ok: true, data, confirmation: finished.ok ? finished.confirmation : claimed };
  }
  const error = storableText(
    outcome.kind === 'threw'
      ? describeError(ctx, outcome.error, claimed.tool)
      : outcome.kind === 'timeout'
        ? `it did not finish within ${call.timeoutMs} ms; it may or may not have been delivered`
        : 'it was cancelled while delivering; it may or may not have been delivered',
  );
  const status = outcome.kind === 'threw' ? 'failed' : 'unknown';
  const finished = await callStore(() => ctx.store.finish(claimed.id, { now, attempt, status, error }));
  await ctx.emit(status, claimed);
  const current = finished.ok && finished.value.ok ? finished.value.confirmation : claimed;
  return fail('DELIVERY_FAILED', { tool: claimed.tool, detail: error }, current);
}

function describeError(ctx: FlowContext, error: unknown, tool: string): string {
  try {
    return String(ctx.describeError(error, tool)).slice(0, 2_000);
  } catch {
    return describeThrown(error);
  }
}

/** A guarded call's outcome as it is (one function for every call, not a closure each). */
const asIs = <T>(outcome: T): T => outcome;
