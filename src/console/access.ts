import type { Confirmation } from '../confirmation.js';
import type { ApprovalsConsoleOptions, ConsoleAction, ConsolePerson } from './types.js';

/**
 * Whether the app's `authorize` lets `person` do `action` with `confirmation`. Only `true` allows;
 * `false`, anything else, a throw and a rejected promise deny. Without `authorize`, a signed-in
 * person may do everything.
 */
export async function isAllowed(
  authorize: ApprovalsConsoleOptions['authorize'],
  person: ConsolePerson,
  action: ConsoleAction,
  confirmation: Confirmation,
): Promise<boolean> {
  if (authorize === undefined) return true;
  try {
    return (await authorize(person, action, confirmation)) === true;
  } catch {
    return false;
  }
}
