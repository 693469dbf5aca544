import type { Confirmation } from '../../confirmation.js';

/**
 * Four eyes (`requireDifferentApprover`), the rule written once: why `approvedBy` may not approve
 * `record` — they asked for it, or who asked is not recorded so it cannot be checked — or `undefined`.
 */
export function fourEyesRefusal(
  record: Pick<Confirmation, 'actor'>,
  approvedBy: string,
): 'same-person' | 'no-actor' | undefined {
  if (record.actor === undefined) return 'no-actor';
  return record.actor === approvedBy ? 'same-person' : undefined;
}
