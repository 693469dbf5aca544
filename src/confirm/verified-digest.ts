import type { ConfirmationStore } from './store.js';
import type { Confirmation } from './types.js';

/**
 * How confirm may skip re-digesting a payload the memory store holds, without trusting anything a
 * caller could have changed:
 *
 * 1. `createConfirmation` makes the payload (and input) as deep-frozen snapshots and digests the
 *    payload. Nobody can change a deep-frozen snapshot, so that digest stays its digest. It vouches
 *    for exactly those objects and that digest, right before handing the record to the store.
 * 2. The memory store's `create` takes the voucher if the record holds those very objects and that
 *    very digest (anything else — another caller, a wrapper that swapped a field — gets no voucher and
 *    is copied and re-digested as before). It keeps the snapshots themselves, frozen, and every later
 *    version of the record shares them.
 * 3. At confirm, the store answers `VERIFIED_DIGEST` for a record only if that object is the one it
 *    holds under that id. A SQL store never does: a row can be edited, so it is always re-digested.
 *
 * One slot, not a table: between vouching and `create` taking the voucher nothing else runs, and a
 * voucher not taken (a store that waits first) only costs the fast path, never correctness.
 */
let vouchedPayload: unknown;
let vouchedInput: unknown;
let vouchedDigest: string | undefined;

/** Step 1: `payload` and `input` are deep-frozen snapshots and `digest` is the payload's digest. */
export function vouchFor(payload: unknown, input: unknown, digest: string): void {
  vouchedPayload = payload;
  vouchedInput = input;
  vouchedDigest = digest;
}

/** Step 2: true (once) when `record` holds exactly what was vouched for. */
export function takeVoucher(record: Confirmation): boolean {
  const digest = vouchedDigest;
  const matches =
    digest !== undefined &&
    record.digest === digest &&
    record.payload === vouchedPayload &&
    record.input === vouchedInput;
  vouchedPayload = undefined;
  vouchedInput = undefined;
  vouchedDigest = undefined;
  return matches;
}

/** Step 3: a store that can tell that `record`'s digest was verified answers through this key. */
export const VERIFIED_DIGEST: unique symbol = Symbol('graded-tools.verifiedDigest');

/** A store that vouches for some of its records (the memory store). */
export interface VouchingStore extends ConfirmationStore {
  readonly [VERIFIED_DIGEST]: (record: Confirmation) => boolean;
}

/** True when `store` vouches that `record`'s payload is the snapshot its digest was computed from. */
export function hasVerifiedDigest(store: ConfirmationStore, record: Confirmation): boolean {
  const check = (store as Partial<VouchingStore>)[VERIFIED_DIGEST];
  return typeof check === 'function' && check(record) === true;
}
