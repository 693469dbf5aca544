import { SIGNATURE_WINDOW_SECONDS } from './signature.js';

/** The most signatures remembered at once: far above Slack's rate of clicks for one app. */
const MAX_SEEN = 10_000;

/**
 * Remembers the signatures of requests taken within the signature window, so the same signed request
 * sent again is refused. A signature older than the window is forgotten: the window refuses it
 * anyway. Bounded: when full of live signatures, new requests are refused rather than remembered
 * less (failing closed). In-process only — a replay to another instance meets the registry's own
 * answer (`ALREADY_DECIDED`, `ALREADY_APPROVED`), never a second decision.
 */
export class ReplayGuard {
  /** Signature → its request's timestamp (seconds), in arrival order. */
  readonly #seen = new Map<string, number>();

  /** `'fresh'` (and now remembered), `'replayed'`, or `'full'`. */
  take(signature: string, timestamp: number, nowSeconds: number): 'fresh' | 'replayed' | 'full' {
    if (this.#seen.has(signature)) return 'replayed';
    this.#forget(nowSeconds);
    if (this.#seen.size >= MAX_SEEN) return 'full';
    this.#seen.set(signature, timestamp);
    return 'fresh';
  }

  #forget(nowSeconds: number): void {
    const oldest = nowSeconds - SIGNATURE_WINDOW_SECONDS;
    const full = this.#seen.size >= MAX_SEEN;
    for (const [signature, timestamp] of this.#seen) {
      if (timestamp < oldest) this.#seen.delete(signature);
      // Arrival order is nearly timestamp order: stop at the first live one unless room is needed.
      else if (!full) return;
    }
  }
}
