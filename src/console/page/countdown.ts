// Live countdowns — to expiry, or to a held send's delivery — with one timer for the whole page, on the
// server's clock (the offset from the last `serverTime`), so a wrong clock on the person's device does
// not show a wrong time left.
import type { Strings } from './i18n.js';

/** What a countdown says while time is left ("Expires in 0:24"), and once it has run out. */
export interface CountdownWords {
  readonly left: (left: string) => string;
  readonly over: string;
}

let offsetMs = 0;
let timer: ReturnType<typeof setInterval> | undefined;
const watched = new Map<HTMLElement, CountdownWords>();

/** Remembers how far the server's clock is from this device's. */
export function syncClock(serverTime: string | undefined): void {
  const server = serverTime ? Date.parse(serverTime) : Number.NaN;
  if (Number.isFinite(server)) offsetMs = server - Date.now();
}

/** Now on the server's clock (ms since the epoch), as far as the last `serverTime` tells. */
export function serverNow(): number {
  return Date.now() + offsetMs;
}

function left(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function show(node: HTMLElement, words: CountdownWords): void {
  const remaining = Date.parse(node.dataset.expires ?? '') - (Date.now() + offsetMs);
  const text = remaining > 0 ? words.left(left(remaining)) : words.over;
  if (node.textContent !== text) node.textContent = text;
  node.classList.toggle('soon', remaining > 0 && remaining < 60_000);
}

function tick(): void {
  for (const [node, words] of watched) {
    if (node.isConnected) show(node, words);
    else watched.delete(node);
  }
  if (watched.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

/**
 * Keeps `node`'s text at the time left until `at`, every second, while it is in the page: "Expires in
 * 0:24" by default, or in `words` (a held send's "Sending in 0:24").
 */
export function countdown(
  node: HTMLElement,
  at: string,
  t: Strings,
  words: CountdownWords = { left: t.expiresIn, over: t.expiredAgo },
): HTMLElement {
  node.dataset.expires = at;
  show(node, words);
  watched.set(node, words);
  timer ??= setInterval(tick, 1000);
  return node;
}
