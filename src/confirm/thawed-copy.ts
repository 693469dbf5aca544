import { setOwn } from './own-property.js';

/**
 * A fresh, unfrozen copy of plain JSON data (a frozen snapshot), for a caller who may change it. With
 * `asJsonText`, exactly what a `JSON.stringify` → `JSON.parse` round trip gives (`-0` becomes `0`),
 * without writing and parsing the text.
 */
export function thawedCopy(value: unknown, asJsonText = false): unknown {
  if (typeof value !== 'object' || value === null) {
    return asJsonText && value === 0 ? 0 : value;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) items.push(thawedCopy(value[i], asJsonText));
    return items;
  }
  const record: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setOwn(record, key, thawedCopy((value as Record<string, unknown>)[key], asJsonText));
  }
  return record;
}
