import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
// Random bytes are drawn from the CSPRNG in blocks and each byte is used once: one system call per
// 256 ids instead of one per id (the id is on the path of every send a person starts).
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/**
 * A new confirmation id: 128 random bits, base64url. Unguessable, because knowing an id is the first
 * step to confirming it; and safe in a URL, a header or a downstream idempotency key.
 */
export function newConfirmationId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

const ID_SHAPE = /^[A-Za-z0-9_-]{8,128}$/;

/** True when `id` could be a confirmation id; anything else is never handed to a store. */
export function isConfirmationIdShape(id: unknown): id is string {
  return typeof id === 'string' && ID_SHAPE.test(id);
}
