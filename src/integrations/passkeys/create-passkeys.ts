import { Buffer } from 'node:buffer';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { PasskeyCreationOptionsJSON, PasskeyRequestOptionsJSON } from '../../passkeys/passkey-types.js';
import type { PasskeyVerifier } from '../../passkeys/passkey-verifier.js';
import { describeThrown } from '../../util/describe-thrown.js';

/** `createPasskeys`'s options: the WebAuthn relying party approvers sign for. */
export interface PasskeysOptions {
  /** The relying party id: the domain the console is served from (`approvals.example.com`; `localhost` in tests). */
  readonly rpID: string;
  /** The name an authenticator shows when a passkey is made ("Acme approvals"). */
  readonly rpName: string;
  /** The console's origin (`https://approvals.example.com`), or every origin it is served from. */
  readonly origin: string | readonly string[];
  /** How long a challenge may be answered, in milliseconds (default 2 minutes; 10 s to 10 minutes). Single use. */
  readonly challengeTtlMs?: number;
}

const DEFAULT_TTL_MS = 120_000;

/**
 * Passkey approvals on `@simplewebauthn/server` (an optional peer): pass the result as the registry's
 * `passkeys`. A confirmation whose rule or tool says `passkey: true` is then approved only with an
 * assertion from one of the approver's registered passkeys over a challenge that binds this very
 * decision; user verification is required. Throws `ToolDefinitionError` (`INVALID_OPTION`) for an
 * option that cannot work.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createPasskeys } from 'graded-tools/passkeys';
 *
 * const registry = new ToolRegistry({
 *   passkeys: createPasskeys({
 *     rpID: 'approvals.example.com',
 *     rpName: 'Acme approvals',
 *     origin: 'https://approvals.example.com',
 *   }),
 * });
 * const options = await registry.passkeys.registrationOptions({ approver: 'li', displayName: 'Li Wei' });
 * // hand options.options to @simplewebauthn/browser's startRegistration, then registry.passkeys.register
 * ```
 */
export function createPasskeys(options: PasskeysOptions): PasskeyVerifier {
  const { rpID, rpName } = options ?? ({} as PasskeysOptions);
  const problem = (message: string) => new ToolDefinitionError('INVALID_OPTION', '', message);
  if (typeof rpID !== 'string' || rpID === '' || /^[0-9.:[\]]+$/.test(rpID) || rpID.includes('/'))
    throw problem('`rpID` must be a domain (an IP address is not a valid WebAuthn relying party id).');
  if (typeof rpName !== 'string' || rpName === '') throw problem('`rpName` must be a non-empty string.');
  const origins = typeof options.origin === 'string' ? [options.origin] : [...(options.origin ?? [])];
  if (
    origins.length === 0 ||
    !origins.every((origin) => typeof origin === 'string' && /^https?:\/\/[^/]+$/.test(origin))
  )
    throw problem(
      '`origin` must be the console origin (`https://approvals.example.com`), or a list of them.',
    );
  const ttl = options.challengeTtlMs ?? DEFAULT_TTL_MS;
  if (typeof ttl !== 'number' || !(ttl >= 10_000 && ttl <= 600_000))
    throw problem('`challengeTtlMs` must be from 10,000 to 600,000 milliseconds.');
  const bytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));
  const transports = (list: readonly string[]) => list as AuthenticatorTransport[];

  return Object.freeze({
    rpID,
    challengeTtlMs: ttl,

    async registrationOptions({ approver, displayName, challenge, exclude }) {
      const made = await generateRegistrationOptions({
        rpName,
        rpID,
        userName: approver,
        userDisplayName: displayName,
        userID: new TextEncoder().encode(approver),
        challenge: bytes(challenge),
        timeout: ttl,
        attestationType: 'none',
        excludeCredentials: exclude.map((credential) => ({
          id: credential.id,
          transports: transports(credential.transports),
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      });
      return made as unknown as PasskeyCreationOptionsJSON;
    },

    async verifyRegistration({ response, expectedChallenge }) {
      try {
        const checked = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: origins,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
        if (!checked.verified) return { ok: false, error: 'the registration did not verify' };
        const { credential } = checked.registrationInfo;
        return {
          ok: true,
          id: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: [...(credential.transports ?? response.response.transports ?? [])],
        };
      } catch (error) {
        return { ok: false, error: describeThrown(error).slice(0, 300) };
      }
    },

    async authenticationOptions({ challenge, allow }) {
      const made = await generateAuthenticationOptions({
        rpID,
        challenge: bytes(challenge),
        timeout: ttl,
        userVerification: 'required',
        allowCredentials: allow.map((credential) => ({
          id: credential.id,
          transports: transports(credential.transports),
        })),
      });
      return made as unknown as PasskeyRequestOptionsJSON;
    },

    async verifyAssertion({ assertion, expectedChallenge, credential }) {
      try {
        const checked = await verifyAuthenticationResponse({
          response: { ...assertion, clientExtensionResults: {} } as never,
          expectedChallenge,
          expectedOrigin: origins,
          expectedRPID: rpID,
          credential: {
            id: credential.id,
            publicKey: bytes(credential.publicKey),
            counter: credential.counter,
            transports: transports(credential.transports),
          },
          requireUserVerification: true,
        });
        if (!checked.verified) return { ok: false, error: 'the signature did not verify' };
        return { ok: true, counter: checked.authenticationInfo.newCounter };
      } catch (error) {
        return { ok: false, error: describeThrown(error).slice(0, 300) };
      }
    },
  } satisfies PasskeyVerifier);
}
