/** A plain object (not an array, not null): how adapters read the shapes a model sends. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
