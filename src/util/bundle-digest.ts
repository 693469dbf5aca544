import { digestOf } from './sha256.js';

/**
 * The digest a person decides a bundle by: SHA-256 (lowercase hex) of the canonical JSON
 * `{"bundle":[<digest of step 1>,<digest of step 2>,…]}` — every step's own `payloadDigest`, in order.
 * A step changed, added, removed or moved is another bundle digest: `confirmBundle` refuses the
 * decision (`PAYLOAD_CHANGED`).
 *
 * @example
 * ```ts
 * import { bundleDigest, payloadDigest } from 'graded-tools';
 * const refund = payloadDigest('refund.issue', { customer: 'cus-42', amount: 150 });
 * const email = payloadDigest('email.send', { to: 'ana@example.com', text: 'Refunded 150 EUR.' });
 * bundleDigest([refund, email]) === bundleDigest([email, refund]); // false: the order is what was approved
 * ```
 */
export function bundleDigest(stepDigests: readonly string[]): string {
  if (!Array.isArray(stepDigests) || stepDigests.some((digest) => typeof digest !== 'string'))
    throw new TypeError('bundleDigest(stepDigests): pass every step’s digest, in order, as strings');
  return digestOf(`{"bundle":${JSON.stringify(stepDigests)}}`);
}
