import type { Confirmation } from '../../confirmation.js';
import type { ConfirmationAction } from '../../events.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { callStore, type Fail, type FlowContext } from '../flow-context.js';
import { deliverClaimed } from '../steps/deliver-due.js';
import { firstUndelivered, readBundle, STOPPING } from './bundle-view.js';

/**
 * Carries a bundle forward, top to bottom: read its steps → the first one not delivered decides →
 * stopped: stop every step after it → scheduled and due: claim it (`scheduled` → `delivering`, one
 * conditional write: of every instance, sweep and cancel exactly one wins) and deliver it → again.
 * A step is claimed only after the step before it was read `delivered`, a final status: so no step
 * ever goes out before the one before it, nor after one that stopped. Returns the steps it delivered.
 */
export async function carryBundle(ctx: FlowContext, bundleId: string, fail: Fail): Promise<Confirmation[]> {
  const delivered: Confirmation[] = [];
  const { store } = ctx;
  if (!hasCapability(store, 'held')) return delivered;
  // This process carries it: a delivery's own event need not start a second carry.
  ctx.carrying.set(bundleId, (ctx.carrying.get(bundleId) ?? 0) + 1);
  try {
    for (;;) {
      const steps = await readBundle(ctx, bundleId);
      const next = steps === undefined ? undefined : firstUndelivered(steps);
      if (steps === undefined || next === undefined) return delivered;
      // A step before it is gone (pruned): what became of it is not known here, so nothing goes past it.
      if (steps.indexOf(next) !== next.bundle?.index) return delivered;
      if (STOPPING.has(next.status)) {
        await stopAfter(ctx, steps, next);
        return delivered;
      }
      // Pending (approvals to come), held (its undo window), delivering elsewhere, unknown (a person).
      if (next.status !== 'scheduled' || Date.parse(next.deliverAt ?? '') > ctx.now()) return delivered;
      const claim = await store.deliverDue(next.id, { now: ctx.now() });
      // Cancelled meanwhile, or another instance won it (and carries on from there).
      if (!claim.ok) continue;
      delivered.push(await deliverClaimed(ctx, claim.confirmation, fail));
    }
  } finally {
    const left = (ctx.carrying.get(bundleId) ?? 1) - 1;
    if (left > 0) ctx.carrying.set(bundleId, left);
    else ctx.carrying.delete(bundleId);
  }
}

/**
 * Stops every step after `stopped` that could still go out: a pending one is rejected, a scheduled
 * one cancelled, each by one conditional write with its audit entry, noted "stopped", and told.
 */
export async function stopAfter(
  ctx: FlowContext,
  steps: readonly Confirmation[],
  stopped: Confirmation,
): Promise<void> {
  const { store } = ctx;
  const index = stopped.bundle?.index ?? 0;
  const note = `stopped: step ${index + 1} (${stopped.tool}) was ${stopped.status}`;
  for (const step of steps) {
    if ((step.bundle?.index ?? 0) <= index) continue;
    const now = ctx.now();
    const action: ConfirmationAction | undefined =
      step.status === 'pending' ? 'rejected' : step.status === 'scheduled' ? 'cancelled' : undefined;
    if (action === undefined) continue;
    const written = await callStore(async () =>
      action === 'rejected' ? store.reject(step.id, { now, note }) : store.cancel?.(step.id, { now, note }),
    );
    if (written.ok && written.value?.ok === true)
      await ctx.emit(action, written.value.confirmation, undefined, false);
  }
}

/**
 * What a bundle's step changing means for the steps after it: delivered (by a person's
 * `markDelivered` or `retry`, or outside a carry) → carry the bundle on; stopped → stop the rest.
 */
export async function afterBundleStep(
  ctx: FlowContext,
  action: ConfirmationAction,
  step: Confirmation,
  fail: Fail,
): Promise<void> {
  const bundleId = step.bundle?.id;
  if (bundleId === undefined) return;
  if (action === 'delivered') {
    if (!ctx.carrying.has(bundleId)) await carryBundle(ctx, bundleId, fail);
    return;
  }
  if (action === 'rejected' || action === 'expired' || action === 'cancelled' || action === 'failed') {
    const steps = await readBundle(ctx, bundleId);
    const now = steps?.find((candidate) => candidate.id === step.id);
    if (steps !== undefined && now !== undefined && STOPPING.has(now.status))
      await stopAfter(ctx, steps, now);
  }
}
