import { Deadlines, Expiring } from './deadlines.js';

/** How a guarded call ended. */
export type GuardedOutcome<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' };

const TIMED_OUT: GuardedOutcome<never> = { kind: 'timeout' };
const ABORTED: GuardedOutcome<never> = { kind: 'aborted' };
const deadlines = new Deadlines();

// One executor for every guard's promise: it hands `resolve` out through this slot, read at once,
// so a call allocates no executor closure.
let capturedResolve: ((result: unknown) => void) | undefined;
const captureResolve = (resolve: (result: unknown) => void): void => {
  capturedResolve = resolve;
};

/** True for a promise or anything else with a `then` method. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/**
 * One guarded call of a tool's function: it hands the function a signal (made only if read: most
 * tools never do, and an AbortController per call would be one of the slowest parts of a fast
 * invoke), and races what the function returns against the timeout and the caller's signal. One
 * object per call carries all of it, because on a fast tool every allocation shows.
 */
export class GuardedCall extends Expiring {
  deadline = Number.POSITIVE_INFINITY;
  readonly #timeoutMs: number;
  readonly #parent: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #abortedWith: { reason: unknown } | undefined;
  #settled = false;
  #resolve: ((result: unknown) => void) | undefined;
  #convert: ((outcome: GuardedOutcome<unknown>) => unknown) | undefined;
  #onAbort: (() => void) | undefined;

  constructor(timeoutMs: number, parent: AbortSignal | undefined) {
    super();
    this.#timeoutMs = timeoutMs;
    this.#parent = parent;
  }

  /** True once the call ended: it returned, threw, timed out or was aborted. */
  get isSettled(): boolean {
    return this.#settled;
  }

  /** Aborted when the caller aborts or the timeout passes. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortedWith !== undefined) this.#controller.abort(this.#abortedWith.reason);
      else if (this.#parent?.aborted) this.#controller.abort(this.#parent.reason);
    }
    return this.#controller.signal;
  }

  /**
   * Maps what the function returned through `convert`, never rejecting: a plain value at once; a
   * promise when it settles, times out or the caller aborts — whichever is first.
   */
  settle<T, R>(
    returned: T | PromiseLike<T>,
    convert: (outcome: GuardedOutcome<T>) => R,
  ): R | Promise<Awaited<R>> {
    if (!isThenable(returned)) return convert({ kind: 'ok', value: returned });
    this.#convert = convert as (outcome: GuardedOutcome<unknown>) => unknown;
    const result = new Promise<Awaited<R>>(captureResolve as (resolve: (value: Awaited<R>) => void) => void);
    this.#resolve = capturedResolve;
    if (Number.isFinite(this.#timeoutMs) && this.#timeoutMs > 0) {
      this.deadline = deadlines.now() + this.#timeoutMs;
      deadlines.watch(this);
    }
    if (this.#parent !== undefined) {
      this.#onAbort = () => this.#finish(ABORTED);
      this.#parent.addEventListener('abort', this.#onAbort, { once: true });
    }
    try {
      returned.then(
        (value) => this.#finish({ kind: 'ok', value }),
        (error: unknown) => this.#finish({ kind: 'threw', error }),
      );
    } catch (error) {
      this.#finish({ kind: 'threw', error });
    }
    return result;
  }

  /** Calls `fn` and settles what it returns or throws (see `settle`). */
  run<T, R>(
    fn: () => T | PromiseLike<T>,
    convert: (outcome: GuardedOutcome<T>) => R,
  ): R | Promise<Awaited<R>> {
    let returned: T | PromiseLike<T>;
    try {
      returned = fn();
    } catch (error) {
      return convert({ kind: 'threw', error });
    }
    return this.settle(returned, convert);
  }

  /** `run` for `fn.call(receiver, input, ctx)`: the same guard, without a closure around the call. */
  apply<I, C, T, R>(
    fn: ((this: unknown, input: I, ctx: C) => T | PromiseLike<T>) | undefined,
    receiver: unknown,
    input: I,
    ctx: C,
    convert: (outcome: GuardedOutcome<T | undefined>) => R,
  ): R | Promise<Awaited<R>> {
    let returned: T | PromiseLike<T> | undefined;
    try {
      returned = fn?.call(receiver, input, ctx);
    } catch (error) {
      return convert({ kind: 'threw', error });
    }
    return this.settle(returned, convert);
  }

  override expire(): void {
    this.#finish(TIMED_OUT);
  }

  #abort(reason: unknown): void {
    this.#abortedWith = { reason };
    this.#controller?.abort(reason);
  }

  #finish(outcome: GuardedOutcome<unknown>): void {
    if (this.#settled) return;
    this.#settled = true;
    deadlines.unwatch(this);
    if (this.#onAbort !== undefined) this.#parent?.removeEventListener('abort', this.#onAbort);
    if (outcome.kind === 'timeout') this.#abort(new DOMException('The tool timed out', 'TimeoutError'));
    if (outcome.kind === 'aborted') this.#abort(this.#parent?.reason);
    let result: unknown;
    try {
      result = this.#convert?.(outcome);
    } catch (error) {
      result = this.#convert?.({ kind: 'threw', error });
    }
    this.#resolve?.(result);
  }
}
