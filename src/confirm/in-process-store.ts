import type { ConfirmationStore, FinishChange, StoreChange, TransitionOutcome } from './store.js';
import type { Confirmation } from './types.js';

/**
 * How confirm may skip re-digesting a payload the memory store holds, without trusting anything a
 * caller could have changed:
 *
 * 1. For the memory store, called directly, `createConfirmation` builds the record deep-frozen —
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
 * The voucher and the rest of the memory store's privileges (`InProcessAccess`) are internal: none
 * of it is exported from the package.
 *
 * One slot, not a table: the registry vouches only right before calling the memory store's own
 * `create` directly, so nothing runs in between; a voucher that is not taken only costs the fast
 * path, never correctness.
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

/**
 * What the memory store offers the registry beyond the `ConfirmationStore` contract, under a key
 * nobody else has: the vouching of step 3, and its hot operations without a promise — it is
 * synchronous inside anyway, and awaiting an already-settled promise for each of them was a visible
 * share of a round trip.
 */
export interface InProcessAccess {
  /** Step 3: true when `record` is the very object held under its id, and it was vouched for. */
  readonly hasVerifiedDigest: (record: Confirmation) => boolean;
  /**
   * The store's own `create`, `claim` and `finish`. A call skips the promise only while the
   * store still has exactly these: a wrapper that replaced one (`{ ...store, claim }`) is called as is.
   */
  readonly methods: Pick<ConfirmationStore, 'create' | 'claim' | 'finish'>;
  /** The same operations, answering at once; they throw where the methods reject. */
  readonly create: (confirmation: Confirmation) => void;
  readonly claim: (id: string, change: StoreChange) => TransitionOutcome;
  /**
   * With `result`, what `deliver` returned, already deep-frozen exactly as JSON text reads back: kept
   * as the record's result instead of parsing `change.resultJson` (which may then be left out).
   */
  readonly finish: (id: string, change: FinishChange, result?: FrozenResult) => TransitionOutcome;
}

/** A delivery's result as `snapshotJson(value, 'frozen-as-json')` made it. */
export interface FrozenResult {
  readonly value: unknown;
}

/** The key the memory store keeps its `InProcessAccess` under. */
export const IN_PROCESS: unique symbol = Symbol('graded-tools.inProcess');

/** A store that offers `InProcessAccess` (the memory store). */
export interface InProcessStore extends ConfirmationStore {
  readonly [IN_PROCESS]: InProcessAccess;
}

function accessOf(store: ConfirmationStore): InProcessAccess | undefined {
  let access: unknown;
  try {
    access = (store as Partial<InProcessStore>)[IN_PROCESS];
  } catch {
    // A store behind a strict proxy may refuse a key it does not know: it simply has no such access.
    return undefined;
  }
  return typeof access === 'object' && access !== null ? (access as InProcessAccess) : undefined;
}

/** True when `store` vouches that `record`'s payload is the snapshot its digest was computed from. */
export function hasVerifiedDigest(store: ConfirmationStore, record: Confirmation): boolean {
  return accessOf(store)?.hasVerifiedDigest(record) === true;
}

/**
 * The promise-free form of `store[name]`, or `undefined` when the store has none or its `name` is
 * not the memory store's own method any more.
 */
export function directCall<Name extends 'create' | 'claim' | 'finish'>(
  store: ConfirmationStore,
  name: Name,
): InProcessAccess[Name] | undefined {
  const access = accessOf(store);
  return access !== undefined && store[name] === access.methods[name] ? access[name] : undefined;
}
