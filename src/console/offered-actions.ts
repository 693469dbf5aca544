import type { Confirmation } from '../confirm/types.js';
import type { Locale } from '../messages/index.js';
import { isAllowed } from './access.js';
import type { ConsoleSettings } from './console-request.js';
import type { ConsolePerson } from './types.js';

/**
 * The buttons a person is offered on one card: only what the registry would let them do now, so the
 * page has no dead buttons. `whyNot` says (as the check list's code) why the approving one (Confirm,
 * or Retry) is not offered although the status would allow it: `FORBIDDEN` (`authorize`),
 * `SAME_PERSON` (four eyes), `FLAG_NOT_GRANTED`, `SCOPE_MISMATCH`, `EXPIRED` …
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
 * What `person` may do with `confirmation` now, asked of the registry's one check list without
 * deciding (`confirmations.canDecide`: status and expiry, the app's `authorize` for that action, four
 * eyes, the stored payload, the tool's gates with the person's flags and scope). An edit also needs
 * `authorize` to allow `edit`, as the decision asks it. Through an approval link (`throughLink`) only
 * confirm and reject, never an edit.
 */
export async function offeredActions(
  settings: Pick<ConsoleSettings, 'authorize' | 'registry'>,
  person: ConsolePerson,
  confirmation: Confirmation,
  asked: { readonly locale: Locale; readonly throughLink: boolean },
): Promise<Offer> {
  const { registry, authorize } = settings;
  const can = (kind: 'confirm' | 'reject' | 'retry' | 'markDelivered') =>
    registry.confirmations.canDecide(confirmation, {
      kind,
      person: { id: person.id, flags: person.flags, scope: person.scope },
      authorize: (record) => isAllowed(authorize, person, kind, record),
      locale: asked.locale,
    });
  if (confirmation.status === 'pending') {
    const [confirm, reject, edit] = await Promise.all([
      can('confirm'),
      can('reject'),
      asked.throughLink ? false : isAllowed(authorize, person, 'edit', confirmation),
    ]);
    return {
      ...NOTHING,
      confirm: confirm.ok,
      reject: reject.ok,
      edit: confirm.ok && edit,
      ...(confirm.ok ? {} : { whyNot: confirm.code }),
    };
  }
  if (!asked.throughLink && (confirmation.status === 'failed' || confirmation.status === 'unknown')) {
    const [retry, markDelivered] = await Promise.all([can('retry'), can('markDelivered')]);
    return {
      ...NOTHING,
      retry: retry.ok,
      markDelivered: markDelivered.ok,
      ...(retry.ok ? {} : { whyNot: retry.code }),
    };
  }
  return NOTHING;
}
