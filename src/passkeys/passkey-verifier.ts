import type {
  PasskeyAssertion,
  PasskeyCreationOptionsJSON,
  PasskeyCredentialInfo,
  PasskeyRegistrationResponse,
  PasskeyRequestOptionsJSON,
} from './passkey-types.js';

/** A verifier's answer: what it found, or why not (one line, for the person and the log). */
export type PasskeyCheck<Found> =
  | ({ readonly ok: true } & Found)
  | { readonly ok: false; readonly error: string };

/**
 * What the registry asks of a WebAuthn library: build a ceremony's options, and check what the
 * authenticator answered. Defined in the core, implemented by `graded-tools/passkeys` (`createPasskeys`,
 * on `@simplewebauthn/server`): the core entry never loads a WebAuthn library. The challenge is made
 * and kept by the registry (a single-use nonce and the hash of the decision it binds); a verifier only
 * checks that the client data carries exactly it.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createPasskeys } from 'graded-tools/passkeys';
 *
 * const passkeys = createPasskeys({
 *   rpID: 'approvals.example.com',
 *   rpName: 'Acme approvals',
 *   origin: 'https://approvals.example.com',
 * });
 * const registry = new ToolRegistry({ passkeys });
 * ```
 */
export interface PasskeyVerifier {
  /** The WebAuthn relying party id (a domain: `approvals.example.com`, `localhost`). */
  readonly rpID: string;
  /** How long a challenge may be answered, in milliseconds (single use). */
  readonly challengeTtlMs: number;
  /** Registration options for `approver`, with this `challenge` (base64url), excluding `exclude`. */
  registrationOptions(input: {
    readonly approver: string;
    readonly displayName: string;
    readonly challenge: string;
    readonly exclude: readonly PasskeyCredentialInfo[];
  }): Promise<PasskeyCreationOptionsJSON>;
  /** Checks a registration made for `expectedChallenge`; user verification required. */
  verifyRegistration(input: {
    readonly response: PasskeyRegistrationResponse;
    readonly expectedChallenge: string;
  }): Promise<
    PasskeyCheck<{
      readonly id: string;
      readonly publicKey: string;
      readonly counter: number;
      readonly transports: readonly string[];
    }>
  >;
  /** Approval options for this `challenge` (base64url), allowing exactly `allow`. */
  authenticationOptions(input: {
    readonly challenge: string;
    readonly allow: readonly PasskeyCredentialInfo[];
  }): Promise<PasskeyRequestOptionsJSON>;
  /**
   * Checks an assertion made for `expectedChallenge` by `credential` (its public key; a counter that
   * did not advance past `credential.counter` fails): type `webauthn.get`, this relying party's origin
   * and rpId hash, user present and verified, the signature. `counter`: the authenticator's new count.
   */
  verifyAssertion(input: {
    readonly assertion: PasskeyAssertion;
    readonly expectedChallenge: string;
    readonly credential: PasskeyCredentialInfo;
  }): Promise<PasskeyCheck<{ readonly counter: number }>>;
}
