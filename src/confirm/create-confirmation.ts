import type { ConfirmRequired, ErrorCode } from '../result.js';
import { newConfirmationId } from './confirmation-id.js';
import { digestOf, snapshotJson, writeCanonical } from './digest.js';
import { type ConfirmFlow, emitConfirmation, storeFailure } from './flow.js';
import { directCall, vouchFor } from './in-process-store.js';
import { toIso } from './iso-time.js';
import { nameProblem, recordableLabel } from './labels.js';
import { recordShell } from './record-shell.js';
import { thawedCopy } from './thawed-copy.js';
import { historyEntry } from './transitions.js';
import type { Confirmation } from './types.js';

/** What a person's invoke of a send tool produced, to be stored for confirmation. */
export interface NewConfirmation {
  readonly tool: string;
  readonly input: unknown;
  readonly payload: unknown;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
}

/** Why a confirmation could not be created: the registry words and reports it like any failure. */
export interface CreateRefusal {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly detail: string;
}

/** The input as JSON for the audit trail; it is never delivered, so a lossy copy beats refusing. */
function inputForRecord(input: unknown, freeze: boolean): unknown {
  const snapshot = snapshotJson(input, freeze ? 'frozen' : 'plain');
  if (snapshot.ok) return snapshot.value;
  try {
    const parsed: unknown = JSON.parse(JSON.stringify(input) ?? 'null');
    if (!freeze) return parsed;
    // Parsed text is JSON, so this only freezes it (one nested too deep stays unfrozen: it is copied).
    const frozen = snapshotJson(parsed, 'frozen');
    return frozen.ok ? frozen.value : parsed;
  } catch {
    return null;
  }
}

/** What `createConfirmation` answers. */
export type Created = ConfirmRequired | CreateRefusal;

/**
 * Stores what `prepare` built as a `pending` confirmation and answers the person with the payload,
 * its digest, the id to confirm and when it expires. The payload must be plain JSON: it is stored,
 * shown and later delivered — possibly by another process — and all three must be the same.
 *
 * Answers at once when the store is the memory store (no promise is made or awaited), a promise
 * otherwise. May throw only for a clock that throws; the registry reports that like any failure.
 */
export function createConfirmation(flow: ConfirmFlow, asked: NewConfirmation): Created | Promise<Created> {
  if (asked.actor !== undefined) {
    const problem = nameProblem(asked.actor, 'actor');
    if (problem !== undefined) return { ok: false, code: 'INVALID_OPTION', detail: problem };
  }
  // The memory store, called directly, keeps the record as it is: it gets it deep-frozen, so the
  // digest computed here stays its digest. Any other store — or a wrapper with its own `create` —
  // gets plain data, as it always has.
  const create = directCall(flow.store, 'create');
  const vouching = create !== undefined;
  const snapshot = snapshotJson(asked.payload, vouching ? 'frozen' : 'plain');
  if (!snapshot.ok) {
    return {
      ok: false,
      code: 'RUN_FAILED',
      detail: `prepare must return a JSON payload (it is stored, shown and delivered as JSON): ${snapshot.detail}`,
    };
  }
  const digest = digestOf(writeCanonical(snapshot.value));
  const now = flow.now();
  const createdAt = toIso(now);
  const expiresAt = toIso(now + flow.ttlMs);
  const scope = recordableLabel(asked.scope);
  const first = historyEntry({ now, by: asked.actor }, 'pending');
  const base = {
    id: newConfirmationId(),
    tool: asked.tool,
    input: inputForRecord(asked.input, vouching),
    payload: snapshot.value,
    digest,
    actor: asked.actor,
    scope,
    createdAt,
    expiresAt,
  };
  const confirmation = recordShell(base, createdAt, 'pending', 0, [first]);
  if (vouching) {
    Object.freeze(first);
    Object.freeze(confirmation.history);
    vouchFor(Object.freeze(confirmation));
  }
  // The snapshot, not what `prepare` returned: exactly the data that was digested and stored — as a
  // copy the caller may change when the stored one is frozen.
  const shown = vouching ? thawedCopy(snapshot.value) : snapshot.value;
  if (create === undefined) return storeThenAnswer(flow, confirmation, shown, asked.actor);
  try {
    create(confirmation);
  } catch (error) {
    return { ok: false, code: 'STORE_FAILED', detail: storeFailure(error) };
  }
  return answer(flow, confirmation, shown, asked.actor);
}

async function storeThenAnswer(
  flow: ConfirmFlow,
  confirmation: Confirmation,
  shown: unknown,
  actor: string | undefined,
): Promise<Created> {
  try {
    await flow.store.create(confirmation);
  } catch (error) {
    return { ok: false, code: 'STORE_FAILED', detail: storeFailure(error) };
  }
  return answer(flow, confirmation, shown, actor);
}

function answer(
  flow: ConfirmFlow,
  confirmation: Confirmation,
  shown: unknown,
  actor: string | undefined,
): ConfirmRequired {
  emitConfirmation(flow, 'created', confirmation, actor);
  return {
    ok: true,
    requiresConfirm: true,
    confirmPayload: shown,
    confirmationId: confirmation.id,
    digest: confirmation.digest,
    expiresAt: confirmation.expiresAt,
  };
}
