import type { Confirmation, ConfirmationStatus } from '../../confirmation.js';
import { isInProcess } from '../../stores/in-process.js';
import type { ConfirmationStore } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { isPerRequestIo } from '../../util/per-request-io.js';
import {
  type BundleView,
  bundleView,
  firstUndelivered,
  isBundleSettled,
  readBundle,
} from '../bundles/bundle-view.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import { callStore, type Fail, type FlowContext } from '../flow-context.js';
import type { Waiting } from '../read-options.js';
import type { ConfirmationResult } from '../types.js';

/**
 * The statuses a waiting agent hears about: a person (or the clock) decided, and nothing is in flight.
 * A `scheduled` send is not decided yet: it may still be cancelled.
 */
export const DECIDED_STATUSES: ReadonlySet<ConfirmationStatus> = new Set<ConfirmationStatus>([
  'delivered',
  'rejected',
  'expired',
  'cancelled',
  'failed',
  'unknown',
]);

/** The longest one `setTimeout` can wait; longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After a failed re-read, the next try: a change may have been missed meanwhile. */
const RETRY_READ_MS = 1_000;
/**
 * A wait that cannot rely on being told reads the store again from its own timer: first after 200 ms,
 * each wait twice the last, at most 1 s apart.
 */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 1_000;

/**
 * How a wait learns of a decision. On Cloudflare Workers only by reading the store from its own timer:
 * a notice comes from the request that decided, and a wait settled from there never resumes its own
 * request. Elsewhere from the registry's notices and the store's `watch`, and by reading again on a
 * timer when the store reports no changes made elsewhere (D1, a store of your own; not the memory
 * store, which nothing outside this process changes).
 */
function hearing(store: ConfirmationStore): { readonly notices: boolean; readonly poll: boolean } {
  if (isPerRequestIo()) return { notices: false, poll: true };
  return { notices: true, poll: !hasCapability(store, 'watch') && !isInProcess(store) };
}

/**
 * Resolves once the confirmation is decided — by this process or any other sharing the store, in this
 * request or another (the store's `watch`: PostgreSQL `LISTEN/NOTIFY`, SQLite's data-version check; or
 * its own reads on a timer: `hearing`) — or the wait times out or is aborted. At `expiresAt` it marks a still-pending one `expired` itself (one conditional write,
 * safe beside any sweep), so an agent never waits past the point where nobody can confirm. Holds at most one
 * watcher, one timer and one abort listener while it waits, and none of them once it has settled.
 */
export async function waitForDecision(
  ctx: FlowContext,
  id: string,
  waiting: Waiting,
  fail: Fail,
): Promise<ConfirmationResult> {
  if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
  if (waiting.signal?.aborted) return fail('ABORTED', { detail: 'wait' });
  // Not a confirmation's id: a bundle's, whose steps are waited for together.
  const looked = await callStore(async () => (await ctx.store.get(id)) === undefined);
  const source = looked.ok && looked.value ? bundleSource(ctx, id) : oneSource(ctx, id);
  return new Promise((resolve) => new Waiter(ctx, source, waiting, fail, resolve).start());
}

/** What a waiter waits on: which notices concern it, and how to read where it stands. */
interface WaitSource {
  readonly concerns: (id: string) => boolean;
  /** The record that speaks for it (a bundle: the step it waits on), whether it is decided, the bundle. */
  readonly read: () => Promise<
    { readonly record: Confirmation; readonly decided: boolean; readonly bundle?: BundleView } | undefined
  >;
}

function oneSource(ctx: FlowContext, id: string): WaitSource {
  return {
    concerns: (changed) => changed === id,
    read: async () => {
      const record = await ctx.store.get(id);
      return record === undefined ? undefined : { record, decided: DECIDED_STATUSES.has(record.status) };
    },
  };
}

/** A bundle: decided once nothing more happens without a person (`isBundleSettled`). */
function bundleSource(ctx: FlowContext, bundleId: string): WaitSource {
  return {
    concerns: (changed) => changed.startsWith(`${bundleId}-`),
    read: async () => {
      const steps = await readBundle(ctx, bundleId);
      const record = steps === undefined ? undefined : (firstUndelivered(steps) ?? steps.at(-1));
      if (steps === undefined || record === undefined) return undefined;
      return { record, decided: isBundleSettled(steps), bundle: bundleView(steps) };
    },
  };
}

class Waiter {
  readonly #ctx: FlowContext;
  readonly #source: WaitSource;
  readonly #waiting: Waiting;
  readonly #fail: Fail;
  readonly #resolve: (result: ConfirmationResult) => void;
  readonly #deadline: number | undefined;
  readonly #hearsNotices: boolean;
  /** The next poll's wait (`undefined`: no poll, the wait is told). */
  #pollMs: number | undefined;
  #settled = false;
  #reading = false;
  /** A change arrived while a read was in flight: read once more after it. */
  #readAgain = false;
  #last: Confirmation | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unwatch: (() => void) | undefined;
  readonly #onAbort = () => this.#settle(this.#fail('ABORTED', { detail: 'wait' }, this.#last));

  constructor(
    ctx: FlowContext,
    source: WaitSource,
    waiting: Waiting,
    fail: Fail,
    resolve: (result: ConfirmationResult) => void,
  ) {
    this.#ctx = ctx;
    this.#source = source;
    this.#waiting = waiting;
    this.#fail = fail;
    this.#resolve = resolve;
    this.#deadline = waiting.timeoutMs === undefined ? undefined : ctx.now() + waiting.timeoutMs;
    const hears = hearing(ctx.store);
    this.#hearsNotices = hears.notices;
    this.#pollMs = hears.poll ? POLL_FIRST_MS : undefined;
  }

  start(): void {
    // Watch before the first read, so a decision landing between the two is not missed.
    if (this.#hearsNotices)
      this.#unwatch = this.#ctx.watchers.add((notice) => {
        if (notice.id === undefined || this.#source.concerns(notice.id)) this.#read();
      });
    this.#waiting.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#read();
  }

  /** Reads the record; at most one read in flight, and one more if a change came meanwhile. */
  #read(): void {
    if (this.#settled) return;
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = true;
    void callStore(() => this.#source.read()).then((found) => {
      this.#reading = false;
      if (this.#settled) return;
      if (!found.ok) {
        // The first read decides whether there is anything to wait for; a later failure is retried.
        if (this.#last === undefined) this.#settle(this.#fail('STORE_FAILED', { detail: found.detail }));
        else this.#arm(RETRY_READ_MS);
        return;
      }
      if (found.value === undefined) return this.#settle(this.#fail('CONFIRMATION_NOT_FOUND', {}));
      const { record, decided, bundle } = found.value;
      this.#last = record;
      if (decided)
        return this.#settle({ ok: true, confirmation: record, ...(bundle === undefined ? {} : { bundle }) });
      if (this.#readAgain) {
        this.#readAgain = false;
        return this.#read();
      }
      this.#arm(undefined);
    });
  }

  /**
   * One timer: the wait's deadline, the record's expiry, a re-read after a failure, or the next poll,
   * whichever is first.
   */
  #arm(retryMs: number | undefined): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const now = this.#ctx.now();
    const pending = this.#last?.status === 'pending';
    const expiresAt = pending && this.#last !== undefined ? Date.parse(this.#last.expiresAt) : undefined;
    const poll = this.#pollMs === undefined ? undefined : now + this.#pollMs;
    const candidates = [this.#deadline, expiresAt, retryMs === undefined ? undefined : now + retryMs, poll];
    const next = Math.min(...candidates.filter((at): at is number => at !== undefined));
    if (!Number.isFinite(next)) return;
    this.#timer = setTimeout(() => this.#onTimer(), Math.min(Math.max(0, next - now), MAX_TIMER_MS));
  }

  #onTimer(): void {
    this.#timer = undefined;
    if (this.#settled) return;
    const now = this.#ctx.now();
    if (this.#deadline !== undefined && now >= this.#deadline) {
      const params = {
        detail: 'wait',
        ms: this.#waiting.timeoutMs ?? 0,
        status: this.#last?.status ?? 'pending',
      };
      this.#settle(this.#fail('TIMEOUT', params, this.#last));
      return;
    }
    const last = this.#last;
    if (last?.status === 'pending' && Date.parse(last.expiresAt) <= now) {
      // Nobody can confirm it any more: mark it (conditionally; a sweep may be first), then read it.
      void callStore(() => this.#ctx.store.expire({ now, id: last.id })).then((expired) => {
        const changed = expired.ok ? expired.value[0] : undefined;
        if (changed !== undefined) void this.#ctx.emit('expired', changed);
        this.#read();
      });
      return;
    }
    if (this.#pollMs !== undefined) this.#pollMs = Math.min(this.#pollMs * 2, POLL_MAX_MS);
    this.#read();
  }

  #settle(result: ConfirmationResult): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#waiting.signal?.removeEventListener('abort', this.#onAbort);
    this.#resolve(result);
  }
}
