import type { Locale } from '../messages/index.js';
import { type ConfirmFlow, callStore, confirmationFailure, emitConfirmation } from './flow.js';
import type { Confirmation, ConfirmationFailure } from './types.js';

/**
 * Marks one pending confirmation past its `expiresAt` as `expired` and answers `EXPIRED`. Nothing is
 * sent either way; if marking fails the answer is the same, and `expireDue` will mark it later.
 */
export async function expireOne(
  flow: ConfirmFlow,
  record: Confirmation,
  now: number,
  locale: Locale,
): Promise<ConfirmationFailure> {
  const expired = await callStore(() => flow.store.expire({ now, id: record.id }));
  const changed = expired.ok ? expired.value[0] : undefined;
  if (changed !== undefined) emitConfirmation(flow, 'expired', changed);
  return confirmationFailure('EXPIRED', {}, locale, changed ?? record);
}
