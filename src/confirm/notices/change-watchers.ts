import type { ConfirmationStore } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import type { ConfirmationNotice } from '../types.js';

type Listener = (notice: ConfirmationNotice) => void;

/**
 * Who is watching the confirmations: told after each change this registry makes, and — while anyone
 * watches — of changes the store sees other processes make. A listener runs on a later microtask, so
 * it never runs inside a confirm, and what it throws is swallowed.
 */
export class ChangeWatchers {
  readonly #store: ConfirmationStore;
  readonly #listeners = new Set<Listener>();
  #unwatchStore: (() => void) | undefined;

  constructor(store: ConfirmationStore) {
    this.#store = store;
  }

  /** Adds a listener; the function it returns removes it (once; calling it again does nothing). */
  add(listener: Listener): () => void {
    if (typeof listener !== 'function') throw new TypeError('watch needs a listener function');
    // A wrapper per call: the same function watched twice is two watchers, each removed by its own.
    const own: Listener = (notice) => listener(notice);
    this.#listeners.add(own);
    if (this.#listeners.size === 1) this.#watchStore();
    return () => {
      if (!this.#listeners.delete(own) || this.#listeners.size > 0) return;
      const unwatch = this.#unwatchStore;
      this.#unwatchStore = undefined;
      try {
        unwatch?.();
      } catch {
        // A store that fails to stop watching must not break the caller.
      }
    };
  }

  /** Tells every listener, later. */
  notify(notice: ConfirmationNotice): void {
    if (this.#listeners.size === 0) return;
    const copy = Object.freeze({ ...notice });
    for (const listener of this.#listeners) {
      queueMicrotask(() => {
        // Removed meanwhile: a stopped watcher is never called again.
        if (!this.#listeners.has(listener)) return;
        try {
          listener(copy);
        } catch {
          // A watcher's mistake never reaches the confirmation path.
        }
      });
    }
  }

  #watchStore(): void {
    const store = this.#store;
    if (!hasCapability(store, 'watch')) return;
    try {
      this.#unwatchStore = store.watch((notice) => {
        const id = typeof notice?.id === 'string' ? notice.id : undefined;
        this.notify(id === undefined ? {} : { id });
      });
    } catch {
      this.#unwatchStore = undefined;
    }
  }
}
