// Live countdowns to expiry: one timer for the whole page, on the server's clock (the offset from the
// last `serverTime`), so a wrong clock on the person's device does not show a wrong time left.
import type { Strings } from './i18n.js';

let offsetMs = 0;
let timer: ReturnType<typeof setInterval> | undefined;
const watched = new Set<HTMLElement>();

/** Remembers how far the server's clock is from this device's. */
export function syncClock(serverTime: string | undefined): void {
  const server = serverTime ? Date.parse(serverTime) : Number.NaN;
  if (Number.isFinite(server)) offsetMs = server - Date.now();
}

function left(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function show(node: HTMLElement, t: Strings): void {
  const remaining = Date.parse(node.dataset.expires ?? '') - (Date.now() + offsetMs);
  const text = remaining > 0 ? t.expiresIn(left(remaining)) : t.expiredAgo;
  if (node.textContent !== text) node.textContent = text;
  node.classList.toggle('soon', remaining > 0 && remaining < 60_000);
}

function tick(t: Strings): void {
  for (const node of watched) {
    if (node.isConnected) show(node, t);
    else watched.delete(node);
  }
  if (watched.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Keeps `node`'s text at the time left until `expiresAt`, every second, while it is in the page. */
export function countdown(node: HTMLElement, expiresAt: string, t: Strings): HTMLElement {
  node.dataset.expires = expiresAt;
  show(node, t);
  watched.add(node);
  timer ??= setInterval(() => tick(t), 1000);
  return node;
}
