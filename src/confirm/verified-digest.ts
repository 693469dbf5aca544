import type { ConfirmationStore } from './store.js';
import type { Confirmation } from './types.js';

/**
 * How confirm may skip re-digesting a payload the memory store holds, without trusting anything a
 * caller could have changed:
 *
 * 1. For a store that vouches (the memory store), `createConfirmation` builds the record deep-frozen —
 *    shell, history, and the payload and input as frozen snapshots — and digests that frozen payload.
 *    Nobody can change it, so that digest stays its digest. It vouches for that very object, right
 *    before handing it to the store.
 * 2. The memory store's `create` takes the voucher if it was given that very object, and keeps it
 *    without copying. Anything else — another caller, a wrapper that passed a copy — gets no voucher:
 *    it is copied, and re-digested at every confirm, as before.
 * 3. At confirm, the store vouches for a record only if that object is the one it holds under that
 *    id; every later version of a vouched record shares its frozen payload and digest. A SQL store
 *    never vouches: a row can be edited, so it is always re-digested.
 *
 * One slot, not a table: between vouching and `create` taking the voucher nothing else runs, and a
 * voucher not taken (a store that waits first) only costs the fast path, never correctness.
 */
let vouched: Confirmation | undefined;

/** Step 1: `record` is deep-frozen and its `digest` is its payload's. */
export function vouchFor(record: Confirmation): void {
  vouched = record;
}

/** Step 2: true (once) when `record` is the very object vouched for. */
export function takeVoucher(record: Confirmation): boolean {
  const matches = vouched !== undefined && record === vouched;
  vouched = undefined;
  return matches;
}

/** Step 3: a store that can tell that `record`'s digest was verified answers through this key. */
export const VERIFIED_DIGEST: unique symbol = Symbol('graded-tools.verifiedDigest');

/** A store that vouches for some of its records (the memory store). */
export interface VouchingStore extends ConfirmationStore {
  readonly [VERIFIED_DIGEST]: (record: Confirmation) => boolean;
}

/** True for a store that keeps vouched records as they are (and so wants them deep-frozen). */
export function isVouchingStore(store: ConfirmationStore): boolean {
  return typeof (store as Partial<VouchingStore>)[VERIFIED_DIGEST] === 'function';
}

/** True when `store` vouches that `record`'s payload is the snapshot its digest was computed from. */
export function hasVerifiedDigest(store: ConfirmationStore, record: Confirmation): boolean {
  const check = (store as Partial<VouchingStore>)[VERIFIED_DIGEST];
  return typeof check === 'function' && check(record) === true;
}
