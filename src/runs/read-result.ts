import type { RunRead } from '../stores/store.js';
import { keysIn, MAX_SCANNED_CHARS, plain } from './identifiers.js';

/** The most nodes of one tool result walked for values; the rest of a huge result is not read. */
const MAX_NODES = 50_000;
const MAX_DEPTH = 32;

/**
 * What one tool result holds for a run to remember: its distinct value keys and its texts of several
 * words (`plain`), walked bounded. A walk that finds more than `bounds` allow stops there: the store
 * then refuses the read whole (the run is full), so nothing past the bounds is ever kept. Never throws;
 * a hostile object is read as far as it lets.
 */
export function readResult(
  tool: string,
  result: unknown,
  bounds: { readonly maxValues: number; readonly maxTextChars: number },
): RunRead {
  const keys = new Set<string>();
  const texts: string[] = [];
  let textChars = 0;
  let nodes = 0;
  const over = () => keys.size > bounds.maxValues || textChars > bounds.maxTextChars;
  const add = (key: string) => {
    if (keys.size <= bounds.maxValues) keys.add(key);
  };
  const seen = new WeakSet<object>();
  const visit = (value: unknown, depth: number): void => {
    if (nodes++ > MAX_NODES || over()) return;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
      const text = String(value);
      keysIn(text, add);
      if (!text.includes(' ')) return;
      const plainText = plain(text.length > MAX_SCANNED_CHARS ? text.slice(0, MAX_SCANNED_CHARS) : text);
      // The text that crosses the bound is kept too, so the store sees the read is too long and refuses it.
      textChars += plainText.length + 1;
      texts.push(plainText);
      return;
    }
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
    if (seen.has(value) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return;
    seen.add(value);
    try {
      const items = Array.isArray(value) ? value : Object.values(value);
      for (const item of items) visit(item, depth + 1);
    } catch {
      // A getter that throws hides the rest of that object; what was read stays read.
    }
  };
  visit(result, 0);
  return { tool, keys: [...keys], texts };
}
