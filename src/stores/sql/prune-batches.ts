import type { SqlStatement } from './dialect.js';

/** Rows a prune deletes per statement: small enough that one never holds the database for long. */
export const PRUNE_BATCH = 200;

// `setImmediate` where there is one (Node, Bun, Deno); workerd without `nodejs_compat` has a timer only.
const nextTurn = () =>
  new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate : setTimeout)(resolve));

/**
 * Runs `batch` — a `DELETE` of at most `$2` rows older than `$1` — until one deletes less than a full
 * batch; returns how many it deleted. Another caller's confirm gets its turn between batches
 * (SQLite's driver never yields).
 */
export async function pruneInBatches(batch: SqlStatement, cutoff: unknown): Promise<number> {
  let pruned = 0;
  for (;;) {
    const { changed } = await batch([cutoff, PRUNE_BATCH]);
    pruned += changed;
    await nextTurn();
    if (changed < PRUNE_BATCH) return pruned;
  }
}
