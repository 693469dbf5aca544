import type { Confirmation } from '../../confirmation.js';
import type { ErrorCode } from '../../result.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { alreadyDecided, type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import type { Approving, Deciding } from '../read-options.js';
import { approve } from '../steps/approve.js';
import { checkDecision } from '../steps/check-list.js';
import { decide } from '../steps/decide.js';
import { traceConfirmationStep } from '../trace-confirmation.js';
import type { ConfirmationFailure } from '../types.js';
import { bundleDigest } from './bundle-digest.js';
import { type BundleView, bundleView, firstUndelivered, readBundle } from './bundle-view.js';
import { carryBundle } from './carry-bundle.js';

/** A bundle decision recorded: the bundle as it is now, and which steps this person's approval counted for. */
export interface BundleDecided {
  readonly ok: true;
  readonly bundle: BundleView;
  /** The steps (from 0) this decision approved (or, for `rejectBundle`, rejected). */
  readonly steps: readonly number[];
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
 * A person says no to a bundle: its first pending step is rejected through the one decision path
 * (`reject`), which stops every step after it. Steps before it already approved keep their course
 * (a held one can still be cancelled). `ALREADY_DECIDED` when no step is pending.
 */
export async function rejectBundle(
  ctx: FlowContext,
  bundleId: string,
  asked: { readonly deciding: Deciding; readonly fail: Fail },
): Promise<BundleDecisionResult> {
  const { fail } = asked;
  try {
    const steps = await readBundle(ctx, bundleId);
    if (steps === undefined || steps.length === 0) return fail('CONFIRMATION_NOT_FOUND', {});
    const first = steps.find((step) => step.status === 'pending');
    if (first === undefined)
      return alreadyDecided(fail, firstUndelivered(steps) ?? (steps.at(-1) as Confirmation));
    const answer = await traceConfirmationStep(ctx.telemetry, 'reject', first.id, () =>
      decide(ctx, first.id, { decision: 'reject', deciding: asked.deciding, fail }),
    );
    if (!answer.ok) return answer;
    return { ok: true, bundle: await viewNow(ctx, bundleId, steps), steps: [first.bundle?.index ?? 0] };
  } catch (error) {
    return storeFailed(fail, error);
  }
}

async function viewNow(
  ctx: FlowContext,
  bundleId: string,
  before: readonly Confirmation[],
): Promise<BundleView> {
  return bundleView((await readBundle(ctx, bundleId).catch(() => undefined)) ?? before);
}
