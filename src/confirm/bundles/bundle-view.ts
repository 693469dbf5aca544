import type { Confirmation, ConfirmationStatus } from '../../confirmation.js';
import type { ConfirmationStore } from '../../stores/store.js';
import { isBundleIdShape, MAX_BUNDLE_STEPS, stepId } from './bundle-ids.js';

/**
 * Where a bundle stands, read from its steps in order (the first step not yet delivered decides):
 * - `pending`: a step still waits for approvals;
 * - `delivering`: every step is approved; they go out in order (held ones after their undo window);
 * - `delivered`: every step was delivered;
 * - `stopped`: a step was rejected, expired, cancelled or failed: it and every step after it never go out;
 * - `unknown`: a step's delivery is `unknown`: the steps after it wait until a person settles it.
 */
export type BundleStatus = 'pending' | 'delivering' | 'delivered' | 'stopped' | 'unknown';

/** A bundle as its steps say it is (`registry.confirmations.bundle`, `waitFor`, `confirmBundle`). */
export interface BundleView {
  readonly id: string;
  /** The bundle digest the person decides by (`bundleDigest` of every step's digest, in order). */
  readonly digest: string;
  readonly status: BundleStatus;
  /** Every step's confirmation, in order. */
  readonly steps: readonly Confirmation[];
}

/** The statuses that stop a bundle: that step and every one after it never go out. */
export const STOPPING: ReadonlySet<ConfirmationStatus> = new Set<ConfirmationStatus>([
  'rejected',
  'expired',
  'cancelled',
  'failed',
]);

const OPEN: ReadonlySet<ConfirmationStatus> = new Set<ConfirmationStatus>([
  'pending',
  'scheduled',
  'delivering',
]);

/** The first step not delivered (the one the bundle waits on or stopped at), if any. */
export function firstUndelivered(steps: readonly Confirmation[]): Confirmation | undefined {
  return steps.find((step) => step.status !== 'delivered');
}

export function bundleStatus(steps: readonly Confirmation[]): BundleStatus {
  const first = firstUndelivered(steps);
  if (first === undefined) return 'delivered';
  if (STOPPING.has(first.status)) return 'stopped';
  if (first.status === 'unknown') return 'unknown';
  return steps.some((step) => step.status === 'pending') ? 'pending' : 'delivering';
}

/**
 * Nothing more happens to the bundle without a person: every step delivered, a stopped step with
 * every step after it stopped too, or an `unknown` one holding the rest.
 */
export function isBundleSettled(steps: readonly Confirmation[]): boolean {
  const status = bundleStatus(steps);
  if (status === 'delivered' || status === 'unknown') return true;
  return status === 'stopped' && !steps.some((step) => OPEN.has(step.status));
}

export function bundleView(steps: readonly Confirmation[]): BundleView {
  const first = steps[0];
  return {
    id: first?.bundle?.id ?? '',
    digest: first?.bundle?.digest ?? '',
    status: bundleStatus(steps),
    steps,
  };
}

/**
 * A bundle's steps, in order, read with the store's `get` (step ids are derived from the bundle id);
 * `undefined` when there is no such bundle. Only steps that say they belong to it are taken.
 */
export async function readBundle(
  ctx: { readonly store: Pick<ConfirmationStore, 'get'> },
  bundleId: string,
): Promise<Confirmation[] | undefined> {
  if (!isBundleIdShape(bundleId)) return undefined;
  const first = await ctx.store.get(stepId(bundleId, 0));
  const size = first?.bundle?.id === bundleId ? first.bundle.size : 0;
  if (first === undefined || !Number.isInteger(size) || size < 1 || size > MAX_BUNDLE_STEPS) return undefined;
  const rest = await Promise.all(
    Array.from({ length: size - 1 }, (_, i) => ctx.store.get(stepId(bundleId, i + 1))),
  );
  const steps = [first, ...rest];
  // A step pruned away (a finished bundle) or not the bundle's: the bundle reads as it can.
  return steps.filter((step): step is Confirmation => step !== undefined && step.bundle?.id === bundleId);
}
