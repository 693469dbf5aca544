/** Limits on what counts as acceptable arguments; generous for tools, tight enough to stay safe. */
export interface ArgumentLimits {
  /**
   * The longest raw JSON arguments string accepted, in characters. An object given directly may hold
   * at most `maxLength / 2` values (what a JSON text of that length can hold), a shared sub-object
   * counted each time it appears.
   */
  readonly maxLength: number;
  /** The deepest nesting accepted, the same for a JSON string and an object given directly. */
  readonly maxDepth: number;
}

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxLength: 1_000_000, maxDepth: 64 };

/**
 * Texts longer than this get their nesting counted before `JSON.parse`: parsing 500,000 levels costs
 * ~190 ms, while a text this short parses in well under a millisecond however it nests.
 */
const PRE_SCAN_FROM_LENGTH = 65_536;

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

const tooDeep = (limits: ArgumentLimits) => `it is nested deeper than ${limits.maxDepth} levels`;

/** The walk's state: `open` holds the objects being walked, outermost first, to find a cycle. */
interface Walk {
  readonly limits: ArgumentLimits;
  readonly open: object[];
  readonly maxValues: number;
  values: number;
}

/**
 * Walks arguments: no cycles, no functions/symbols/bigints, no `__proto__` key, bounded depth and a
 * bounded count of values, so a DAG of shared sub-objects costs its budget, not 2^depth. (`open` is an
 * array searched linearly, not a Set: arguments nest a few levels, and a Set costs a hash per call.)
 */
function findShapeProblem(value: unknown, depth: number, walk: Walk): string | undefined {
  walk.values += 1;
  if (walk.values > walk.maxValues)
    return `it holds more than ${walk.maxValues} values (a shared sub-object counts each time it appears)`;
  switch (typeof value) {
    case 'function':
    case 'symbol':
    case 'bigint':
      return `a ${typeof value} is not JSON`;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
    case 'object': {
      if (value === null) return undefined;
      if (depth > walk.limits.maxDepth) return tooDeep(walk.limits);
      if (walk.open.includes(value)) return 'it contains a cycle';
      const isArray = Array.isArray(value);
      // Refused rather than dropped: a tool that merges its input would let it reach a prototype.
      if (!isArray && Object.hasOwn(value, '__proto__'))
        return 'it has a key named "__proto__", which is refused';
      walk.open.push(value);
      for (const child of isArray ? value : Object.values(value)) {
        const problem = findShapeProblem(child, depth + 1, walk);
        if (problem !== undefined) return problem;
      }
      walk.open.pop();
      return undefined;
    }
    default:
      return undefined;
  }
}

/** True when a JSON text opens more than `maxOpen` arrays/objects at once; brackets in strings are text. */
function nestsDeeperThan(text: string, maxOpen: number): boolean {
  let open = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      for (i += 1; i < text.length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 0x22) break;
        if (inner === 0x5c /* \ */) i += 1;
      }
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      open += 1;
      if (open > maxOpen) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      open -= 1;
    }
  }
  return false;
}

function checkShape(value: Record<string, unknown>, limits: ArgumentLimits): ArgumentsProblem | undefined {
  const walk: Walk = { limits, open: [], maxValues: Math.ceil(limits.maxLength / 2), values: 0 };
  let problem: string | undefined;
  try {
    problem = findShapeProblem(value, 0, walk);
  } catch (error) {
    problem =
      error instanceof RangeError
        ? 'they are nested too deeply to read'
        : 'they could not be read (a getter threw)';
  }
  return problem === undefined ? undefined : new ArgumentsProblem(problem);
}

/**
 * The same limits for what `JSON.parse` made, which has no cycle, getter or non-JSON value and at most
 * `maxLength / 2` values: only depth and `__proto__` are left to check, on the model's hot path.
 */
function findParsedProblem(value: object, depth: number, maxDepth: number): string | undefined {
  if (depth > maxDepth) return `it is nested deeper than ${maxDepth} levels`;
  if (Array.isArray(value)) {
    for (const child of value) {
      if (typeof child === 'object' && child !== null) {
        const problem = findParsedProblem(child, depth + 1, maxDepth);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  }
  if (Object.hasOwn(value, '__proto__')) return 'it has a key named "__proto__", which is refused';
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) {
      const problem = findParsedProblem(child, depth + 1, maxDepth);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/**
 * False when the text alone shows there is nothing to check: too short to nest past `maxDepth` (each
 * level takes two characters) and without `__proto__`, spelled plainly or with an escape.
 */
function textMayHoldProblem(text: string, maxDepth: number): boolean {
  return text.length >= 2 * (maxDepth + 2) || text.includes('__proto__') || text.includes('\\');
}

function checkParsed(value: Record<string, unknown>, limits: ArgumentLimits): ArgumentsProblem | undefined {
  let problem: string | undefined;
  try {
    problem = findParsedProblem(value, 0, limits.maxDepth);
  } catch {
    problem = 'they are nested too deeply to read'; // only with a maxDepth beyond the stack
  }
  return problem === undefined ? undefined : new ArgumentsProblem(problem);
}

/**
 * Reads what a caller passed as arguments: a JSON string (what models send), an object, or nothing.
 * An empty string or `undefined` means `{}` (models often send `""` for a tool without parameters).
 * Both forms meet the same limits: depth, value count, no `__proto__` key.
 */
export function readArguments(
  raw: unknown,
  limits: ArgumentLimits,
): Record<string, unknown> | ArgumentsProblem {
  if (raw === undefined) return {};
  if (typeof raw === 'string') {
    if (raw.length > limits.maxLength)
      return new ArgumentsProblem(`they are longer than ${limits.maxLength} characters`);
    // The root object is level 0, so maxDepth + 1 containers may be open at once.
    if (raw.length >= PRE_SCAN_FROM_LENGTH && nestsDeeperThan(raw, limits.maxDepth + 1))
      return new ArgumentsProblem(tooDeep(limits));
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
    if (!isPlainRecord(parsed)) return new ArgumentsProblem(describeKind(parsed));
    if (!textMayHoldProblem(raw, limits.maxDepth)) return parsed;
    return checkParsed(parsed, limits) ?? parsed;
  }
  if (!isPlainRecord(raw)) return new ArgumentsProblem(describeKind(raw));
  return checkShape(raw, limits) ?? raw;
}
