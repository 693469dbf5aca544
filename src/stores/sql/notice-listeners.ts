import type { StoreNotice } from '../store.js';

/** A store's `watch`, and what stops it for good (the store's `close`). */
export interface StoreWatcher {
  watch(listener: (notice: StoreNotice) => void): () => void;
  close(): void;
}

/** The listeners of a store's `watch`, each call its own entry (the same function twice is two). */
export interface NoticeListeners {
  /** Adds `listener`; the function returned removes it (again is a no-op). */
  add(listener: (notice: StoreNotice) => void): () => void;
  /** Calls every listener added and not removed; what one throws is swallowed. */
  notify(notice: StoreNotice): void;
  readonly size: number;
  /** Removes every listener. */
  clear(): void;
}

/**
 * The listener set both SQL stores' `watch` share. `onFirst` starts the store's watching and
 * `onEmpty` stops it, so a store nobody watches holds no connection and no timer.
 */
export function noticeListeners(hooks: { onFirst(): void; onEmpty(): void }): NoticeListeners {
  const entries = new Set<{ readonly listener: (notice: StoreNotice) => void }>();
  return {
    add(listener) {
      const entry = { listener };
      entries.add(entry);
      if (entries.size === 1) hooks.onFirst();
      return () => {
        if (!entries.delete(entry)) return;
        if (entries.size === 0) hooks.onEmpty();
      };
    },
    notify(notice) {
      for (const entry of [...entries]) {
        // One removed by an earlier listener of this round is not called.
        if (!entries.has(entry)) continue;
        try {
          entry.listener(notice);
        } catch {
          // A listener's failure is its own: the others still hear, and the store goes on.
        }
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      if (entries.size === 0) return;
      entries.clear();
      hooks.onEmpty();
    },
  };
}

/** A store's `watch` over `listeners`: once closed, it adds nothing more and has dropped every listener. */
export function storeWatcher(listeners: NoticeListeners): StoreWatcher & { readonly closed: boolean } {
  let closed = false;
  return {
    watch(listener) {
      if (closed) return () => {};
      return listeners.add(listener);
    },
    close() {
      closed = true;
      listeners.clear();
    },
    get closed() {
      return closed;
    },
  };
}
