import type { Confirmation } from '../../confirmation.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { snapshotJson } from '../../util/canonical-json.js';
import { confirmationDigest } from '../digest.js';
import { callStore, type Fail, type FlowContext, type SendToolHandle } from '../flow-context.js';
import type { ConfirmationFailure } from '../types.js';
import { deliverOnce } from './deliver.js';

/** Held sends one sweep delivers at most; the next sweep takes the rest. */
const DUE_BATCH = 100;

/**
 * The undo window: a send tool with `holdMs` is not delivered at its claim but scheduled for `now +
 * holdMs`. `undefined` for every other tool, so they pay nothing for it.
 */
export function holdUntil(tool: SendToolHandle, now: number): number | undefined {
  const { holdMs } = tool.info;
  return holdMs === undefined ? undefined : now + holdMs;
}

/** What a confirm of a held send answers: approved and scheduled, not sent yet (`SCHEDULED`). */
export async function scheduled(
  ctx: FlowContext,
  held: Confirmation,
  fail: Fail,
): Promise<ConfirmationFailure> {
  await ctx.emit('scheduled', held, approverOf(held));
  return fail('SCHEDULED', { until: held.deliverAt ?? held.updatedAt }, held);
}

/**
 * The sweep's step for held sends whose time came: each is claimed by one conditional write
 * (`scheduled` → `delivering`, only once `deliverAt` has passed), so of any number of sweeping
 * instances, and a racing `cancel`, exactly one wins it; the winner delivers it once, on the same path
 * as a confirm. A scheduled send is in the store, so it survives a restart and the next sweep sends it.
 * Returns them as their deliveries ended. A bundle's due steps are handed to `carry`, once per bundle.
 */
export async function deliverDue(
  ctx: FlowContext,
  fail: Fail,
  carry: (bundleId: string) => Promise<Confirmation[]>,
): Promise<Confirmation[]> {
  const { store } = ctx;
  if (!hasCapability(store, 'held')) return [];
  const due = await store.dueScheduled({ now: ctx.now(), limit: DUE_BATCH });
  const delivered: Confirmation[] = [];
  const carried = new Set<string>();
  for (const held of due) {
    // A bundle's step goes out only after the one before it: its bundle is carried forward in order.
    if (held.bundle !== undefined) {
      if (!carried.has(held.bundle.id)) delivered.push(...(await carry(held.bundle.id)));
      carried.add(held.bundle.id);
      continue;
    }
    const claim = await store.deliverDue(held.id, { now: ctx.now() });
    // Cancelled meanwhile, or another instance's sweep won it.
    if (claim.ok) delivered.push(await deliverClaimed(ctx, claim.confirmation, fail));
  }
  return delivered;
}

/**
 * Delivers one claimed held send with the tool as registered now and the payload as stored, if its
 * digest still matches (the approver's gates were checked when they confirmed it). A tool gone since,
 * or a payload changed in the store, is recorded `failed`: nothing is sent.
 */
export async function deliverClaimed(
  ctx: FlowContext,
  claimed: Confirmation,
  fail: Fail,
): Promise<Confirmation> {
  const tool = ctx.sendTool(claimed.tool);
  const payload = storedPayload(claimed);
  if (tool === undefined || payload === undefined) {
    const error =
      tool === undefined
        ? `the tool ${claimed.tool} is no longer registered; nothing was sent`
        : 'the stored payload no longer matches its digest; nothing was sent';
    const change = { now: ctx.now(), attempt: claimed.attempt, status: 'failed' as const, error };
    const finished = await callStore(() => ctx.store.finish(claimed.id, change));
    const current = finished.ok && finished.value.ok ? finished.value.confirmation : claimed;
    await ctx.emit('failed', current);
    return current;
  }
  const approvedBy = approverOf(claimed) ?? '';
  // Nobody confirms here: the run is in the scope the call was asked in, with no app context.
  const runIn = { scope: claimed.scope, context: undefined };
  const result = await deliverOnce(ctx, {
    claimed,
    tool,
    payload,
    approvedBy,
    signal: undefined,
    runIn,
    fail,
  });
  return result.confirmation ?? claimed;
}

/** A fresh copy of the stored payload, if its recomputed digest is the stored one. */
function storedPayload(record: Confirmation): unknown {
  const snapshot = snapshotJson(record.payload);
  if (!snapshot.ok || confirmationDigest(record.tool, snapshot.value) !== record.digest) return undefined;
  return JSON.parse(JSON.stringify(snapshot.value)) as unknown;
}

/** Who confirmed a held send: the person whose claim scheduled it. */
function approverOf(held: Confirmation): string | undefined {
  return held.history.findLast((entry) => entry.status === 'scheduled')?.by;
}
