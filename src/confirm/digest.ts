import { canonicalJson, writeCanonical } from '../util/canonical-json.js';
import { digestOf } from '../util/sha256.js';

/**
 * The digest a person confirms: what they approve is *this tool with this payload*. It is the SHA-256
 * (lowercase hex) of the canonical JSON of `{ payload, tool }` — that is, of the UTF-8 text
 * `{"payload":<canonicalJson(payload)>,"tool":<tool as a JSON string>}`, where `tool` is the tool's
 * internal name (`pay.refund`, not the wire name). Show it (or keep it) with the payload and pass it
 * back to `registry.confirm`: a confirm recomputes it from the stored tool and payload and refuses
 * (`PAYLOAD_CHANGED`) a record whose tool or payload was changed. Throws a `TypeError` for a `tool`
 * that is not a string or a payload that is not plain JSON (see `canonicalJson`).
 *
 * @example
 * ```ts
 * import { canonicalJson, payloadDigest } from 'graded-tools';
 * import { createHash } from 'node:crypto';
 * const payload = { to: 'ana@example.com', text: 'Refunded.' };
 * const digest = payloadDigest('message.send', payload);
 * digest.length; // 64
 * payloadDigest('message.send', { text: 'Refunded.', to: 'ana@example.com' }) === digest; // true: key order does not matter
 * payloadDigest('message.broadcast', payload) === digest; // false: another tool is another approval
 * createHash('sha256').update(canonicalJson({ payload, tool: 'message.send' })).digest('hex') === digest; // true
 * ```
 */
export function payloadDigest(tool: string, payload: unknown): string {
  if (typeof tool !== 'string') {
    throw new TypeError("payloadDigest(tool, payload): `tool` must be the tool's internal name (a string)");
  }
  return digestOf(`{"payload":${canonicalJson(payload)},"tool":${JSON.stringify(tool)}}`);
}

/** `payloadDigest` of a payload that is plain JSON data already (a snapshot). */
export function confirmationDigest(tool: string, payload: unknown): string {
  return digestOf(writeCanonical({ payload, tool }));
}
