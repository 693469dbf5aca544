/** How long an activity id is remembered: past the life of the token that carried it. */
export const SEEN_FOR_MS = 2 * 60 * 60 * 1000;
/** The most activity ids remembered at once: far above a team's rate of presses. */
const MAX_SEEN = 10_000;

/**
 * The activity ids this instance has taken, so the same activity sent again decides nothing here
 * (it is answered with the card as it stands). Bounded: when full of live ids, new activities are
 * refused rather than remembered less (failing closed). In-process only — on another instance a
 * replay meets the registry's own answer (`ALREADY_DECIDED`, `ALREADY_APPROVED`, the digest), never
 * a second decision.
 */
export class SeenActivities {
  readonly #seen = new Map<string, number>();

  /** `'fresh'` (and now remembered), `'replayed'`, or `'full'`. */
  take(id: string, nowMs: number): 'fresh' | 'replayed' | 'full' {
    if (this.#seen.has(id)) return 'replayed';
    for (const [seen, at] of this.#seen) {
      if (at > nowMs - SEEN_FOR_MS) break;
      this.#seen.delete(seen);
    }
    if (this.#seen.size >= MAX_SEEN) return 'full';
    this.#seen.set(id, nowMs);
    return 'fresh';
  }
}
