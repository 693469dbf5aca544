/** Runs async work with at most `limit` tasks in flight; the rest wait their turn in order. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** A limiter for `limit` tasks at once. */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
