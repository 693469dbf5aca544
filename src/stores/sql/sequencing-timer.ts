import type { AuditSequencer } from './sql-audit.js';

/** How often a SQL store (SQLite, PostgreSQL) sequences its audit log, once it has committed an entry. */
export const SEQUENCE_INTERVAL_MS = 1_000;

/**
 * A timer that sequences every `intervalMs` from the first `start()` (the first entry this process
 * commits) until `stop()`: one run at a time, failures left for the next run, and never the reason a
 * process stays alive (unref'd). `stop` runs one last sequencing, so a clean shutdown leaves nothing
 * pending; `halt` only stops the timer (a synchronous `close` drains by itself).
 */
export function sequencingTimer(
  sequence: AuditSequencer,
  intervalMs = SEQUENCE_INTERVAL_MS,
): { start(): void; halt(): void; stop(): Promise<void> } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= sequence()
      .catch(() => 0)
      .finally(() => {
        running = undefined;
      });
  };
  const halt = () => {
    clearInterval(timer);
    timer = undefined;
  };
  return {
    start() {
      if (timer !== undefined) return;
      timer = setInterval(tick, intervalMs);
      if (typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
      else (globalThis as { Deno?: { unrefTimer?(id: unknown): void } }).Deno?.unrefTimer?.(timer);
    },
    halt,
    async stop() {
      if (timer === undefined) return;
      halt();
      await running;
      await sequence().catch(() => 0);
    },
  };
}
