import type { Confirmation } from '../confirmation.js';
import type { Locale } from '../messages/index.js';
import type { ToolRegistry } from '../registry.js';
import { isAllowed } from './access.js';
import type { Offer } from './offer.js';
import { missingApproverFlags } from './quorum.js';
import type { ApprovalsConsoleOptions, ConsolePerson } from './types.js';

const NOTHING: Offer = Object.freeze({
  confirm: false,
  reject: false,
  edit: false,
  retry: false,
  markDelivered: false,
  cancel: false,
});

export type { Offer } from './offer.js';

/**
 * What `person` may do with `confirmation` now, asked of the registry's one check list without
 * deciding (`confirmations.canDecide`: status and expiry, the app's `authorize` for that action, four
 * eyes, what the tool's rules ask of approvers, the stored payload, the tool's gates with the person's
 * flags and scope). An edit also needs `authorize` to allow `edit`, as the decision asks it. Through an
 * approval link (`throughLink`) only confirm and reject, never an edit. A held send (`scheduled`)
 * offers Undo (`cancel`) to a person who approved it, and to others only when the app's `authorize`
 * allows `cancel` (without one, the check list is asked with none). A confirmation that needs a passkey
 * is offered Confirm when only the passkey is missing (the card's button then runs the ceremony). When
 * Confirm is not offered,
 * `whyNot` says why, and `missingFlags` which of the rules' approver flags the person lacks.
 */
export async function offeredActions(
  settings: {
    readonly registry: ToolRegistry<unknown>;
    readonly authorize: ApprovalsConsoleOptions['authorize'];
  },
  person: ConsolePerson,
  confirmation: Confirmation,
  asked: {
    readonly locale: Locale;
    readonly throughLink: boolean;
    /** A bundle's step, offered as part of its bundle's decision (the bundle digest shown). */
    readonly bundleDigest?: string | undefined;
  },
): Promise<Offer> {
  const { registry, authorize } = settings;
  const can = (kind: 'confirm' | 'reject' | 'retry' | 'markDelivered' | 'cancel') =>
    registry.confirmations.canDecide(confirmation, {
      kind,
      person: { id: person.id, flags: person.flags, scope: person.scope },
      authorize:
        kind === 'cancel' && authorize === undefined
          ? undefined
          : (record) => isAllowed(authorize, person, kind, record),
      locale: asked.locale,
      ...(asked.bundleDigest === undefined ? {} : { bundleDigest: asked.bundleDigest }),
    });
  if (confirmation.status === 'pending') {
    // A bundle's step is approved as the person sees it in its bundle: never through a link or edited.
    const inBundle = confirmation.bundle !== undefined;
    if (inBundle && asked.throughLink) return NOTHING;
    const [confirm, reject, edit] = await Promise.all([
      can('confirm'),
      can('reject'),
      asked.throughLink || inBundle ? false : isAllowed(authorize, person, 'edit', confirmation),
    ]);
    // The check list asks for a passkey last, once every other check passed: asked dry it can only
    // say none was given. The console's card gives one ("Approve with passkey"); a link cannot.
    const approvable = confirm.ok || (!asked.throughLink && confirm.code === 'PASSKEY_REQUIRED');
    return {
      ...NOTHING,
      confirm: approvable,
      reject: reject.ok,
      edit: approvable && edit,
      ...(approvable ? {} : whyNot(confirm.code, person, confirmation)),
    };
  }
  if (!asked.throughLink && confirmation.status === 'scheduled')
    return { ...NOTHING, cancel: (await can('cancel')).ok };
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

/** Why Confirm is not offered: the check list's code, and the rules' flags the person lacks. */
function whyNot(code: string, person: ConsolePerson, confirmation: Confirmation): Partial<Offer> {
  const missing = code === 'FLAG_NOT_GRANTED' ? missingApproverFlags(confirmation, person.flags) : [];
  return missing.length === 0 ? { whyNot: code } : { whyNot: code, missingFlags: missing };
}
