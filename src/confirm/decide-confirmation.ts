import type { Locale } from '../messages/index.js';
import { describeThrown } from '../util/describe-thrown.js';
import { isConfirmationIdShape } from './confirmation-id.js';
import { type ConfirmFlow, callStore, confirmationFailure, emitConfirmation } from './flow.js';
import { nameProblem, noteProblem } from './labels.js';
import type { ConfirmationResult } from './types.js';

/** A decision that needs no delivery: a person rejects a pending one or settles an unknown one. */
export type Decision = 'reject' | 'markDelivered';

/**
 * Records a person's `reject` (`pending` → `rejected`) or `markDelivered` (`unknown`/`failed` →
 * `delivered`) in one conditional write, so it cannot overtake a concurrent confirm or retry. A
 * rejection is accepted even past `expiresAt`: saying no is never dangerous.
 */
export async function decideConfirmation(
  flow: ConfirmFlow,
  id: string,
  decision: Decision,
  by: unknown,
  note: unknown,
  locale: Locale,
): Promise<ConfirmationResult> {
  try {
    if (!isConfirmationIdShape(id)) return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
    const byOption = decision === 'reject' ? 'rejectedBy' : 'by';
    const problem = nameProblem(by, byOption) ?? noteProblem(note, decision === 'reject' ? 'reason' : 'note');
    if (problem !== undefined) return confirmationFailure('INVALID_OPTION', { detail: problem }, locale);
    const change = { now: flow.now(), by: by as string, note: note as string | undefined };
    const written = await callStore(() =>
      decision === 'reject' ? flow.store.reject(id, change) : flow.store.markDelivered(id, change),
    );
    if (!written.ok) return confirmationFailure('STORE_FAILED', { detail: written.detail }, locale);
    const outcome = written.value;
    if (outcome.ok) {
      emitConfirmation(
        flow,
        decision === 'reject' ? 'rejected' : 'delivered',
        outcome.confirmation,
        change.by,
      );
      return { ok: true, confirmation: outcome.confirmation };
    }
    if (outcome.reason === 'not-found') return confirmationFailure('CONFIRMATION_NOT_FOUND', {}, locale);
    const current = outcome.confirmation;
    if (current.status === 'expired') return confirmationFailure('EXPIRED', {}, locale, current);
    return confirmationFailure('ALREADY_DECIDED', { status: current.status }, locale, current);
  } catch (error) {
    return confirmationFailure('RUN_FAILED', { detail: describeThrown(error) }, locale);
  }
}
