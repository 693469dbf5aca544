/**
 * Records keep times as ISO 8601 strings; the registry's clock and the stores compare epoch ms. Both
 * conversions are among the dearest steps of an in-memory round trip (a `Date` is formatted or parsed
 * each time), and the same few values come back again and again: a confirmation's creation and
 * expiry, then its claim and finish, often within the same millisecond. So each direction remembers
 * its last two answers — two slots, so a pair of values used in turn keeps hitting.
 */

let msA = Number.NaN;
let isoA = '';
let msB = Number.NaN;
let isoB = '';

/** Epoch ms as the ISO 8601 UTC string records use. Throws a `RangeError` outside a `Date`'s range. */
export function toIso(ms: number): string {
  if (ms === msA) return isoA;
  if (ms === msB) return isoB;
  const iso = new Date(ms).toISOString();
  msB = msA;
  isoB = isoA;
  msA = ms;
  isoA = iso;
  return iso;
}

let parsedA = '';
let parsedMsA = Number.NaN;
let parsedB = '';
let parsedMsB = Number.NaN;

/** An ISO time from a record as epoch ms, exactly as `Date.parse` reads it (`NaN` when it cannot). */
export function fromIso(iso: string): number {
  if (iso === parsedA) return parsedMsA;
  if (iso === parsedB) return parsedMsB;
  const ms = Date.parse(iso);
  parsedB = parsedA;
  parsedMsB = parsedMsA;
  parsedA = iso;
  parsedMsA = ms;
  return ms;
}
