import type { CedarValueJson } from '@cedar-policy/cedar-wasm/nodejs';

/** Record keys Cedar's JSON reads as an entity or extension value: refused, so input cannot forge one. */
const ESCAPES = new Set(['__entity', '__extn', '__expr']);

/**
 * A JSON value as Cedar reads it, or `undefined` for a `null` (Cedar has no null: the field or element
 * is left out, as if absent). Arrays become sets. Cedar numbers are 64-bit integers (Long) only: a safe
 * integer passes as a Long, any other number (`1.5`, `1e21`) as its text, a String, so a policy that
 * compares it with a Long errors and its rule denies. Throws for a record key Cedar would read as an
 * entity or extension (`__entity`, `__extn`, `__expr`) and for a value JSON has not (a bigint, a Date).
 */
export function toCedarValue(value: unknown, path: string): CedarValueJson | undefined {
  if (value === null) return undefined;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : String(value);
    case 'object':
      if (Array.isArray(value)) {
        return value.flatMap((item, index) => {
          const converted = toCedarValue(item, `${path}[${index}]`);
          return converted === undefined ? [] : [converted];
        });
      }
      if (isPlainObject(value)) return toCedarRecord(value, path);
  }
  throw new TypeError(`${path} is not a JSON value Cedar can read.`);
}

/** A plain object as a Cedar record, `null` fields left out. */
export function toCedarRecord(
  value: Readonly<Record<string, unknown>>,
  path: string,
): Record<string, CedarValueJson> {
  const record: Record<string, CedarValueJson> = {};
  for (const [key, item] of Object.entries(value)) {
    if (ESCAPES.has(key)) throw new TypeError(`${path} has the key ${key}, which Cedar reads as an escape.`);
    const converted = toCedarValue(item, `${path}.${key}`);
    if (converted !== undefined) record[key] = converted;
  }
  return record;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
