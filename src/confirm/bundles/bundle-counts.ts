import { type LimitCounter, refund } from '../../invoke/apply-rules.js';

/**
 * What a bundle's steps count against limits, kept as they count it: each step's calls count through
 * `counter` (into the store, so racing callers cannot pass a cap together), and a bundle refused whole
 * gives back all of it — what counts when asked as well as what counts on delivery — since it stored
 * nothing that was asked.
 */
export function bundleCounts(store: LimitCounter): {
  readonly counter: LimitCounter;
  giveBack(): Promise<void>;
} {
  const held = new Map<string, { key: string; windowStart: number; amount: number }>();
  const add = (key: string, windowStart: number, amount: number) => {
    const slot = JSON.stringify([key, windowStart]);
    const now = held.get(slot) ?? { key, windowStart, amount: 0 };
    held.set(slot, { ...now, amount: now.amount + amount });
  };
  const { spendLimit, refundLimit, peekLimit } = store;
  const counter: LimitCounter = {
    ...(spendLimit === undefined
      ? {}
      : {
          async spendLimit(spend) {
            const outcome = await spendLimit.call(store, spend);
            if (outcome.ok) add(spend.key, spend.windowStart, spend.amount);
            return outcome;
          },
        }),
    ...(refundLimit === undefined
      ? {}
      : {
          async refundLimit(spend) {
            await refundLimit.call(store, spend);
            add(spend.key, spend.windowStart, -spend.amount);
          },
        }),
    ...(peekLimit === undefined
      ? {}
      : { peekLimit: (key, windowStart) => peekLimit.call(store, key, windowStart) }),
  };
  return {
    counter,
    async giveBack() {
      const spent = [...held.values()].filter((use) => use.amount > 0);
      held.clear();
      await refund(store, spent);
    },
  };
}
