/** Limits on what counts as acceptable arguments; generous for tools, tight enough to stay safe. */
export interface ArgumentLimits {
  /** The longest raw JSON arguments string accepted, in characters. */
  readonly maxLength: number;
  /** The deepest nesting accepted in an object given directly. */
  readonly maxDepth: number;
}

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxLength: 1_000_000, maxDepth: 64 };

/** Why arguments could not be read. A class, so the success path returns the object itself. */
export class ArgumentsProblem {
  readonly detail: string;
  constructor(detail: string) {
    this.detail = detail;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeKind(value: unknown): string {
  if (value === null) return 'got null';
  if (Array.isArray(value)) return 'got an array';
  return `got ${typeof value}`;
}

/**
 * Walks a caller-given object: no cycles, no functions/symbols/bigints, bounded depth. `open` holds
 * the objects being walked, outermost first: a cycle is one of them inside itself. (An array searched
 * linearly, not a Set: arguments nest a few levels, and a Set cost an allocation and a hash per call.)
 */
function findShapeProblem(
  value: unknown,
  depth: number,
  limits: ArgumentLimits,
  open: object[],
): string | undefined {
  switch (typeof value) {
    case 'function':
    case 'symbol':
    case 'bigint':
      return `a ${typeof value} is not JSON`;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case 'object': {
      if (value === null) return undefined;
      if (depth > limits.maxDepth) return `it is nested deeper than ${limits.maxDepth} levels`;
      if (open.includes(value)) return 'it contains a cycle';
      open.push(value);
      for (const child of Array.isArray(value) ? value : Object.values(value)) {
        const problem = findShapeProblem(child, depth + 1, limits, open);
        if (problem !== undefined) return problem;
      }
      open.pop();
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Reads what a caller passed as arguments: a JSON string (what models send), an object, or nothing.
 * An empty string or `undefined` means `{}` (models often send `""` for a tool without parameters).
 */
export function readArguments(
  raw: unknown,
  limits: ArgumentLimits,
): Record<string, unknown> | ArgumentsProblem {
  if (raw === undefined) return {};
  if (typeof raw === 'string') {
    if (raw.length > limits.maxLength)
      return new ArgumentsProblem(`they are longer than ${limits.maxLength} characters`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      // Checked only on failure: trimming every valid arguments string would copy it for nothing.
      if (raw.trim() === '') return {};
      return new ArgumentsProblem(
        `they are not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
      );
    }
    return isPlainRecord(parsed) ? parsed : new ArgumentsProblem(describeKind(parsed));
  }
  if (!isPlainRecord(raw)) return new ArgumentsProblem(describeKind(raw));
  let problem: string | undefined;
  try {
    problem = findShapeProblem(raw, 0, limits, []);
  } catch {
    problem = 'they could not be read (a getter threw)';
  }
  return problem === undefined ? raw : new ArgumentsProblem(problem);
}
