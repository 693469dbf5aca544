import type { Confirmation } from '../confirm/types.js';
import { isAllowed } from './access.js';
import type { ConsoleSettings } from './console-request.js';
import type { ConsolePerson } from './types.js';

/**
 * The buttons a person is offered on one card: only what the registry would let them do now, so the
 * page has no dead buttons. `whyNot` says (as a code) why the approving one (Confirm, or Retry) is not
 * offered although the status would allow it: `FORBIDDEN` (`authorize`), `SAME_PERSON` (four eyes) …
 */
export interface Offer {
  readonly confirm: boolean;
  readonly reject: boolean;
  readonly edit: boolean;
  readonly retry: boolean;
  readonly markDelivered: boolean;
  readonly whyNot?: string;
}

const NOTHING: Offer = Object.freeze({
  confirm: false,
  reject: false,
  edit: false,
  retry: false,
  markDelivered: false,
});

/**
 * What `person` may do with `confirmation` now: its status allows it and the app's `authorize` says
 * yes — the same question, in the same order, the registry's check list asks at the decision. Through
 * an approval link (`throughLink`) only confirm and reject, never an edit.
 */
export async function offeredActions(
  settings: Pick<ConsoleSettings, 'authorize'>,
  person: ConsolePerson,
  confirmation: Confirmation,
  throughLink = false,
): Promise<Offer> {
  const may = (action: 'confirm' | 'reject' | 'edit' | 'retry' | 'markDelivered') =>
    isAllowed(settings.authorize, person, action, confirmation);
  if (confirmation.status === 'pending') {
    const [confirm, reject, edit] = await Promise.all([
      may('confirm'),
      may('reject'),
      throughLink ? false : may('edit'),
    ]);
    return {
      ...NOTHING,
      confirm,
      reject,
      edit: confirm && edit,
      ...(confirm ? {} : { whyNot: 'FORBIDDEN' }),
    };
  }
  if (!throughLink && (confirmation.status === 'failed' || confirmation.status === 'unknown')) {
    const [retry, markDelivered] = await Promise.all([may('retry'), may('markDelivered')]);
    return { ...NOTHING, retry, markDelivered, ...(retry ? {} : { whyNot: 'FORBIDDEN' }) };
  }
  return NOTHING;
}
