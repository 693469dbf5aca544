import { hasCapability } from '../../stores/store-capabilities.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import { callStore, type Fail, type FlowContext } from '../flow-context.js';
import type { Deciding } from '../read-options.js';
import type { ConfirmationResult } from '../types.js';
import { lookUp, refusedClaim } from './approve.js';
import { checkDecision } from './check-list.js';

/**
 * A person takes a held send back in its undo window: the record is read, the check list runs (it is
 * still `scheduled`; they approved sending it, or `authorize` allows them), then one conditional write
 * `scheduled` → `cancelled`. A sweep delivering it is the same kind of write from the same status, so
 * of a cancel and a sweep exactly one wins: it is sent, or it is cancelled, never both.
 */
export async function cancelHeld(
  ctx: FlowContext,
  id: string,
  asked: { readonly deciding: Deciding; readonly fail: Fail },
): Promise<ConfirmationResult> {
  const { deciding, fail } = asked;
  try {
    if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
    const { store } = ctx;
    if (!hasCapability(store, 'held'))
      return fail('STORE_FAILED', { detail: 'this confirmation store keeps no held sends' });
    const looked = await lookUp(ctx, id, undefined, fail);
    if (!looked.ok) return looked.failure;
    const now = ctx.now();
    const by = deciding.by ?? '';
    const cleared = await checkDecision(ctx, {
      kind: 'cancel',
      record: looked.record,
      person: { id: by },
      authorize: deciding.authorize,
      now,
      fail,
    });
    if (!cleared.ok) return cleared;
    const change = { now, by, note: deciding.note };
    const written = await callStore(async () => store.cancel(id, change));
    if (!written.ok || written.value === undefined)
      return fail(
        written.ok ? 'STORE_FAILED' : written.code,
        { detail: written.ok ? 'no cancel' : written.detail },
        looked.record,
      );
    const outcome = written.value;
    if (!outcome.ok) return await refusedClaim(ctx, outcome, change, fail);
    await ctx.emit('cancelled', outcome.confirmation, by);
    return { ok: true, confirmation: outcome.confirmation };
  } catch (error) {
    return fail('RUN_FAILED', { detail: describeThrown(error) });
  }
}
