import type { Locale } from '../messages/index.js';
import { describeThrown } from '../util/describe-thrown.js';
import { type ConfirmFlow, callStore, confirmationFailure, emitConfirmation } from './flow.js';
import type { ConfirmationSweepResult } from './types.js';

/** The longest look-back `recoverStale` accepts: a year. */
const MAX_OLDER_THAN_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * Marks deliveries that started more than `olderThanMs` ago and never recorded an outcome as
 * `unknown`. It never re-delivers: only a person does, with `retry`, after reading the history.
 */
export async function recoverStaleConfirmations(
  flow: ConfirmFlow,
  olderThanMs: unknown,
  locale: Locale,
): Promise<ConfirmationSweepResult> {
  try {
    if (typeof olderThanMs !== 'number' || !(olderThanMs >= 0 && olderThanMs <= MAX_OLDER_THAN_MS)) {
      return confirmationFailure(
        'INVALID_OPTION',
        { detail: '`olderThanMs` must be a number of milliseconds from 0 to a year' },
        locale,
      );
    }
    const swept = await callStore(() => flow.store.recoverStale({ now: flow.now(), olderThanMs }));
    if (!swept.ok) return confirmationFailure('STORE_FAILED', { detail: swept.detail }, locale);
    for (const confirmation of swept.value) emitConfirmation(flow, 'unknown', confirmation);
    return { ok: true, changed: swept.value };
  } catch (error) {
    return confirmationFailure('RUN_FAILED', { detail: describeThrown(error) }, locale);
  }
}

/** Marks every pending confirmation past its `expiresAt` as `expired`. */
export async function expireDueConfirmations(
  flow: ConfirmFlow,
  locale: Locale,
): Promise<ConfirmationSweepResult> {
  try {
    const swept = await callStore(() => flow.store.expire({ now: flow.now() }));
    if (!swept.ok) return confirmationFailure('STORE_FAILED', { detail: swept.detail }, locale);
    for (const confirmation of swept.value) emitConfirmation(flow, 'expired', confirmation);
    return { ok: true, changed: swept.value };
  } catch (error) {
    return confirmationFailure('RUN_FAILED', { detail: describeThrown(error) }, locale);
  }
}
