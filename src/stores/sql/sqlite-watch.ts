import { noticeListeners, type StoreWatcher, storeWatcher } from './notice-listeners.js';
import type { SqliteDriver } from './sqlite-driver.js';

/**
 * SQLite's `watch`: `PRAGMA data_version` changes when another connection commits to the file, so one
 * timer for all listeners reads it every `intervalMs` and tells them to read again (`{}`) when it
 * moved. The timer is `unref()`ed: watching never keeps a process alive.
 */
export function watchDataVersion(db: SqliteDriver, intervalMs: number): StoreWatcher {
  const dataVersion = db.prepare('PRAGMA data_version');
  let timer: ReturnType<typeof setInterval> | undefined;
  let seen: unknown;
  const read = (): unknown => {
    try {
      return db.isOpen
        ? (dataVersion.get([]) as { data_version?: unknown } | undefined)?.data_version
        : undefined;
    } catch {
      // A busy or closed database: try again on the next tick.
      return undefined;
    }
  };
  const listeners = noticeListeners({
    onFirst() {
      seen = read();
      timer = setInterval(() => {
        const version = read();
        if (version === undefined || version === seen) return;
        seen = version;
        listeners.notify({});
      }, intervalMs);
      timer.unref();
    },
    onEmpty() {
      clearInterval(timer);
      timer = undefined;
    },
  });
  return storeWatcher(listeners);
}
