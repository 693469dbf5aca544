/** A call's signal, following its request's; `release` it once the call is answered. */
class CallSignal {
  readonly signal: AbortSignal;
  readonly controller: AbortController;
  readonly request: AbortSignal;
  readonly app: AbortSignal | undefined;
  readonly #owner: CallSignals;
  /** Where it sits in the owner's list of calls not yet listened for; -1 once out of it. */
  slot = -1;
  listener: (() => void) | undefined;

  constructor(
    owner: CallSignals,
    controller: AbortController,
    request: AbortSignal,
    app: AbortSignal | undefined,
  ) {
    this.#owner = owner;
    this.controller = controller;
    this.signal = controller.signal;
    this.request = request;
    this.app = app;
  }

  release(): void {
    this.#owner.release(this);
  }

  /** Aborts the call's signal as soon as a source does (at once if one already has). */
  listen(): void {
    const abort = () => this.controller.abort(this.app?.aborted ? this.app.reason : this.request.reason);
    if (this.request.aborted || this.app?.aborted) {
      abort();
      return;
    }
    this.listener = abort;
    this.request.addEventListener('abort', abort, { once: true });
    this.app?.addEventListener('abort', abort, { once: true });
  }

  unlisten(): void {
    if (this.listener === undefined) return;
    this.request.removeEventListener('abort', this.listener);
    this.app?.removeEventListener('abort', this.listener);
    this.listener = undefined;
  }
}

const MAX_POOLED = 256;
const noop = () => {};

/**
 * Hands each `tools/call` a signal that aborts when its request's (or the app's) does. A listener on
 * the SDK's fresh per-request signal cost about a tenth of a fast call (`bench/mcp.ts`), so calls run
 * under pooled signals (listening on a reused one is cheap), and the request's signal is listened to
 * only for calls still running when the event-loop turn ends.
 */
export class CallSignals {
  readonly #pool: AbortController[] = [];
  readonly #unheard: CallSignal[] = [];
  #scheduled = false;

  /** A signal for one call that aborts when `request` or `app` does. */
  follow(
    request: AbortSignal,
    app: AbortSignal | undefined,
  ): { readonly signal: AbortSignal; release(): void } {
    // Anything but a live AbortSignal from the app goes to the registry as it is, for it to judge.
    if (app !== undefined && (!(app instanceof AbortSignal) || app.aborted))
      return { signal: app, release: noop };
    if (request.aborted) return { signal: request, release: noop };
    const call = new CallSignal(this, this.#pool.pop() ?? new AbortController(), request, app);
    call.slot = this.#unheard.push(call) - 1;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#listenToUnheard);
    }
    return call;
  }

  /** @internal */
  release(call: CallSignal): void {
    if (call.slot >= 0) this.#remove(call);
    call.unlisten();
    // An aborted controller stays aborted; only an unused one can serve the next call.
    if (!call.signal.aborted && this.#pool.length < MAX_POOLED) this.#pool.push(call.controller);
  }

  #remove(call: CallSignal): void {
    const last = this.#unheard.pop() as CallSignal;
    if (last !== call) {
      last.slot = call.slot;
      this.#unheard[call.slot] = last;
    }
    call.slot = -1;
  }

  readonly #listenToUnheard = (): void => {
    this.#scheduled = false;
    for (let call = this.#unheard.pop(); call !== undefined; call = this.#unheard.pop()) {
      call.slot = -1;
      try {
        call.listen();
      } catch (error) {
        // A signal that cannot be listened to must not end the process: the call stops instead.
        call.controller.abort(error);
      }
    }
  };
}
