/** Epoch ms as the ISO 8601 UTC string records keep. Throws a `RangeError` outside a `Date`'s range. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
