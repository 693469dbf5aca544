import { Buffer } from 'node:buffer';
import crypto from 'node:crypto';
import { writeCanonical } from '../util/canonical-json.js';
import { digestOf } from '../util/sha256.js';

/** The version tag inside every binding: a change of what is bound is a new tag. */
export const PASSKEY_BINDING_VERSION = 'graded-tools/passkey-approval/1';

const NONCE_BYTES = 32;
const BINDING_BYTES = 32;

/** One decision a passkey signs: SEP-2672's "what is approved", with the digest covering tool and payload. */
export interface PasskeyDecision {
  readonly rpId: string;
  readonly kind: 'confirmation' | 'bundle';
  /** The confirmation's or the bundle's id. */
  readonly id: string;
  /** The payload's (or the bundle's) digest. */
  readonly digest: string;
  readonly approver: string;
}

/** SHA-256 (hex) of the canonical JSON of the decision: the challenge's binding part. */
export function bindingOf(decision: PasskeyDecision): string {
  return digestOf(
    writeCanonical({
      v: PASSKEY_BINDING_VERSION,
      rpId: decision.rpId,
      kind: decision.kind,
      id: decision.id,
      digest: decision.digest,
      approver: decision.approver,
      decision: 'approve',
    }),
  );
}

/** A fresh single-use nonce, base64url. */
export function newNonce(): string {
  return crypto.randomBytes(NONCE_BYTES).toString('base64url');
}

/** The challenge (base64url): the nonce's 32 bytes, then the binding's 32 (a registration binds nothing: zeros). */
export function challengeOf(nonce: string, binding: string): string {
  const bytes = Buffer.concat([
    Buffer.from(nonce, 'base64url'),
    binding === '' ? Buffer.alloc(BINDING_BYTES) : Buffer.from(binding, 'hex'),
  ]);
  return bytes.toString('base64url');
}

/** A challenge taken apart: its nonce (base64url) and binding (hex), or `undefined` when it is not one of ours. */
export function splitChallenge(challenge: string): { nonce: string; binding: string } | undefined {
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(challenge)) return undefined;
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length !== NONCE_BYTES + BINDING_BYTES) return undefined;
  return {
    nonce: bytes.subarray(0, NONCE_BYTES).toString('base64url'),
    binding: bytes.subarray(NONCE_BYTES).toString('hex'),
  };
}

/**
 * The challenge an assertion's client data carries (`clientDataJSON`, base64url JSON), and its type —
 * read once at the edge; `undefined` when it cannot be read.
 */
export function clientDataOf(
  clientDataJSON: unknown,
): { readonly challenge: string; readonly type: string } | undefined {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 10_000) return undefined;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return undefined;
    const { challenge, type } = data as { challenge?: unknown; type?: unknown };
    return typeof challenge === 'string' && typeof type === 'string' ? { challenge, type } : undefined;
  } catch {
    return undefined;
  }
}
