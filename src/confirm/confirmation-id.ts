import { randomBytes } from 'node:crypto';

/**
 * A new confirmation id: 128 random bits, base64url. Unguessable, because knowing an id is the first
 * step to confirming it; and safe in a URL, a header or a downstream idempotency key.
 */
export function newConfirmationId(): string {
  return randomBytes(16).toString('base64url');
}

const ID_SHAPE = /^[A-Za-z0-9_-]{8,128}$/;

/** True when `id` could be a confirmation id; anything else is never handed to a store. */
export function isConfirmationIdShape(id: unknown): id is string {
  return typeof id === 'string' && ID_SHAPE.test(id);
}
