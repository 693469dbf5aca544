// The browser's WebAuthn ceremonies with the server's JSON: the options come base64url-encoded (as
// @simplewebauthn/server makes them), navigator.credentials wants bytes, and the answer goes back as
// JSON again. The plain API and ~80 lines, not a library in the page: nothing is interpreted here,
// the server verifies everything.
import type {
  PasskeyAssertion,
  PasskeyCreationOptionsJSON,
  PasskeyRegistrationResponse,
  PasskeyRequestOptionsJSON,
} from '../../passkeys/passkey-types.js';

/** A ceremony's outcome: the JSON to send, or why there is none (nothing was approved or added). */
export type Ceremony<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: 'PASSKEY_CANCELLED' | 'PASSKEY_UNSUPPORTED' | 'PASSKEY_EXISTS' };

/** Whether this page can run a ceremony at all (WebAuthn, in a secure context). */
export function canUsePasskeys(): boolean {
  return window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

/** `navigator.credentials.create` with the server's registration options. */
export async function createPasskey(
  options: PasskeyCreationOptionsJSON,
): Promise<Ceremony<PasskeyRegistrationResponse>> {
  if (!canUsePasskeys()) return { ok: false, code: 'PASSKEY_UNSUPPORTED' };
  const publicKey: PublicKeyCredentialCreationOptions = {
    rp: options.rp,
    user: { ...options.user, id: toBytes(options.user.id) },
    challenge: toBytes(options.challenge),
    pubKeyCredParams: options.pubKeyCredParams.map((p) => ({ alg: p.alg, type: p.type })),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    excludeCredentials: (options.excludeCredentials ?? []).map(descriptor),
    ...(options.authenticatorSelection === undefined
      ? {}
      : { authenticatorSelection: options.authenticatorSelection as AuthenticatorSelectionCriteria }),
    attestation: (options.attestation ?? 'none') as AttestationConveyancePreference,
  };
  const made = await ceremony(() => navigator.credentials.create({ publicKey }));
  if (!made.ok) return made;
  const credential = made.value;
  const response = credential.response as AuthenticatorAttestationResponse;
  const transports = typeof response.getTransports === 'function' ? response.getTransports() : [];
  // What @simplewebauthn/browser adds too, where the browser offers it (the attestation holds it all).
  const spki = typeof response.getPublicKey === 'function' ? response.getPublicKey() : null;
  const algorithm =
    typeof response.getPublicKeyAlgorithm === 'function' ? response.getPublicKeyAlgorithm() : undefined;
  const authenticatorData =
    typeof response.getAuthenticatorData === 'function' ? response.getAuthenticatorData() : undefined;
  return {
    ok: true,
    value: {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: 'public-key',
      response: {
        clientDataJSON: toBase64url(response.clientDataJSON),
        attestationObject: toBase64url(response.attestationObject),
        transports,
        ...(spki === null ? {} : { publicKey: toBase64url(spki) }),
        ...(algorithm === undefined ? {} : { publicKeyAlgorithm: algorithm }),
        ...(authenticatorData === undefined ? {} : { authenticatorData: toBase64url(authenticatorData) }),
      },
      ...(credential.authenticatorAttachment === null
        ? {}
        : { authenticatorAttachment: credential.authenticatorAttachment }),
      clientExtensionResults: credential.getClientExtensionResults() as Record<string, unknown>,
    },
  };
}

/** `navigator.credentials.get` with the server's challenge for one decision: the assertion. */
export async function signWithPasskey(
  options: PasskeyRequestOptionsJSON,
): Promise<Ceremony<PasskeyAssertion>> {
  if (!canUsePasskeys()) return { ok: false, code: 'PASSKEY_UNSUPPORTED' };
  const publicKey: PublicKeyCredentialRequestOptions = {
    challenge: toBytes(options.challenge),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.rpId === undefined ? {} : { rpId: options.rpId }),
    allowCredentials: (options.allowCredentials ?? []).map(descriptor),
    userVerification: (options.userVerification ?? 'required') as UserVerificationRequirement,
  };
  const got = await ceremony(() => navigator.credentials.get({ publicKey }));
  if (!got.ok) return got;
  const credential = got.value;
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    ok: true,
    value: {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: 'public-key',
      response: {
        clientDataJSON: toBase64url(response.clientDataJSON),
        authenticatorData: toBase64url(response.authenticatorData),
        signature: toBase64url(response.signature),
        ...(response.userHandle === null ? {} : { userHandle: toBase64url(response.userHandle) }),
      },
      ...(credential.authenticatorAttachment === null
        ? {}
        : { authenticatorAttachment: credential.authenticatorAttachment }),
      clientExtensionResults: credential.getClientExtensionResults() as Record<string, unknown>,
    },
  };
}

/** The browser's prompt, its refusals as codes: cancelled or timed out, or a passkey already there. */
async function ceremony(run: () => Promise<Credential | null>): Promise<Ceremony<PublicKeyCredential>> {
  try {
    const credential = await run();
    if (credential === null || !(credential instanceof PublicKeyCredential))
      return { ok: false, code: 'PASSKEY_CANCELLED' };
    return { ok: true, value: credential };
  } catch (error) {
    const name = error instanceof DOMException ? error.name : '';
    if (name === 'InvalidStateError') return { ok: false, code: 'PASSKEY_EXISTS' };
    if (name === 'SecurityError' || name === 'NotSupportedError')
      return { ok: false, code: 'PASSKEY_UNSUPPORTED' };
    return { ok: false, code: 'PASSKEY_CANCELLED' };
  }
}

function descriptor(d: {
  readonly id: string;
  readonly type: 'public-key';
  readonly transports?: readonly string[];
}): PublicKeyCredentialDescriptor {
  return {
    id: toBytes(d.id),
    type: d.type,
    ...(d.transports === undefined ? {} : { transports: [...d.transports] as AuthenticatorTransport[] }),
  };
}

/** base64url (padded or not) → bytes. */
export function toBytes(base64url: string): ArrayBuffer {
  const base64 = base64url.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** bytes → base64url without padding. */
export function toBase64url(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
