/** What `startSweeping` needs of a registry. */
export interface Sweepable {
  sweep(options?: { readonly staleAfterMs?: number }): Promise<unknown>;
}

/** A background sweep that can be stopped. */
export interface Sweeping {
  stop(): void;
}

/**
 * Runs `registry.sweep({ staleAfterMs })` every `intervalMs` (0: never): overdue sends expire, stale
 * deliveries become `unknown` (never one this process is still running, nor one younger than the
 * longest send or write timeout), reminders go out. One sweep at a time; never keeps the process alive; a
 * sweep that fails waits for the next.
 */
export function startSweeping(
  registry: Sweepable,
  options: { readonly intervalMs: number; readonly staleAfterMs?: number | undefined },
): Sweeping {
  const { intervalMs, staleAfterMs } = options;
  if (intervalMs <= 0) return { stop: () => {} };
  const sweepOptions = staleAfterMs === undefined ? undefined : { staleAfterMs };
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    Promise.resolve()
      .then(() => registry.sweep(sweepOptions))
      .catch(() => undefined)
      .finally(() => {
        sweeping = false;
      });
  }, intervalMs);
  // Node, Bun and Deno have `unref`; a runtime whose timers are plain numbers never waits on them anyway.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}
