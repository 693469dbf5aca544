import crypto from 'node:crypto';
import { writeCanonical } from '../util/canonical-json.js';
import type { AuditHead } from './verify-chain.js';

/**
 * A `node:crypto` `KeyObject`, declared by shape so the package's types need no `@types/node` (a
 * Worker has none): the `KeyObject` that `generateKeyPairSync` or `createPublicKey` returns fits.
 */
export interface AuditKeyObject {
  readonly type: 'secret' | 'public' | 'private';
  readonly asymmetricKeyType?: string | undefined;
}

/** A key `node:crypto` signs or verifies with: a `KeyObject`, or PEM text. */
export type AuditKey = AuditKeyObject | string;

/** The `KeyObject` a key of the right shape is; `node:crypto` refuses anything else with a TypeError. */
const keyObjectOf = (key: AuditKeyObject): crypto.KeyObject => key as crypto.KeyObject;

/**
 * The audit log's head signed with an Ed25519 key the app keeps: stored somewhere the database's
 * writers cannot reach (another system, a bucket with object lock, a printout), it proves the log up to
 * `seq` — `verify({ signedHead, publicKey })` then catches newest entries deleted or the chain rewritten.
 */
export interface SignedAuditHead extends AuditHead {
  /** When it was signed (ISO 8601); signed too. */
  readonly signedAt: string;
  /** Ed25519 signature (base64) over the canonical JSON of `{ hash, seq, signedAt }` with a context prefix. */
  readonly signature: string;
}

/** What is signed: a fixed prefix (so a signature over something else never passes) and the head. */
function signedBytes(head: AuditHead, signedAt: string): Buffer {
  const text = writeCanonical({ hash: head.hash, seq: head.seq, signedAt });
  return Buffer.from(`graded-tools audit head v1\n${text}`, 'utf8');
}

/** Signs `head` with an Ed25519 private key; throws for a key that is not one. */
export function signAuditHead(head: AuditHead, privateKey: AuditKey, now: number): SignedAuditHead {
  const key = typeof privateKey === 'string' ? crypto.createPrivateKey(privateKey) : keyObjectOf(privateKey);
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('signHead needs an Ed25519 private key.');
  const signedAt = new Date(now).toISOString();
  const signature = crypto.sign(null, signedBytes(head, signedAt), key).toString('base64');
  return { seq: head.seq, hash: head.hash, signedAt, signature };
}

/** True when `signed` was signed by the private half of `publicKey`; false for anything else. */
export function isAuditHeadSigned(signed: SignedAuditHead, publicKey: AuditKey): boolean {
  try {
    const { seq, hash, signedAt, signature } = signed;
    if (!Number.isSafeInteger(seq) || typeof hash !== 'string' || typeof signedAt !== 'string') return false;
    if (typeof signature !== 'string') return false;
    const key =
      typeof publicKey !== 'string' && publicKey.type === 'public'
        ? keyObjectOf(publicKey)
        : crypto.createPublicKey(typeof publicKey === 'string' ? publicKey : keyObjectOf(publicKey));
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return crypto.verify(null, signedBytes({ seq, hash }, signedAt), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
