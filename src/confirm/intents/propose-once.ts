import type { Confirmation, ConfirmationIdempotency } from '../../confirmation.js';
import type { AskConfirmation } from '../../invoke/ask-confirmation.js';
import type { ConfirmRequired, InvokeResult } from '../../result.js';
import type { IdempotencyStore } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { type Fail, type FlowContext, storeFailed } from '../flow-context.js';
import { type Created, confirmRequired, type NewConfirmation } from '../steps/new-confirmation.js';

/**
 * One proposal per intent: a `propose` with an `idempotencyKey` answers the confirmation its key
 * already holds (the same `ConfirmRequired`, nothing stored, prepared or counted), or proposes and
 * stores the new one holding the key. The store's unique key decides a race across processes: the
 * loser gives back what it counted and answers the winner's.
 */
export async function proposeOnce(
  ctx: FlowContext,
  asked: {
    readonly idempotency: ConfirmationIdempotency;
    readonly propose: (ask: AskConfirmation) => Promise<InvokeResult>;
    readonly ask: (asked: NewConfirmation) => Promise<Created>;
    readonly fail: Fail;
  },
): Promise<InvokeResult> {
  const { store } = ctx;
  const { idempotency, fail } = asked;
  if (!hasCapability(store, 'idempotency')) return noCapability(fail);
  return oneAtATime(store, idempotency.key, async () => {
    const kept = await keptAnswer(store, idempotency, fail);
    if (kept !== undefined) return kept;
    const answer = await asked.propose((request) => asked.ask({ ...request, idempotency }));
    if (answer.ok) return answer;
    // Refused (a limit another process's count of the same intent filled): the kept one, if any.
    return (await keptAnswer(store, idempotency, fail)) ?? answer;
  });
}

/** The refusal of an `idempotencyKey` on a store without the capability: nothing is proposed. */
export function noCapability(fail: Fail) {
  return fail('INVALID_OPTION', {
    detail:
      'this confirmation store keeps no idempotency keys (`idempotencyKey` needs the `idempotency` capability: `findKeyed`)',
  });
}

/**
 * What the confirmation holding `idempotency.key` answers: the same `ConfirmRequired` for the same
 * intent, `IDEMPOTENCY_CONFLICT` for another; `undefined` when none holds it.
 */
export async function keptAnswer(
  store: IdempotencyStore,
  idempotency: ConfirmationIdempotency,
  fail: Fail,
): Promise<ConfirmRequired | ReturnType<Fail> | undefined> {
  let kept: Confirmation | undefined;
  try {
    kept = await store.findKeyed(idempotency.key);
  } catch (error) {
    return storeFailed(fail, error);
  }
  if (kept === undefined) return undefined;
  if (kept.idempotency?.intent !== idempotency.intent) return conflict(fail, kept);
  return confirmRequired(kept);
}

/** The same key with another intent, as Stripe answers it: refused, naming the confirmation that holds it. */
export function conflict(fail: Fail, kept: Confirmation) {
  return fail('IDEMPOTENCY_CONFLICT', { detail: kept.bundle?.id ?? kept.id });
}

/**
 * After a `create` that refused: the confirmation that holds the key now (a racing process stored it);
 * `undefined` when none does (the refusal was something else). It gives nothing back: the caller who
 * counted gives back what it counted.
 */
export async function lostRace(
  ctx: FlowContext,
  record: Confirmation,
): Promise<{ readonly ok: true; readonly kept: Confirmation } | undefined> {
  const { store } = ctx;
  const idempotency = record.idempotency;
  if (idempotency === undefined || !hasCapability(store, 'idempotency')) return undefined;
  let kept: Confirmation | undefined;
  try {
    kept = await store.findKeyed(idempotency.key);
  } catch {
    return undefined;
  }
  if (kept === undefined) return undefined;
  return { ok: true, kept };
}

const running = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Calls with one key in one process run one after another (registries sharing a store included): the
 * second finds the first's confirmation instead of preparing and counting a second one.
 */
export async function oneAtATime<T>(store: object, key: string, call: () => Promise<T>): Promise<T> {
  let calls = running.get(store);
  if (calls === undefined) {
    calls = new Map();
    running.set(store, calls);
  }
  const before = calls.get(key);
  const mine = (async () => {
    if (before !== undefined) await before.catch(() => undefined);
    return call();
  })();
  calls.set(key, mine);
  try {
    return await mine;
  } finally {
    if (calls.get(key) === mine) calls.delete(key);
  }
}
