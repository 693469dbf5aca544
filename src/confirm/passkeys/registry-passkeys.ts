import type {
  PasskeyChallengeRequest,
  PasskeyChallengeResult,
  PasskeyFailure,
  PasskeyListResult,
  PasskeyRegisterRequest,
  PasskeyRegisterResult,
  PasskeyRegistrationOptionsRequest,
  PasskeyRegistrationOptionsResult,
  PasskeyRemoveRequest,
  PasskeyRemoveResult,
} from '../../passkeys/passkey-types.js';

/**
 * Approvers' passkeys (`registry.passkeys`): register one (`registrationOptions` → the browser's
 * `navigator.credentials.create` → `register`), list and remove them, and make the challenge for one
 * decision (`challenge` → `navigator.credentials.get` → `registry.confirm(id, { …, passkey })`).
 * Never rejects: every answer is `{ ok }` with a `code`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * const registry = new ToolRegistry();
 * const options = await registry.passkeys.registrationOptions({ approver: 'li', displayName: 'Li Wei' });
 * if (!options.ok) console.log(options.code); // 'PASSKEY_REQUIRED': no `passkeys` configured
 * ```
 */
export interface RegistryPasskeys {
  /** Options for the browser to create a passkey for `approver` (resident key preferred, UV required). */
  registrationOptions(request: PasskeyRegistrationOptionsRequest): Promise<PasskeyRegistrationOptionsResult>;
  /** Checks and keeps the browser's new passkey; its audit entry (with the public key) commits with it. */
  register(request: PasskeyRegisterRequest): Promise<PasskeyRegisterResult>;
  /** The approver's passkeys, oldest first. */
  list(request: { readonly approver: string }): Promise<PasskeyListResult>;
  /** Removes one of the approver's passkeys (`NOT_FOUND` when it is not theirs); audited. */
  remove(request: PasskeyRemoveRequest): Promise<PasskeyRemoveResult>;
  /**
   * The challenge for one decision — this confirmation (or bundle), this digest, this approver,
   * approve — single use, for the verifier's `challengeTtlMs`. `digest` is what the person approves:
   * the stored payload's, or their edit's as `confirmations.checkEdit` gave it (the confirm then proves
   * the assertion against the edit it is given). Refused as `confirm` would refuse (not found, already
   * decided; a bundle's digest that moved), and `PASSKEY_INVALID` when the approver has no passkey.
   */
  challenge(request: PasskeyChallengeRequest): Promise<PasskeyChallengeResult>;
}

/** The answer of every method when the registry has no `passkeys`. */
export function notConfigured(): PasskeyFailure {
  return {
    ok: false,
    code: 'PASSKEY_REQUIRED',
    error:
      'This registry has no passkeys configured: pass `passkeys: createPasskeys({ rpID, rpName, origin })` from graded-tools/passkeys.',
  };
}
