import type { Confirmation, ConfirmationStatus } from '../../confirmation.js';
import type { ErrorCode } from '../../result.js';
import { bundleDigest } from '../../util/bundle-digest.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { alreadyDecided, callStore, type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import type { Approving, Deciding } from '../read-options.js';
import { approve } from '../steps/approve.js';
import { checkDecision } from '../steps/check-list.js';
import { decide } from '../steps/decide.js';
import { traceConfirmationStep } from '../trace-confirmation.js';
import type { ConfirmationFailure } from '../types.js';
import { type BundleView, bundleView, firstUndelivered, readBundle, STOPPING } from './bundle-view.js';
import { carryBundle } from './carry-bundle.js';

/** A bundle decision recorded: the bundle as it is now, and which steps this person's approval counted for. */
export interface BundleDecided {
  readonly ok: true;
  readonly bundle: BundleView;
  /** The steps (from 0) this decision approved (or, for `rejectBundle`, rejected). */
  readonly steps: readonly number[];
  /**
   * `rejectBundle` only: every step (from 0) this rejection stopped — the one rejected, each held one
   * cancelled, each after it stopped. None of them goes out.
   */
  readonly stopped?: readonly number[];
  /** `rejectBundle` only: the steps (from 0) that had already gone out (or were going out) when it was rejected. */
  readonly gone?: readonly number[];
}

/** What `confirmBundle` and `rejectBundle` resolve to. Never rejects. */
export type BundleDecisionResult = BundleDecided | (ConfirmationFailure & { readonly bundle?: BundleView });

/**
 * Refusals that only say this person may not approve that step (another approver must): the step is
 * left for them, and the person's approval counts for the others.
 */
const NOT_THEIRS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'FLAG_NOT_GRANTED',
  'SCOPE_MISMATCH',
  'ALREADY_APPROVED',
  'SAME_PERSON',
]);

/**
 * A person approves a bundle whole, top to bottom: read every step → the bundle digest recomputed →
 * the one check list asked for every pending step (dry) → any refusal but "not theirs" refuses the
 * whole decision, nothing written → each step they may approve approved in order (its own quorum,
 * flags, four eyes and rules; its claim schedules it) → the bundle carried forward in order.
 *
 * Each step's approval is its own conditional write: a crash between two leaves the rest pending, and
 * approving the bundle again counts for them (the steps already approved answer `ALREADY_APPROVED`).
 */
export async function confirmBundle(
  ctx: FlowContext,
  bundleId: string,
  asked: { readonly approving: Approving; readonly fail: Fail },
): Promise<BundleDecisionResult> {
  const { approving, fail } = asked;
  try {
    const steps = await readBundle(ctx, bundleId);
    if (steps === undefined || steps.length === 0) return fail('CONFIRMATION_NOT_FOUND', {});
    const current = bundleDigest(steps.map((step) => step.digest));
    const bundle = { shown: approving.digest, current };
    const open = steps.filter((step) => step.status === 'pending');
    if (open.length === 0)
      return alreadyDecided(fail, firstUndelivered(steps) ?? (steps.at(-1) as Confirmation));
    const person = {
      id: approving.approvedBy ?? '',
      ...(approving.flags === undefined ? {} : { flags: approving.flags }),
      ...(approving.scope === undefined ? {} : { scope: approving.scope }),
    };
    const theirs: Confirmation[] = [];
    let notTheirs: ConfirmationFailure | undefined;
    for (const step of open) {
      const cleared = await checkDecision(ctx, {
        kind: 'confirm',
        record: step,
        person,
        digest: step.digest,
        authorize: approving.authorize,
        signal: approving.signal,
        now: ctx.now(),
        fail,
        bundle,
        dry: true,
        passkey: approving.passkey,
      });
      if (cleared.ok) theirs.push(step);
      else if (NOT_THEIRS.has(cleared.code)) notTheirs ??= cleared;
      else return cleared;
    }
    if (theirs.length === 0) return notTheirs ?? fail('CONFIRMATION_NOT_FOUND', {});
    const approved: number[] = [];
    for (const step of theirs) {
      // Each step's approval is a confirm span of its own (the step id names its bundle).
      const answer = await traceConfirmationStep(ctx.telemetry, 'confirm', step.id, () =>
        approve(ctx, step.id, {
          approving: { ...approving, digest: step.digest },
          mode: 'confirm',
          fail,
          bundle,
        }),
      );
      // Counted: one approval of several, or the claim that scheduled it in its bundle.
      const counted = answer.ok || answer.code === 'AWAITING_APPROVALS' || answer.code === 'SCHEDULED';
      if (!counted) return { ...answer, bundle: await viewNow(ctx, bundleId, steps) };
      approved.push(step.bundle?.index ?? 0);
    }
    await carryBundle(ctx, bundleId, fail);
    return { ok: true, bundle: await viewNow(ctx, bundleId, steps), steps: approved };
  } catch (error) {
    return fail('RUN_FAILED', { detail: describeThrown(error) });
  }
}

/**
 * A person says no to a bundle, top to bottom: its first pending step is checked for a rejection (the
 * one check list, dry, with `authorize`) → every step still held (`scheduled`: approved, in its undo
 * window or waiting its turn) is cancelled, each by one conditional write from `scheduled`, the write a
 * sweep's claim makes too: of the two exactly one wins, so a held step goes out once or not at all →
 * the pending step is rejected through the one decision path (`reject`), which stops every step after
 * it → read again, and again while a step turned pending or held meanwhile → the answer says which
 * steps it stopped and which had already gone. `ALREADY_DECIDED` when no step is pending.
 */
export async function rejectBundle(
  ctx: FlowContext,
  bundleId: string,
  asked: { readonly deciding: Deciding; readonly fail: Fail },
): Promise<BundleDecisionResult> {
  const { fail, deciding } = asked;
  try {
    const before = await readBundle(ctx, bundleId);
    if (before === undefined || before.length === 0) return fail('CONFIRMATION_NOT_FOUND', {});
    let steps = before;
    let first = steps.find((step) => step.status === 'pending');
    if (first === undefined)
      return alreadyDecided(fail, firstUndelivered(steps) ?? (steps.at(-1) as Confirmation));
    if (deciding.authorize !== undefined) {
      const person = { id: deciding.by ?? '' };
      const may = await checkDecision(ctx, {
        kind: 'reject',
        record: first,
        person,
        authorize: deciding.authorize,
        now: ctx.now(),
        fail,
        dry: true,
      });
      if (!may.ok) return may;
    }
    const rejected: number[] = [];
    // A pending step approved meanwhile is refused `ALREADY_DECIDED`: read again, it is held (or gone).
    for (let round = 0; round < before.length && first !== undefined; round++) {
      for (const step of steps) if (step.status === 'scheduled') await cancelHeldStep(ctx, step, deciding);
      const pending: Confirmation = first;
      const answer = await traceConfirmationStep(ctx.telemetry, 'reject', pending.id, () =>
        decide(ctx, pending.id, { decision: 'reject', deciding, fail }),
      );
      if (!answer.ok && answer.code !== 'ALREADY_DECIDED') return answer;
      if (answer.ok) rejected.push(pending.bundle?.index ?? 0);
      steps = (await readBundle(ctx, bundleId)) ?? steps;
      first = answer.ok ? undefined : steps.find((step) => step.status === 'pending');
    }
    // Held steps approved (or left) after the last read, and none pending: cancelled as well.
    for (const step of steps) if (step.status === 'scheduled') await cancelHeldStep(ctx, step, deciding);
    steps = (await readBundle(ctx, bundleId)) ?? steps;
    const bundle = bundleView(steps);
    const stoppedNow = (step: Confirmation, i: number) =>
      STOPPING.has(step.status) && !STOPPING.has(before[i]?.status ?? 'pending');
    return {
      ok: true,
      bundle,
      steps: rejected,
      stopped: indexesOf(bundle.steps, stoppedNow),
      gone: indexesOf(bundle.steps, (step) => GONE.has(step.status)),
    };
  } catch (error) {
    return storeFailed(fail, error);
  }
}

/** A step that went out, or may have (a person settles an `unknown` one): a rejection cannot stop it. */
const GONE: ReadonlySet<ConfirmationStatus> = new Set<ConfirmationStatus>([
  'delivered',
  'delivering',
  'unknown',
]);

/** A held step cancelled by its bundle's rejection, as the person who rejected it; lost to a sweep, left be. */
async function cancelHeldStep(ctx: FlowContext, step: Confirmation, deciding: Deciding): Promise<void> {
  const change = { now: ctx.now(), by: deciding.by, note: deciding.note };
  const written = await callStore(async () => ctx.store.cancel?.(step.id, change));
  if (written.ok && written.value?.ok === true)
    // Not carried: the rejection stops the steps after it, as a person's rejection, not as "stopped".
    await ctx.emit('cancelled', written.value.confirmation, deciding.by, false);
}

function indexesOf(
  steps: readonly Confirmation[],
  take: (step: Confirmation, i: number) => boolean,
): number[] {
  return steps.flatMap((step, i) => (take(step, i) ? [step.bundle?.index ?? i] : []));
}

async function viewNow(
  ctx: FlowContext,
  bundleId: string,
  before: readonly Confirmation[],
): Promise<BundleView> {
  return bundleView((await readBundle(ctx, bundleId).catch(() => undefined)) ?? before);
}
