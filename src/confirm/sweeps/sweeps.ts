import type { Confirmation } from '../../confirmation.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { carryBundle } from '../bundles/carry-bundle.js';
import { type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import { deliverDue } from '../steps/deliver-due.js';
import type { SweepResult } from '../types.js';
import { escalateDue } from './escalations.js';

/** How long a delivery may run before `sweep` calls it `unknown`, unless told otherwise. */
export const DEFAULT_STALE_AFTER_MS = 10 * 60_000;
/** Added to the longest delivery timeout: a delivery is never called stale before it could have timed out. */
export const STALE_MARGIN_MS = 60_000;

/**
 * The housekeeping of the confirmation path, each step once; `sweep` is built from them. None ever
 * delivers on its own: only what a person confirmed with an undo window (`deliver-due.ts`) is sent by it.
 */

/** Marks every pending confirmation past its `expiresAt` as `expired`. */
export async function expireDue(ctx: FlowContext): Promise<Confirmation[]> {
  const changed = await ctx.store.expire({ now: ctx.now() });
  for (const confirmation of changed) await ctx.emit('expired', confirmation);
  return changed;
}

/**
 * The stale threshold actually used: never below the longest timeout of a send or write tool plus a
 * margin, so a delivery or a confirmed write that may still be running somewhere is not called `unknown`
 * (and then retried: sent or run twice).
 */
export function staleThreshold(ctx: FlowContext, olderThanMs: number): number {
  return Math.max(olderThanMs, ctx.longestDeliveryTimeoutMs() + STALE_MARGIN_MS);
}

/**
 * Marks deliveries started more than `olderThanMs` ago (see `staleThreshold`) that never recorded an
 * outcome as `unknown`, except those this process is still running. It never re-delivers.
 */
export async function recoverStale(ctx: FlowContext, olderThanMs: number): Promise<Confirmation[]> {
  const changed = await ctx.store.recoverStale({
    now: ctx.now(),
    olderThanMs: staleThreshold(ctx, olderThanMs),
    running: [...ctx.running],
  });
  for (const confirmation of changed) await ctx.emit('unknown', confirmation);
  return changed;
}

/** Claims and sends the reminders due (each claimed in the store, so several instances send it once). */
export async function remindDue(ctx: FlowContext): Promise<Confirmation[]> {
  const { store, remindBeforeMs, notices } = ctx;
  if (remindBeforeMs <= 0 || !hasCapability(store, 'reminders')) return [];
  const reminded = await store.remindDue({ now: ctx.now(), within: remindBeforeMs });
  for (const confirmation of reminded) notices?.reminder(confirmation);
  return reminded;
}

/** Deletes finished confirmations last changed more than `olderThanMs` ago. */
export async function prune(ctx: FlowContext, olderThanMs: number): Promise<number> {
  const deleted = await ctx.store.prune({ before: ctx.now() - olderThanMs });
  if (deleted > 0) ctx.watchers.notify({});
  return deleted;
}

/** Forgets the agent runs expired by now, with what their agents read, when the store keeps runs. */
export async function pruneRuns(ctx: FlowContext): Promise<number> {
  const { store } = ctx;
  return hasCapability(store, 'runs') ? store.pruneRuns({ now: ctx.now() }) : 0;
}

/**
 * What an app runs now and then (the console runs it on an interval): expire the overdue, mark stale
 * deliveries `unknown`, remind approvers of what expires soon, escalate what still waits, deliver held
 * sends whose time came, forget expired agent runs, and sequence the audit entries committed since the
 * last sweep.
 */
export async function sweep(
  ctx: FlowContext,
  staleAfterMs: number | undefined,
  fail: Fail,
): Promise<SweepResult> {
  try {
    const expired = await expireDue(ctx);
    const recovered = await recoverStale(ctx, staleAfterMs ?? DEFAULT_STALE_AFTER_MS);
    const reminded = await remindDue(ctx);
    const escalated = await escalateDue(ctx);
    const delivered = await deliverDue(ctx, fail, (bundleId) => carryBundle(ctx, bundleId, fail));
    await pruneRuns(ctx);
    // Last, so the entries of everything above are chained in this same sweep.
    const sequenced = (await ctx.store.audit?.sequence()) ?? 0;
    return { ok: true, expired, recovered, reminded, escalated, delivered, sequenced };
  } catch (error) {
    return storeFailed(fail, error);
  }
}
