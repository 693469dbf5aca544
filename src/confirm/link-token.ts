import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new one-time link token: 256 random bits, base64url. Only its hash is ever stored. */
export function newLinkToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Whether `token` has the shape of a link token (a cheap refusal before any store read). */
export function isLinkTokenShape(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

/** SHA-256 (hex) of a link token: what the store keys the link by. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
