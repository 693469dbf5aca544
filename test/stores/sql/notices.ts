import type { StoreNotice } from '../../../src/stores/store.js';

/** Notices a listener heard, and a way to wait for one that matches. */
export interface HeardNotices {
  readonly listener: (notice: StoreNotice) => void;
  readonly heard: StoreNotice[];
  /** Resolves with the next notice matching `match` heard from now on (or rejects after `timeoutMs`). */
  next(match?: (notice: StoreNotice) => boolean, timeoutMs?: number): Promise<StoreNotice>;
  /** Like `next`, but a matching notice heard already counts. */
  some(match: (notice: StoreNotice) => boolean, timeoutMs?: number): Promise<StoreNotice>;
}

export function heardNotices(): HeardNotices {
  const heard: StoreNotice[] = [];
  const waiters: { match: (notice: StoreNotice) => boolean; resolve: (notice: StoreNotice) => void }[] = [];
  return {
    heard,
    listener(notice) {
      heard.push(notice);
      for (const waiter of [...waiters]) {
        if (!waiter.match(notice)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(notice);
      }
    },
    some(match, timeoutMs) {
      const seen = heard.find(match);
      return seen === undefined ? this.next(match, timeoutMs) : Promise.resolve(seen);
    },
    next(match = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`no matching notice within ${timeoutMs} ms; heard ${JSON.stringify(heard)}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (notice) => {
            clearTimeout(timer);
            resolve(notice);
          },
        });
      });
    },
  };
}

/** Lets `ms` pass, so a test can check that nothing was heard meanwhile. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
