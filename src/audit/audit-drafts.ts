import type { Confirmation } from '../confirmation.js';
import type { PasskeyProof } from '../passkeys/passkey-types.js';
import type { AuditDetail, AuditDraft } from './audit-entry.js';

/**
 * What a store records for each change it makes: the step's name in the log. A claim (and a retry's
 * reclaim) is `confirmed`, its `status` detail saying whether it went on to `delivering` or waits as
 * `scheduled`; a held send's delivery started by the sweep is `delivering`.
 */
export type LoggedAction =
  | 'created'
  | 'approved'
  | 'confirmed'
  | 'delivering'
  | 'rejected'
  | 'delivered'
  | 'failed'
  | 'unknown'
  | 'expired'
  | 'cancelled'
  | 'escalated';

/**
 * The audit entry of one confirmation step: the digest of its payload (never
 * the payload), the attempt and approvals so far, whether a link was spent — ids and counts only.
 */
export function confirmationDraft(step: {
  readonly action: LoggedAction;
  readonly confirmation: Confirmation;
  readonly by: string | undefined;
  readonly at: number;
  /** The decision spent a one-time approval link (recorded in the same entry: one append per decision). */
  readonly viaLink: boolean;
  /** The passkey assertion that proved the decision, kept whole so anyone can check it offline. */
  readonly passkey?: PasskeyProof | undefined;
}): AuditDraft {
  const { action, confirmation, by, at } = step;
  const detail: Record<string, string | number | boolean> = { digest: confirmation.digest };
  // A claim says where it went (delivering, or scheduled for an undo window); other actions say it all.
  if (action === 'confirmed') detail.status = confirmation.status;
  if (confirmation.attempt > 0) detail.attempt = confirmation.attempt;
  if (step.viaLink) detail.viaLink = true;
  // A bundle's step: which bundle, and where in it, so the log reads a bundle's story whole.
  if (confirmation.bundle !== undefined) {
    detail.bundle = confirmation.bundle.id;
    detail.step = confirmation.bundle.index;
  }
  const { approvals, requires } = confirmation;
  if (requires !== undefined) {
    detail.approvals = approvals?.length ?? 0;
    detail.approvalsNeeded = requires.approvals;
    if (requires.passkey === true) detail.passkey = true;
  }
  const proof = step.passkey;
  if (proof !== undefined) {
    detail.passkeyCredentialId = proof.credentialId;
    detail.passkeyAuthenticatorData = proof.authenticatorData;
    detail.passkeyClientDataJSON = proof.clientDataJSON;
    detail.passkeySignature = proof.signature;
    if (proof.userHandle !== undefined) detail.passkeyUserHandle = proof.userHandle;
  }
  return {
    at,
    kind: 'confirmation',
    confirmationId: confirmation.id,
    tool: confirmation.tool,
    ...(by === undefined ? {} : { by }),
    action,
    detail,
  };
}

/** The audit entry of a rule that refused a call: deny, limit or error. */
export function ruleDraft(refusal: {
  readonly tool: string;
  readonly actor: string | undefined;
  readonly caller: string;
  readonly rule: string;
  readonly decision: string;
  readonly reason: string | undefined;
  readonly at: number;
}): AuditDraft {
  const detail: AuditDetail = {
    rule: refusal.rule,
    caller: refusal.caller,
    ...(refusal.reason === undefined ? {} : { reason: refusal.reason.slice(0, 500) }),
  };
  const { actor } = refusal;
  return {
    at: refusal.at,
    kind: 'rule',
    tool: refusal.tool,
    ...(actor === undefined || actor === '' ? {} : { by: actor }),
    action: refusal.decision,
    detail,
  };
}

/**
 * The audit entry of a decision refused for its passkey (`PASSKEY_REQUIRED`, `PASSKEY_INVALID`):
 * nothing was decided, and the log says who tried, on what, and why not.
 */
export function passkeyRefusalDraft(refusal: {
  readonly record: Confirmation;
  readonly by: string;
  readonly code: string;
  readonly detail: string;
  readonly at: number;
}): AuditDraft {
  const { record } = refusal;
  return {
    at: refusal.at,
    kind: 'passkey',
    confirmationId: record.id,
    tool: record.tool,
    ...(refusal.by === '' ? {} : { by: refusal.by }),
    action: 'refused',
    detail: { code: refusal.code, reason: refusal.detail.slice(0, 500), digest: record.digest },
  };
}
