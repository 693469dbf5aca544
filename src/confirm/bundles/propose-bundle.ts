import type { Confirmation, ConfirmationIdempotency } from '../../confirmation.js';
import type { LimitCounter } from '../../invoke/apply-rules.js';
import type { AskConfirmation } from '../../invoke/ask-confirmation.js';
import type { InvokeResult } from '../../result.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { bundleDigest } from '../../util/bundle-digest.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import { bundleOf } from '../intents/propose-bundle-once.js';
import { conflict, lostRace } from '../intents/propose-once.js';
import { confirmRequired, prepareConfirmation } from '../steps/ask.js';
import { bundleCounts } from './bundle-counts.js';
import { MAX_BUNDLE_STEPS, newBundleId, stepId } from './bundle-ids.js';
import type { BundleStep, ProposeBundleResult } from './bundle-proposal.js';

export type { BundleProposed, BundleRefused, BundleStep, ProposeBundleResult } from './bundle-proposal.js';

/**
 * Proposes one step through the one invoke path as `propose` would (gates, input, rules, `prepare`),
 * with `ask` in place of storing: the registry lends it.
 */
export type ProposeStep = (
  tool: string,
  input: unknown,
  ask: AskConfirmation,
  counter: LimitCounter,
) => Promise<InvokeResult>;

/**
 * A bundle, top to bottom: read the steps (an array of 1 to `MAX_BUNDLE_STEPS` `{ tool, input }`) →
 * propose each in order through the one invoke path, keeping its record instead of storing it, and
 * its limits checked and held by the bundle's own counter (written nowhere yet) → a step repeating one
 * before it (the same resolved tool, the same input) or the first refusal ends it: nothing stored,
 * nothing counted → every record stored and every count spent in one transaction (`createBundle`; a
 * count another call filled meanwhile refuses the whole bundle) → each announced. The steps' ids come
 * from the bundle id (`stepId`).
 */
export async function proposeBundle(
  ctx: FlowContext,
  asked: {
    readonly steps: unknown;
    readonly propose: ProposeStep;
    readonly fail: Fail;
    /** With an `idempotencyKey`: held by the first step (`proposeBundleOnce`). */
    readonly idempotency?: ConfirmationIdempotency | undefined;
  },
): Promise<ProposeBundleResult> {
  const { fail } = asked;
  const { store } = ctx;
  if (!hasCapability(store, 'bundles') || !hasCapability(store, 'held'))
    return fail('INVALID_OPTION', {
      detail: 'this confirmation store keeps no bundles (it needs the `bundles` and `held` capabilities)',
    });
  const steps = readSteps(asked.steps);
  if (typeof steps === 'string') return fail('INVALID_OPTION', { detail: steps });
  const bundleId = newBundleId();
  const counts = bundleCounts(store);
  const records: Confirmation[] = [];
  const said = new Set<string>();
  for (const [index, step] of steps.entries()) {
    counts.step(index);
    let record: Confirmation | undefined;
    const keep: AskConfirmation = async (request) => {
      const prepared = prepareConfirmation(ctx, request, stepId(bundleId, index));
      if (!prepared.ok) return prepared;
      record = prepared.confirmation;
      return confirmRequired(record);
    };
    const answer = await asked.propose(step.tool, step.input, keep, counts.counter);
    // The same tool with the same input twice is a loop, not a plan: compared as the tool resolved.
    const key = record === undefined ? '' : `${record.tool}\u0000${canonicalOrNull(step.input)}`;
    const repeated = said.has(key);
    if (!answer.ok || record === undefined || repeated) {
      // Nothing is stored, and nothing was counted: the steps' counts were only held.
      if (!answer.ok) return { ...answer, step: index };
      const detail = repeated
        ? `\`steps[${index}]\` repeats a step before it (the same tool and input)`
        : `step ${index + 1} asks no confirmation`;
      return { ...fail('INVALID_OPTION', { detail }), step: index };
    }
    said.add(key);
    records.push(record);
  }
  const digest = bundleDigest(records.map((record) => record.digest));
  const size = records.length;
  const { idempotency } = asked;
  const stored = records.map(
    (record, index): Confirmation => ({
      ...record,
      ...(index === 0 && idempotency !== undefined ? { idempotency } : {}),
      bundle: { id: bundleId, index, size, digest },
    }),
  );
  let created: Awaited<ReturnType<typeof store.createBundle>> | undefined;
  try {
    created = await store.createBundle(stored, counts.spends());
  } catch (error) {
    // Nothing was stored, nothing counted. Another process stored a bundle under the same key first: it answers.
    const lost = await lostRace(ctx, stored[0] as Confirmation);
    if (lost !== undefined)
      return lost.kept.idempotency?.intent === idempotency?.intent && lost.kept.bundle !== undefined
        ? bundleOf(ctx, lost.kept)
        : conflict(fail, lost.kept);
    return storeFailed(fail, error);
  }
  // Another call filled a limit after the steps were checked: nothing stored, nothing counted.
  if (created?.ok === false) {
    const until = new Date(created.spend.windowEnd).toISOString();
    const step = counts.stepOf(created.spend);
    return {
      ...fail('LIMIT_REACHED', {
        detail: `a limit this bundle counts was filled by another call meanwhile (${created.used} of ${created.spend.max} used)`,
        until,
      }),
      resetsAt: until,
      ...(step === undefined ? {} : { step }),
    };
  }
  for (const record of stored) await ctx.emit('created', record, record.actor);
  return { ok: true, bundleId, digest, confirmations: stored.map(confirmRequired) };
}

/** The steps as given, read once: an array of 1 to `MAX_BUNDLE_STEPS` `{ tool, input }`, each its own object. */
function readSteps(value: unknown): readonly BundleStep[] | string {
  if (!Array.isArray(value)) return '`steps` must be an array of { tool, input }';
  if (value.length === 0) return '`steps` is empty: a bundle needs at least one step';
  if (value.length > MAX_BUNDLE_STEPS)
    return `\`steps\` holds ${value.length} steps; a bundle holds at most ${MAX_BUNDLE_STEPS}`;
  const seen = new Set<unknown>();
  const steps: BundleStep[] = [];
  try {
    for (const [i, step] of value.entries()) {
      if (typeof step !== 'object' || step === null || Array.isArray(step))
        return `\`steps[${i}]\` must be { tool, input }`;
      if (seen.has(step)) return `\`steps[${i}]\` is the same step object as one before it`;
      seen.add(step);
      const { tool, input } = step as { tool?: unknown; input?: unknown };
      if (typeof tool !== 'string' || tool === '') return `\`steps[${i}].tool\` must be a tool's name`;
      steps.push({ tool, input });
    }
  } catch (error) {
    return `\`steps\` could not be read: ${describeThrown(error).slice(0, 200)}`;
  }
  return steps;
}

let unreadable = 0;
/** The input's canonical JSON; one that is not JSON (refused by its step anyway) equals nothing. */
function canonicalOrNull(input: unknown): string {
  try {
    return canonicalJson(input ?? null);
  } catch {
    unreadable += 1;
    return `\u0001${unreadable}`;
  }
}
