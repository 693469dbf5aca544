// graded-tools/passkeys: approvals a person signs with a passkey, on @simplewebauthn/server (an
// optional peer). The core defines `PasskeyVerifier`; this entry implements it.

export type { PasskeysOptions } from './create-passkeys.js';
export { createPasskeys } from './create-passkeys.js';
