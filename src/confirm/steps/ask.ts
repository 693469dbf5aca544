import type { Confirmation } from '../../confirmation.js';
import { refund } from '../../invoke/apply-rules.js';
import { nameProblem, recordableLabel } from '../../policy/labels.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { historyEntry } from '../../stores/transitions.js';
import { snapshotJson } from '../../util/canonical-json.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { newConfirmationId } from '../confirmation-id.js';
import { confirmationDigest } from '../digest.js';
import { type FlowContext, storeFailure, storeFailureCode } from '../flow-context.js';
import { lostRace } from '../intents/propose-once.js';
import {
  type Created,
  type CreateRefusal,
  confirmRequired,
  type NewConfirmation,
} from './new-confirmation.js';

export type { Created, CreateRefusal, NewConfirmation } from './new-confirmation.js';
export { confirmRequired } from './new-confirmation.js';

/**
 * Stores what `prepare` built as a `pending` confirmation and answers with the payload to show,
 * its digest, the id to confirm and when it expires. The payload must be plain JSON: it is stored,
 * shown and later delivered — possibly by another process — and all three must be the same.
 */
export async function askConfirmation(ctx: FlowContext, asked: NewConfirmation): Promise<Created> {
  try {
    const prepared = prepareConfirmation(ctx, asked, newConfirmationId());
    if (!prepared.ok) return prepared;
    const confirmation = await withAlike(ctx, prepared.confirmation);
    try {
      await ctx.store.create(confirmation);
    } catch (error) {
      // Another process stored the same key first: its confirmation answers, and what this one
      // counted toward delivery goes back (it will never be delivered).
      const lost = await lostRace(ctx, confirmation);
      if (lost === undefined)
        return { ok: false, code: storeFailureCode(error), detail: storeFailure(error) };
      await refund(ctx.store, confirmation.counted ?? []);
      if (lost.kept.idempotency?.intent !== confirmation.idempotency?.intent)
        return { ok: false, code: 'IDEMPOTENCY_CONFLICT', detail: lost.kept.bundle?.id ?? lost.kept.id };
      return confirmRequired(lost.kept);
    }
    await ctx.emit('created', confirmation, asked.actor);
    return confirmRequired(confirmation);
  } catch (error) {
    return { ok: false, code: 'RUN_FAILED', detail: describeThrown(error) };
  }
}

/**
 * The record flagged with the newest other pending confirmation of its tool holding the same payload
 * digest, when the store can say (one indexed lookup); a lookup that fails flags nothing.
 */
async function withAlike(ctx: FlowContext, record: Confirmation): Promise<Confirmation> {
  const { store } = ctx;
  if (!hasCapability(store, 'idempotency')) return record;
  try {
    const found = await store.findAlike({
      tool: record.tool,
      digest: record.digest,
      ref: record.ref,
      now: ctx.now(),
    });
    if (found === undefined || found.id === record.id) return record;
    return {
      ...record,
      alike:
        found.by === 'ref' && record.ref !== undefined ? { id: found.id, ref: record.ref } : { id: found.id },
    };
  } catch {
    return record;
  }
}

/**
 * The `pending` record `asked` becomes, under `id`, not stored yet (`askConfirmation` stores one; a
 * bundle stores all its steps at once): the asker's name checked, the payload snapshotted as JSON.
 */
export function prepareConfirmation(
  ctx: FlowContext,
  asked: NewConfirmation,
  id: string,
): { readonly ok: true; readonly confirmation: Confirmation } | CreateRefusal {
  if (asked.actor !== undefined) {
    const problem = nameProblem(asked.actor, 'actor');
    if (problem !== undefined) return { ok: false, code: 'INVALID_OPTION', detail: problem };
  } else if (ctx.requireDifferentApprover) {
    const detail = 'this registry needs `actor` (who asks) on a send, so that someone else confirms it';
    return { ok: false, code: 'INVALID_OPTION', detail };
  }
  const snapshot = snapshotJson(asked.payload);
  if (!snapshot.ok) {
    return {
      ok: false,
      code: 'RUN_FAILED',
      detail: `prepare must return a JSON payload (it is stored, shown and delivered as JSON): ${snapshot.detail}`,
    };
  }
  return { ok: true, confirmation: newRecord(ctx, asked, snapshot.value, id) };
}

function newRecord(ctx: FlowContext, asked: NewConfirmation, payload: unknown, id: string): Confirmation {
  const now = ctx.now();
  const createdAt = new Date(now).toISOString();
  const scope = recordableLabel(asked.scope);
  return {
    id,
    tool: asked.tool,
    ...(asked.sideEffect === 'write' ? { sideEffect: 'write' as const } : {}),
    input: inputForRecord(asked.input),
    payload,
    digest: confirmationDigest(asked.tool, payload),
    ...(asked.actor === undefined ? {} : { actor: asked.actor }),
    ...(scope === undefined ? {} : { scope }),
    ...asked.about,
    ...(asked.requires === undefined ? {} : { requires: asked.requires, approvals: [] }),
    ...(asked.origins === undefined ? {} : { origins: asked.origins }),
    ...(asked.originValues === undefined ? {} : { originValues: asked.originValues }),
    ...(asked.originsOutsideRun === true ? { originsOutsideRun: true as const } : {}),
    ...(asked.counted === undefined || asked.counted.length === 0 ? {} : { counted: asked.counted }),
    ...(asked.idempotency === undefined ? {} : { idempotency: asked.idempotency }),
    createdAt,
    expiresAt: new Date(now + ctx.ttlMs).toISOString(),
    updatedAt: createdAt,
    status: 'pending',
    attempt: 0,
    history: [historyEntry({ now, by: asked.actor }, 'pending')],
  };
}

/** The input as JSON for the audit trail; it is never delivered, so a lossy copy beats refusing. */
function inputForRecord(input: unknown): unknown {
  const snapshot = snapshotJson(input);
  if (snapshot.ok) return snapshot.value;
  try {
    // Not plain JSON data (a Date, nested deeper than a snapshot goes): kept as its JSON text.
    return JSON.stringify(input) ?? null;
  } catch {
    return null;
  }
}
