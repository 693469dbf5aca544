/**
 * A readable one-line description of anything thrown, never itself throwing: what a tool, a store or a
 * listener throws can be a getter-laden object, a revoked proxy or `undefined`.
 */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message || error.name);
    if (typeof error === 'string') return error;
    if (error === undefined) return 'undefined was thrown';
    const json = JSON.stringify(error);
    return json === undefined ? String(error) : json;
  } catch {
    return 'a value that cannot be described was thrown';
  }
}
