// The readable field view of a payload: a description list, nested for objects, text only. Top-level
// keys show their label from the payload schema when the server gives one; edited fields are marked.
import { asText, el } from './dom.js';

const MAX_DEPTH = 4;

export interface FieldOptions {
  /** Top-level field → label. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Top-level fields a previewed edit changed, and the word that marks them. */
  readonly changed?: readonly string[];
  readonly changedMark?: string;
}

/** `payload` as a `<dl class="fields">` (or a `<pre>` for a value that is not an object). */
export function renderFields(payload: unknown, options: FieldOptions = {}, depth = 0): HTMLElement {
  if (typeof payload !== 'object' || payload === null || depth >= MAX_DEPTH) {
    return el('pre', { class: 'value' }, asText(payload));
  }
  const list = el('dl', { class: 'fields' });
  const entries = Array.isArray(payload)
    ? payload.map((v, i) => [String(i), v] as const)
    : Object.entries(payload);
  for (const [key, value] of entries) {
    const nested = typeof value === 'object' && value !== null;
    const top = depth === 0 && !Array.isArray(payload);
    const label = (top && labelOf(options.labels, key)) || key;
    const edited = top && options.changed?.includes(key) === true;
    list.append(
      el(
        'dt',
        { 'data-key': key },
        label,
        edited && ' ',
        edited && el('span', { class: 'edited-mark' }, options.changedMark ?? ''),
      ),
      el(
        'dd',
        edited ? { class: 'edited' } : {},
        nested ? renderFields(value, {}, depth + 1) : el('span', { class: 'value' }, asText(value)),
      ),
    );
  }
  return list;
}

/**
 * A one-line summary of a payload for a compact row: its top-level values, labelled, leaving out a
 * short value the effect line already says (`besides`: "Emails the customer at ana@example.com").
 */
export function summarise(
  payload: unknown,
  labels: Readonly<Record<string, string>> = {},
  besides = '',
): string {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return asText(payload);
  return Object.entries(payload)
    .filter(([, value]) => {
      const text = asText(value);
      return !(besides !== '' && text.length > 0 && text.length <= 80 && besides.includes(text));
    })
    .map(([key, value]) => `${labelOf(labels, key) || key}: ${asText(value).replace(/\s+/g, ' ')}`)
    .join(' · ')
    .slice(0, 400);
}

function labelOf(labels: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined;
}
