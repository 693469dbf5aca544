import type { DecisionChange } from '../../stores/store.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import { callStore, type Fail, type FlowContext, reportingLinkRefusals } from '../flow-context.js';
import type { Deciding } from '../read-options.js';
import type { ConfirmationResult } from '../types.js';
import { approverOf, lookUp, refusedClaim } from './approve.js';
import { checkDecision } from './check-list.js';

/**
 * A person's decision that delivers nothing: `reject` (a pending one; taken even past `expiresAt`, no
 * is never dangerous) or `markDelivered` (an `unknown` or `failed` one they checked arrived). One
 * conditional write, so it cannot overtake a concurrent confirm or retry. Through a link, with the
 * caller's `authorize`, or under four eyes, the record is read and the check list runs first.
 */
export async function decide(
  ctx: FlowContext,
  id: string,
  asked: { readonly decision: 'reject' | 'markDelivered'; readonly deciding: Deciding; readonly fail: Fail },
): Promise<ConfirmationResult> {
  const { decision, deciding } = asked;
  const fail = reportingLinkRefusals(ctx, id, deciding.link, asked.fail);
  try {
    if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
    const now = ctx.now();
    let by = deciding.by;
    let link: DecisionChange['link'];
    const checked =
      deciding.link !== undefined ||
      deciding.authorize !== undefined ||
      (decision === 'markDelivered' && ctx.requireDifferentApprover);
    if (checked) {
      const looked = await lookUp(ctx, id, deciding.link, fail);
      if (!looked.ok) return looked.failure;
      const person = approverOf({ approvedBy: deciding.by, link: deciding.link }, looked.link?.found);
      if (person === undefined)
        return fail('INVALID_OPTION', { detail: 'who decides must be the person the link was made for' });
      const cleared = await checkDecision(ctx, {
        kind: decision,
        record: looked.record,
        person,
        link: looked.link,
        authorize: deciding.authorize,
        now,
        fail,
      });
      if (!cleared.ok) return cleared;
      by = person.id;
      if (looked.link !== undefined) link = { tokenHash: looked.link.tokenHash };
    }
    const change: DecisionChange = { now, by, note: deciding.note, ...(link === undefined ? {} : { link }) };
    const written = await callStore(() =>
      decision === 'reject' ? ctx.store.reject(id, change) : ctx.store.markDelivered(id, change),
    );
    if (!written.ok) return fail(written.code, { detail: written.detail });
    const outcome = written.value;
    if (!outcome.ok) return await refusedClaim(ctx, outcome, change, fail);
    if (link !== undefined && by !== undefined) ctx.emitLink(id, { approver: by });
    await ctx.emit(decision === 'reject' ? 'rejected' : 'delivered', outcome.confirmation, by);
    return { ok: true, confirmation: outcome.confirmation };
  } catch (error) {
    return fail('RUN_FAILED', { detail: describeThrown(error) });
  }
}
