/** Runs async work with at most `limit` tasks in flight; the rest wait their turn in order. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** A limiter for `limit` tasks at once. */
export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its place straight to the next in line, so no newcomer slips in between.
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) active -= 1;
    else next();
  };
  const finished = (value: unknown) => {
    release();
    return value;
  };
  const failed = (error: unknown) => {
    release();
    throw error;
  };
  const start = <T>(task: () => Promise<T>): Promise<T> => {
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    // One promise per task, not an async frame with two awaits: this sits on every MCP call.
    return running.then(finished, failed) as Promise<T>;
  };
  return <T>(task: () => Promise<T>): Promise<T> => {
    if (active < limit) {
      active += 1;
      return start(task);
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => start(task));
  };
}
