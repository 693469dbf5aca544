import { digestOf, type JsonSnapshot, snapshotJson, writeCanonical } from './digest.js';
import { setOwn } from './own-property.js';

/**
 * The deep-frozen JSON snapshots this module made, each with its payload digest once computed (`''`
 * before). Every object and array inside one is frozen and holds only JSON values, so nobody — not a
 * caller, not a store, not `deliver` — can change it: a store may keep it without copying, and its
 * digest, computed once, stays its digest. Only objects this module froze itself are ever entered; a
 * value that merely looks frozen is not trusted.
 */
const snapshots = new WeakMap<object, string>();

/**
 * Like `snapshotJson`, but the copy is deep-frozen and remembered as trusted: `isFrozenSnapshot` knows
 * it, and `digestOfPayload` computes its digest only once.
 */
export function frozenSnapshot(value: unknown): JsonSnapshot {
  const snapshot = snapshotJson(value, true);
  if (snapshot.ok && typeof snapshot.value === 'object' && snapshot.value !== null) {
    snapshots.set(snapshot.value, '');
  }
  return snapshot;
}

/** True for an object `frozenSnapshot` made: deep-frozen plain JSON that nobody can change. */
export function isFrozenSnapshot(value: unknown): boolean {
  return typeof value === 'object' && value !== null && snapshots.has(value);
}

/**
 * SHA-256 of the payload's canonical JSON. For a frozen snapshot it is computed once and remembered
 * (it cannot change); anything else — a row a SQL store just parsed, which someone may have edited —
 * is digested again every time.
 */
export function digestOfPayload(payload: unknown): string {
  const known = typeof payload === 'object' && payload !== null ? snapshots.get(payload) : undefined;
  if (known === undefined) return digestOf(writeCanonical(payload));
  if (known !== '') return known;
  const digest = digestOf(writeCanonical(payload));
  snapshots.set(payload as object, digest);
  return digest;
}

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
