import type { Confirmation, ConfirmationIdempotency } from '../../confirmation.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { stepId } from '../bundles/bundle-ids.js';
import type { ProposeBundleResult } from '../bundles/bundle-proposal.js';
import { type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import { confirmRequired } from '../steps/ask.js';
import { conflict, noCapability, oneAtATime } from './propose-once.js';

/**
 * `proposeBundle` with an `idempotencyKey`: the bundle whose first step holds the key answers (the
 * same `BundleProposed`, nothing stored, prepared or counted), or `propose` stores a new one holding it.
 */
export async function proposeBundleOnce(
  ctx: FlowContext,
  asked: {
    readonly idempotency: ConfirmationIdempotency;
    readonly propose: () => Promise<ProposeBundleResult>;
    readonly fail: Fail;
  },
): Promise<ProposeBundleResult> {
  const { store } = ctx;
  const { idempotency, fail } = asked;
  if (!hasCapability(store, 'idempotency')) return noCapability(fail);
  return oneAtATime(store, idempotency.key, async () => {
    const kept = await keptBundle(ctx, idempotency, fail);
    if (kept !== undefined) return kept;
    const answer = await asked.propose();
    if (answer.ok) return answer;
    return (await keptBundle(ctx, idempotency, fail)) ?? answer;
  });
}

/** The bundle whose first step holds `idempotency.key`, answered as `proposeBundle` answered it; `undefined` for none. */
export async function keptBundle(
  ctx: FlowContext,
  idempotency: ConfirmationIdempotency,
  fail: Fail,
): Promise<ProposeBundleResult | undefined> {
  const { store } = ctx;
  if (!hasCapability(store, 'idempotency')) return undefined;
  try {
    const first = await store.findKeyed(idempotency.key);
    if (first === undefined) return undefined;
    if (first.idempotency?.intent !== idempotency.intent || first.bundle === undefined)
      return conflict(fail, first);
    return await bundleOf(ctx, first);
  } catch (error) {
    return storeFailed(fail, error);
  }
}

/** Every step of the bundle `first` opens, in order, as `BundleProposed`. */
export async function bundleOf(ctx: FlowContext, first: Confirmation): Promise<ProposeBundleResult> {
  const bundle = first.bundle as NonNullable<Confirmation['bundle']>;
  const steps: Confirmation[] = [first];
  for (let index = 1; index < bundle.size; index++) {
    const step = await ctx.store.get(stepId(bundle.id, index));
    // A step pruned before the first: the bundle is answered with the steps still kept.
    if (step !== undefined) steps.push(step);
  }
  return { ok: true, bundleId: bundle.id, digest: bundle.digest, confirmations: steps.map(confirmRequired) };
}
