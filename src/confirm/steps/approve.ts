import type { Confirmation } from '../../confirmation.js';
import { type LimitSpender, refund, spendLimits } from '../../invoke/apply-rules.js';
import type { ApprovalRequirement } from '../../rule.js';
import type {
  ApprovalLinkRecord,
  ApprovalsSwap,
  ClaimChange,
  LinkApprover,
  PayloadEdit,
  TransitionOutcome,
} from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { toIso } from '../../util/iso-time.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import {
  alreadyDecided,
  expireOne,
  type Fail,
  type FlowContext,
  reportingLinkRefusals,
  storeFailed,
} from '../flow-context.js';
import { isLinkTokenShape, linkTokenHash } from '../link-token.js';
import type { Approving } from '../read-options.js';
import type { ConfirmationFailure, ConfirmResult } from '../types.js';
import { checkDecision, type LinkToCheck } from './check-list.js';
import { deliverOnce } from './deliver.js';
import { holdUntil, scheduled } from './deliver-due.js';

/**
 * A person approves: `confirm` (a pending one) or `retry` (an `unknown` or `failed` one), top to
 * bottom — look up the record (and the link, in the same breath) → the check list → one atomic claim
 * (which also spends the link) → deliver once → record how it ended.
 *
 * The checks come before the claim: a refused confirm leaves it `pending` for the right approver, and
 * its link unspent, with no "unclaim" that a crash could skip. Checking the snapshot is sound because
 * what they read is fixed at creation or comes from the approver and the registry now; the status,
 * expiry and link, which do change, are decided again atomically by the claim itself.
 */
export async function approve(ctx: FlowContext, id: string, asked: ApproveAsked): Promise<ConfirmResult> {
  // Another approver of the same quorum may win the write in between: read again and count again.
  for (let attempt = 1; ; attempt += 1) {
    const answer = await approveOnce(ctx, id, asked);
    if (answer !== QUORUM_MOVED) return answer;
    if (attempt === MAX_QUORUM_ATTEMPTS)
      return asked.fail('STORE_FAILED', { detail: 'the approvals kept changing; try again' });
  }
}

/** What `approve` is asked: by whom, confirm or retry, and — for a bundle's step — the bundle as shown. */
export interface ApproveAsked {
  readonly approving: Approving;
  readonly mode: 'confirm' | 'retry';
  readonly fail: Fail;
  /**
   * A step approved with its bundle (`confirmBundle`): checked against the bundle digest, and its claim
   * only schedules it (due at once, or after its undo window): its bundle is carried on in order.
   */
  readonly bundle?: { readonly shown: string | undefined; readonly current: string } | undefined;
}

/** A quorum's approvals changed between the read and the write: approve again from a fresh read. */
const QUORUM_MOVED = Symbol('quorum moved');
const MAX_QUORUM_ATTEMPTS = 5;

async function approveOnce(
  ctx: FlowContext,
  id: string,
  asked: ApproveAsked,
): Promise<ConfirmResult | typeof QUORUM_MOVED> {
  const { approving, mode } = asked;
  // Through a link, a refusal before the claim is reported as the link refused (and it stays unspent).
  const fail = reportingLinkRefusals(ctx, id, approving.link, asked.fail);
  try {
    if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
    if (approving.signal?.aborted) return fail('ABORTED', {});
    const looked = await lookUp(ctx, id, approving.link, fail);
    if (!looked.ok) return looked.failure;
    const { record, link } = looked;
    const person = approverOf(approving, link?.found);
    if (person === undefined)
      return fail('INVALID_OPTION', { detail: '`approvedBy` must be the person the link was made for' });
    const now = ctx.now();
    const cleared = await checkDecision(ctx, {
      kind: mode,
      record,
      person,
      link,
      digest: approving.digest,
      proposed: approving.editing ? { value: approving.payload } : undefined,
      authorize: approving.authorize,
      signal: approving.signal,
      now,
      fail,
      bundle: asked.bundle,
      passkey: approving.passkey,
    });
    if (!cleared.ok) return cleared;
    const { tool, edit, judged } = cleared;
    if (tool === undefined) return fail('UNKNOWN_TOOL', { tool: record.tool }, record);

    const requires = judged?.requires;
    const counted = judged?.counted;
    const base: ClaimChange = {
      now,
      by: person.id,
      ...(edit === undefined ? {} : { edit }),
      ...(requires === undefined ? {} : { requires }),
      ...(edit === undefined || counted === undefined ? {} : { counted }),
      ...(link === undefined ? {} : { link: { tokenHash: link.tokenHash } }),
      ...(cleared.passkey === undefined ? {} : { passkey: cleared.passkey }),
    };
    const quorum =
      mode === 'confirm'
        ? countApproval(record, { by: person.id, now, edit, requires: requires ?? record.requires })
        : undefined;
    // What the edit adds to the asker's limits is counted before the write that stores it, and given
    // back if that write is refused; what it takes off is given back once it is stored.
    if (judged !== undefined && judged.spend.length > 0) {
      const refused = await spendLimits(editSpender(ctx, record, now), judged.spend);
      if (refused !== undefined) return { ...fail(refused.code, refused.params, record), ...refused.extra };
    }
    const settleLimits = (stored: boolean) =>
      judged === undefined ? undefined : refund(ctx.store, stored ? judged.giveBack : judged.spend);
    if (quorum !== undefined && !quorum.complete) {
      const short = await approveShort(ctx, record, { base, quorum, fail });
      await settleLimits(short !== QUORUM_MOVED && short.code === 'AWAITING_APPROVALS');
      return short;
    }
    const claimed: ClaimChange = quorum === undefined ? base : { ...base, quorum: quorum.swap };
    // A tool with an undo window (`holdMs`): the claim schedules it instead of starting the delivery.
    const held = mode === 'confirm' ? holdUntil(tool, now) : undefined;
    // A bundle's step is scheduled (at once, or after its window): its bundle is delivered in order.
    const deliverAt = asked.bundle !== undefined && mode === 'confirm' ? (held ?? now) : held;
    const change: ClaimChange = deliverAt === undefined ? claimed : { ...claimed, deliverAt };
    const claim = await claimOnce(ctx, record, { mode, change, fail });
    await settleLimits(claim.ok);
    if (!claim.ok)
      return quorum !== undefined && quorumMoved(record, claim.failure) ? QUORUM_MOVED : claim.failure;
    if (link !== undefined) ctx.emitLink(id, { approver: person.id });
    await ctx.emit('confirmed', claim.confirmation, person.id);
    if (claim.confirmation.status === 'scheduled')
      return await scheduled(ctx, claim.confirmation, asked.fail);
    return await deliverOnce(ctx, {
      claimed: claim.confirmation,
      tool,
      // Exactly what was digested: the edit's own JSON when the person changed it.
      payload: edit === undefined ? cleared.payload : JSON.parse(edit.payloadJson),
      approvedBy: person.id,
      signal: approving.signal,
      // The scope its gates were just checked in (the approver's, else the one it was asked in).
      runIn: { scope: person.scope ?? record.scope, context: approving.context },
      fail: asked.fail,
    });
  } catch (error) {
    // Defence in depth: nothing here may turn into an exception for the host.
    return fail('RUN_FAILED', { detail: describeThrown(error) });
  }
}

/** Refused only because another approval of the same payload was written first: still pending, same digest. */
function quorumMoved(read: Confirmation, refused: ConfirmationFailure): boolean {
  const now = refused.confirmation;
  return (
    now !== undefined &&
    now.status === 'pending' &&
    now.digest === read.digest &&
    JSON.stringify(now.approvals ?? []) !== JSON.stringify(read.approvals ?? [])
  );
}

/** Counts an edit's limits as the asker's call: refusals reported and logged as a person's. */
function editSpender(ctx: FlowContext, record: Confirmation, now: number): LimitSpender {
  return {
    call: { tool: record.tool, actor: record.actor },
    caller: 'person',
    counter: ctx.store,
    onEvent: ctx.onEvent,
    now,
    audit: ctx.audit,
  };
}

/**
 * A quorum's approvals after this person's: for the payload as it will be, under what it will require
 * (an edit starts again).
 */
function countApproval(
  record: Confirmation,
  asked: {
    readonly by: string;
    readonly now: number;
    readonly edit: PayloadEdit | undefined;
    readonly requires: ApprovalRequirement | undefined;
  },
): { swap: ApprovalsSwap; count: number; needed: number; complete: boolean } | undefined {
  const { by, now, edit } = asked;
  const needed = asked.requires?.approvals ?? 1;
  if (needed <= 1) return undefined;
  const digest = edit?.digest ?? record.digest;
  const expected = record.approvals ?? [];
  const kept = edit === undefined ? expected.filter((approval) => approval.digest === digest) : [];
  const next = [...kept, { by, at: toIso(now), digest }];
  return { swap: { expected, next }, count: next.length, needed, complete: next.length >= needed };
}

/**
 * One approval short of the quorum: recorded in one conditional write (only over the approvals as
 * read), nothing claimed or sent. The approver hears how many there are of how many.
 */
async function approveShort(
  ctx: FlowContext,
  record: Confirmation,
  asked: {
    readonly base: ClaimChange;
    readonly quorum: { swap: ApprovalsSwap; count: number; needed: number };
    readonly fail: Fail;
  },
): Promise<ConfirmationFailure | typeof QUORUM_MOVED> {
  const { base, quorum, fail } = asked;
  const { store } = ctx;
  if (!hasCapability(store, 'quorum'))
    return fail(
      'STORE_FAILED',
      { detail: 'this confirmation store keeps no approvals of several people' },
      record,
    );
  const approval = { count: quorum.count, needed: quorum.needed };
  let outcome: TransitionOutcome;
  try {
    outcome = await store.approve(record.id, { ...base, quorum: quorum.swap, approval });
  } catch (error) {
    return storeFailed(fail, error, record);
  }
  if (!outcome.ok) {
    const refused = await refusedClaim(ctx, outcome, base, fail);
    return quorumMoved(record, refused) ? QUORUM_MOVED : refused;
  }
  // The store spent the link in the same write as the approval: it has done its one job.
  if (base.link !== undefined) ctx.emitLink(record.id, { approver: base.by ?? '' });
  await ctx.emit('approved', outcome.confirmation, base.by);
  return fail('AWAITING_APPROVALS', { detail: `${quorum.count}/${quorum.needed}` }, outcome.confirmation);
}

/** The record and, when a link's token was given, its link: both read at once. */
export async function lookUp(
  ctx: FlowContext,
  id: string,
  token: string | undefined,
  fail: Fail,
): Promise<
  | {
      readonly ok: true;
      readonly record: Confirmation;
      readonly link: LinkToCheck | undefined;
    }
  | { readonly ok: false; readonly failure: ConfirmationFailure }
> {
  const { store } = ctx;
  if (token !== undefined && !hasCapability(store, 'links'))
    return {
      ok: false,
      failure: fail('INVALID_OPTION', { detail: 'this confirmation store keeps no approval links' }),
    };
  let record: Confirmation | undefined;
  let found: ApprovalLinkRecord | undefined;
  // Hashed once: the lookup, the check list and the claim that spends it all use this.
  const tokenHash = token !== undefined && isLinkTokenShape(token) ? linkTokenHash(token) : undefined;
  try {
    // Always awaited, even from the memory store: a decision never acts before its caller regains
    // control, so a signal aborted right after calling it still stops it.
    [record, found] = await Promise.all([
      store.get(id),
      tokenHash === undefined ? undefined : store.findLink?.(tokenHash),
    ]);
  } catch (error) {
    return { ok: false, failure: storeFailed(fail, error) };
  }
  if (record === undefined) {
    // A link for no confirmation looks like no link at all.
    if (token !== undefined)
      return {
        ok: false,
        failure: { ...fail('LINK_REFUSED', { detail: 'unknown' }), reason: 'unknown' } as ConfirmationFailure,
      };
    return { ok: false, failure: fail('CONFIRMATION_NOT_FOUND', {}) };
  }
  return { ok: true, record, link: token === undefined ? undefined : { tokenHash: tokenHash ?? '', found } };
}

/**
 * Who decides: the link's approver when deciding through a link (`approvedBy`, if given too, must be
 * them), or the person named, with the flags and scope they were given. `undefined`: the two disagree.
 */
export function approverOf(
  approving: Pick<Approving, 'approvedBy' | 'link'> & Partial<Pick<Approving, 'flags' | 'scope'>>,
  link: ApprovalLinkRecord | undefined,
): LinkApprover | undefined {
  if (approving.link !== undefined) {
    // An unknown link is refused by the check list, as whoever asks.
    if (link === undefined) return { id: approving.approvedBy ?? '' };
    return approving.approvedBy === undefined || approving.approvedBy === link.approver.id
      ? link.approver
      : undefined;
  }
  return {
    id: approving.approvedBy ?? '',
    ...(approving.flags === undefined ? {} : { flags: approving.flags }),
    ...(approving.scope === undefined ? {} : { scope: approving.scope }),
  };
}

/** The single atomic step: of any number of concurrent confirms exactly one gets past it. */
async function claimOnce(
  ctx: FlowContext,
  record: Confirmation,
  asked: { readonly mode: 'confirm' | 'retry'; readonly change: ClaimChange; readonly fail: Fail },
): Promise<{ ok: true; confirmation: Confirmation } | { ok: false; failure: ConfirmationFailure }> {
  const { mode, change, fail } = asked;
  let claim: TransitionOutcome;
  try {
    claim = await (mode === 'confirm'
      ? ctx.store.claim(record.id, change)
      : ctx.store.reclaim(record.id, change));
  } catch (error) {
    return { ok: false, failure: storeFailed(fail, error, record) };
  }
  if (claim.ok) return claim;
  return { ok: false, failure: await refusedClaim(ctx, claim, change, fail) };
}

/** Why a conditional write (a claim or a reject) refused, worded for the person. */
export async function refusedClaim(
  ctx: FlowContext,
  outcome: Exclude<TransitionOutcome, { ok: true }>,
  change: {
    readonly now: number;
    readonly link?: { readonly tokenHash: string } | undefined;
    readonly edit?: unknown;
  },
  fail: Fail,
): Promise<ConfirmationFailure> {
  if (outcome.reason === 'not-found') return fail('CONFIRMATION_NOT_FOUND', {});
  if (outcome.reason === 'expired') return expireOne(ctx, outcome.confirmation, change.now, fail);
  if (outcome.reason === 'link-refused') {
    // Another tab or instance spent the link first (or it just expired): say which.
    const again = await ctx.store.findLink?.(change.link?.tokenHash ?? '').catch(() => undefined);
    const reason = again?.usedAt !== undefined ? 'used' : 'expired';
    return { ...fail('LINK_REFUSED', { detail: reason }), reason } as ConfirmationFailure;
  }
  const current = outcome.confirmation;
  if (change.link !== undefined) {
    // Lost to a decision through this very link (another tab): say the link was used.
    const again = await ctx.store.findLink?.(change.link.tokenHash).catch(() => undefined);
    if (again?.usedAt !== undefined)
      return { ...fail('LINK_REFUSED', { detail: 'used' }), reason: 'used' } as ConfirmationFailure;
  }
  if (current.status === 'expired') return fail('EXPIRED', {}, current);
  // Still pending, yet refused: the stored payload changed between the read and the edit's claim.
  if (current.status === 'pending' && change.edit !== undefined) return fail('PAYLOAD_CHANGED', {}, current);
  return alreadyDecided(fail, current);
}
