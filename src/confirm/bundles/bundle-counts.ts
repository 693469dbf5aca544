import type { LimitCounter } from '../../invoke/apply-rules.js';
import type { LimitSpend } from '../../stores/store.js';

/**
 * What a bundle's steps count against limits, held here and written nowhere until the bundle is
 * stored: each step's limits are checked against the store's counter plus what the steps before it
 * hold (`peekLimit`), and `spends` hands the lot to `createBundle`, which spends it in the write that
 * stores the steps — so a bundle refused whole never counted, and a crash cannot leave a count behind.
 * `stepOf` says which step first counted on a counter (the step a refused spend names).
 */
export function bundleCounts(store: LimitCounter): {
  readonly counter: LimitCounter;
  /** From now on, what is counted is counted for step `index`. */
  step(index: number): void;
  /** What the steps hold, one spend per counter and window, those holding nothing left out. */
  spends(): LimitSpend[];
  stepOf(spend: Pick<LimitSpend, 'key' | 'windowStart'>): number | undefined;
} {
  const held = new Map<string, LimitSpend & { readonly step: number }>();
  const slotOf = (key: string, windowStart: number) => JSON.stringify([key, windowStart]);
  let current = 0;
  const { peekLimit } = store;
  const counter: LimitCounter =
    peekLimit === undefined
      ? {}
      : {
          async spendLimit(spend) {
            const slot = slotOf(spend.key, spend.windowStart);
            const mine = held.get(slot);
            const used = (await peekLimit.call(store, spend.key, spend.windowStart)) + (mine?.amount ?? 0);
            // The same comparison the stores make, so a fractional sum is refused alike everywhere.
            if (!(used + spend.amount <= spend.max)) return { ok: false, used };
            held.set(
              slot,
              mine === undefined
                ? { ...spend, step: current }
                : { ...mine, amount: mine.amount + spend.amount, max: Math.min(mine.max, spend.max) },
            );
            return { ok: true, used: used + spend.amount };
          },
          async refundLimit({ key, windowStart, amount }) {
            const slot = slotOf(key, windowStart);
            const mine = held.get(slot);
            if (mine !== undefined) held.set(slot, { ...mine, amount: Math.max(0, mine.amount - amount) });
          },
          async peekLimit(key, windowStart) {
            return (
              (await peekLimit.call(store, key, windowStart)) +
              (held.get(slotOf(key, windowStart))?.amount ?? 0)
            );
          },
        };
  return {
    counter,
    step(index) {
      current = index;
    },
    spends: () =>
      [...held.values()]
        .filter((use) => use.amount > 0)
        .map(({ key, windowStart, windowEnd, amount, max }) => ({
          key,
          windowStart,
          windowEnd,
          amount,
          max,
        })),
    stepOf: ({ key, windowStart }) => held.get(slotOf(key, windowStart))?.step,
  };
}
