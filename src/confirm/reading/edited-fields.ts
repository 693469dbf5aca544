import type { Confirmation } from '../../confirmation.js';

/**
 * The top-level payload fields a person changed by editing (every recorded edit, once each): a
 * destination among them is named by that person now, not by the agent's run.
 */
export function editedFields(record: Pick<Confirmation, 'history'>): string[] {
  return [...new Set(record.history.flatMap((entry) => entry.edit?.fields ?? []))];
}
