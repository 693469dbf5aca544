import type { Confirmation } from '../../confirmation.js';
import type { ConfirmationQuery } from '../../stores/store.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import { callStore, type Fail, type FlowContext } from '../flow-context.js';
import { checkDecision } from '../steps/check-list.js';
import type {
  ConfirmationFailure,
  ConfirmationListResult,
  ConfirmationResult,
  ConfirmationToolView,
  EditCheckResult,
} from '../types.js';

/** The reading side of the confirmation path: what `registry.confirmations` answers. */

/** One confirmation by id (`CONFIRMATION_NOT_FOUND` when there is none). */
export async function getOne(ctx: FlowContext, id: string, fail: Fail): Promise<ConfirmationResult> {
  const found = await lookUpOne(ctx, id, fail);
  return found.ok ? { ok: true, confirmation: found.record } : found.failure;
}

async function lookUpOne(
  ctx: FlowContext,
  id: string,
  fail: Fail,
): Promise<{ ok: true; record: Confirmation } | { ok: false; failure: ConfirmationFailure }> {
  if (!isConfirmationIdShape(id)) return { ok: false, failure: fail('CONFIRMATION_NOT_FOUND', {}) };
  const found = await callStore(() => ctx.store.get(id));
  if (!found.ok) return { ok: false, failure: fail('STORE_FAILED', { detail: found.detail }) };
  if (found.value === undefined) return { ok: false, failure: fail('CONFIRMATION_NOT_FOUND', {}) };
  return { ok: true, record: found.value };
}

/** Newest first; with `status: 'pending'`, only those that can still be confirmed. */
export async function listPage(
  ctx: FlowContext,
  filter: ConfirmationQuery,
  fail: Fail,
): Promise<ConfirmationListResult> {
  const query = {
    ...filter,
    // What a person can still confirm: a pending one past its expiry is not, even before a sweep marks it.
    ...(filter.status === 'pending' ? { expiresAfter: ctx.now() } : {}),
  };
  const listed = await callStore(() => ctx.store.list(query));
  if (!listed.ok) return fail('STORE_FAILED', { detail: listed.detail });
  const { confirmations, nextCursor } = listed.value;
  return nextCursor === undefined ? { ok: true, confirmations } : { ok: true, confirmations, nextCursor };
}

/** A registered send tool (or write tool) as a confirmation screen shows it. */
export function toolView(ctx: FlowContext, name: unknown): ConfirmationToolView | undefined {
  if (typeof name !== 'string') return undefined;
  const tool = ctx.sendTool(name);
  if (tool === undefined) return undefined;
  const { info, edit, payloadSchema } = tool;
  return Object.freeze({
    name: info.name,
    title: info.title,
    sideEffect: info.sideEffect === 'write' ? 'write' : 'send',
    description: info.description,
    editable: edit?.editable ?? [],
    ...(info.effect === undefined ? {} : { effect: info.effect }),
    ...(payloadSchema === undefined ? {} : { payloadSchema }),
    ...(info.holdMs === undefined ? {} : { holdMs: info.holdMs }),
  });
}

/** A person's edit checked by the check list as `confirm({ payload })` checks it, claiming nothing. */
export async function previewEdit(
  ctx: FlowContext,
  id: string,
  proposed: unknown,
  fail: Fail,
): Promise<EditCheckResult> {
  const found = await lookUpOne(ctx, id, fail);
  if (!found.ok) return found.failure;
  const { record } = found;
  try {
    const cleared = await checkDecision(ctx, {
      kind: 'edit-preview',
      record,
      person: undefined,
      proposed: { value: proposed },
      now: ctx.now(),
      fail,
    });
    if (!cleared.ok) return cleared;
    const { edit } = cleared;
    return edit === undefined
      ? { ok: true, payload: cleared.payload, digest: record.digest, changed: [] }
      : { ok: true, payload: JSON.parse(edit.payloadJson), digest: edit.digest, changed: edit.fields };
  } catch (error) {
    return fail('RUN_FAILED', { detail: describeThrown(error) });
  }
}
