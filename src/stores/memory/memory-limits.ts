import type { CountedLimit } from '../../confirmation.js';
import type { LimitSpend, LimitStore } from '../store.js';

/** One counter: how much was spent in its window, and when the window ends (epoch ms). */
interface Counter {
  used: number;
  readonly windowEnd: number;
}

/**
 * The memory store's limit counters, keyed by counter and window start. Each spend checks and adds in
 * one synchronous step, so no two callers in the process can both take the last unit.
 */
export function memoryLimits(maxCounters: number): LimitStore & {
  /** Forgets counters whose window ended before `before` (epoch ms). */
  pruneLimits(before: number): void;
  /**
   * Gives back (or counts again) what a confirmation counted, synchronously, so the store does it in
   * the same step as the status change that calls for it. Never throws.
   */
  moveCounts(move: 'give-back' | 'count-again', counted: readonly CountedLimit[]): void;
  /**
   * Spends every one of `spends` synchronously if each stays within its `max` (those on one counter
   * added up), or none: the first that would not, and where its counter stands.
   */
  spendAll(spends: readonly LimitSpend[]): { readonly spend: LimitSpend; readonly used: number } | undefined;
} {
  const counters = new Map<string, Counter>();
  // The window start is digits only, so the first `:` ends it: no two (key, window) pairs collide.
  const slotOf = (key: string, windowStart: number) => `${windowStart}:${key}`;

  /** Room for a new counter: the ones whose window ended by `now` go first; refuses when still full. */
  const makeRoom = (now: number) => {
    if (counters.size < maxCounters) return;
    for (const [slot, counter] of counters) if (counter.windowEnd <= now) counters.delete(slot);
    if (counters.size >= maxCounters)
      throw new Error(`the memory store holds ${maxCounters} open limit counters (its maxRecords)`);
  };

  return {
    async spendLimit({ key, windowStart, windowEnd, amount, max }) {
      const slot = slotOf(key, windowStart);
      const counter = counters.get(slot);
      const used = counter?.used ?? 0;
      // The same comparison the SQL stores make, so a fractional sum is refused alike everywhere.
      if (!(used + amount <= max)) return { ok: false, used };
      if (counter !== undefined) counter.used = used + amount;
      else {
        makeRoom(windowStart);
        counters.set(slot, { used: amount, windowEnd });
      }
      return { ok: true, used: used + amount };
    },

    async refundLimit({ key, windowStart, amount }) {
      const counter = counters.get(slotOf(key, windowStart));
      if (counter !== undefined) counter.used = Math.max(0, counter.used - amount);
    },

    async peekLimit(key, windowStart) {
      return counters.get(slotOf(key, windowStart))?.used ?? 0;
    },

    moveCounts(move, counted) {
      for (const { key, windowStart, windowEnd, amount } of counted) {
        const slot = slotOf(key, windowStart);
        const counter = counters.get(slot);
        if (move === 'give-back') {
          if (counter !== undefined) counter.used = Math.max(0, counter.used - amount);
        } else if (counter !== undefined) counter.used += amount;
        // Counted again past `maxCounters` rather than refused: the status change has been decided.
        else counters.set(slot, { used: amount, windowEnd });
      }
    },

    spendAll(spends) {
      const after = new Map<string, number>();
      for (const spend of spends) {
        const slot = slotOf(spend.key, spend.windowStart);
        const used = after.get(slot) ?? counters.get(slot)?.used ?? 0;
        if (!(used + spend.amount <= spend.max)) return { spend, used };
        after.set(slot, used + spend.amount);
      }
      for (const { key, windowStart, windowEnd, amount } of spends) {
        const counter = counters.get(slotOf(key, windowStart));
        // Past `maxCounters` rather than refused: the bundle's steps were counted within their caps.
        if (counter !== undefined) counter.used += amount;
        else counters.set(slotOf(key, windowStart), { used: amount, windowEnd });
      }
      return undefined;
    },

    pruneLimits(before) {
      for (const [slot, counter] of counters) if (counter.windowEnd < before) counters.delete(slot);
    },
  };
}
