/** How a guarded call ended. */
export type GuardedOutcome<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' };

/**
 * The signal handed to a tool, made only if the tool reads it: most reads never do, and an
 * AbortController per call would be the slowest part of a fast tool's invoke.
 */
export class LazySignal {
  #controller: AbortController | undefined;
  #aborted = false;

  constructor(private readonly parent: AbortSignal | undefined) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted || this.parent?.aborted) this.#controller.abort(this.parent?.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#aborted = true;
    this.#controller?.abort(reason);
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/**
 * Calls `fn` and settles with how it ended, never rejecting: a sync return or throw settles at once;
 * a promise races the timeout and the caller's signal. On timeout or abort the tool's own signal is
 * aborted so it can stop its I/O.
 */
export function runGuarded<T>(
  fn: () => T | PromiseLike<T>,
  lazy: LazySignal,
  timeoutMs: number,
  parent: AbortSignal | undefined,
): GuardedOutcome<T> | Promise<GuardedOutcome<T>> {
  let returned: T | PromiseLike<T>;
  try {
    returned = fn();
  } catch (error) {
    return { kind: 'threw', error };
  }
  if (!isThenable(returned)) return { kind: 'ok', value: returned };
  const pending = returned;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: GuardedOutcome<T>) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
      if (outcome.kind === 'timeout') lazy.abort(new DOMException('The tool timed out', 'TimeoutError'));
      if (outcome.kind === 'aborted') lazy.abort(parent?.reason);
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    const timer =
      Number.isFinite(timeoutMs) && timeoutMs > 0
        ? setTimeout(() => finish({ kind: 'timeout' }), timeoutMs)
        : undefined;
    parent?.addEventListener('abort', onAbort, { once: true });
    try {
      pending.then(
        (value) => finish({ kind: 'ok', value: value as T }),
        (error: unknown) => finish({ kind: 'threw', error }),
      );
    } catch (error) {
      finish({ kind: 'threw', error });
    }
  });
}

/** A readable one-line description of anything thrown, never itself throwing. */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    if (typeof error === 'string') return error;
    if (error === undefined) return 'undefined was thrown';
    const json = JSON.stringify(error);
    return json === undefined ? String(error) : json;
  } catch {
    return 'a value that cannot be described was thrown';
  }
}
