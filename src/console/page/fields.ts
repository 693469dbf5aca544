// The readable field view of a payload: a description list, nested for objects, text only.
import { asText, el } from './dom.js';

const MAX_DEPTH = 4;

/** `payload` as a `<dl class="fields">` (or a `<pre>` for a value that is not an object). */
export function renderFields(payload: unknown, depth = 0): HTMLElement {
  if (typeof payload !== 'object' || payload === null || depth >= MAX_DEPTH) {
    return el('pre', { class: 'value' }, asText(payload));
  }
  const list = el('dl', { class: 'fields' });
  const entries = Array.isArray(payload)
    ? payload.map((v, i) => [String(i), v] as const)
    : Object.entries(payload);
  for (const [key, value] of entries) {
    const nested = typeof value === 'object' && value !== null;
    list.append(
      el('dt', {}, key),
      el('dd', {}, nested ? renderFields(value, depth + 1) : el('span', { class: 'value' }, asText(value))),
    );
  }
  return list;
}
