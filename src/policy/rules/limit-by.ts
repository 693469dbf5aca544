import type { JsonSchema } from '../../json-schema.js';
import type { RuleCall } from '../../rule.js';
import { isRecord } from '../../util/is-record.js';
import { compileCel } from './cel.js';

/** A limit's `by` that counts per value: an input path, a CEL expression or a function. */
export interface LimitByValue {
  /** As written: `'input.customer'`, the CEL source, or `'(function)'`. */
  readonly source: string;
  readonly run: (call: RuleCall) => unknown;
  /** Runs code that may take long (a function, or CEL that cel-js walks). */
  readonly timed: boolean;
}

/** What `register` checks a `by` path against (the same shape `compileRules` takes). */
interface ByInput {
  readonly json: JsonSchema;
  readonly isStandard: boolean;
}

const PATH = /^input(?:\.[A-Za-z_$][\w$-]*){1,8}$/u;
const MAX_VALUE_LENGTH = 10_000;

/** The field names of `source` when it is a plain path into the input (`input.customer.id`). */
export function inputPath(source: string): readonly string[] | undefined {
  return PATH.test(source) ? source.split('.').slice(1) : undefined;
}

/**
 * The schema of the field at `path`, following `properties`; `'list'` when the path goes through an
 * array's `items` (many values, not one); `undefined` when the schema does not describe it.
 */
export function fieldSchema(schema: JsonSchema, path: readonly string[]): unknown {
  let level: unknown = schema;
  for (const part of path) {
    if (isRecord(level) && level.items !== undefined && !isRecord(level.properties)) return 'list';
    const properties = isRecord(level) && isRecord(level.properties) ? level.properties : undefined;
    if (properties === undefined || !Object.hasOwn(properties, part)) return undefined;
    level = properties[part];
  }
  return level;
}

/** True when a field's schema says it holds an object or a list: many values, no one key. */
function isCompound(field: unknown): boolean {
  if (field === 'list') return true;
  if (!isRecord(field)) return false;
  const types = Array.isArray(field.type) ? field.type : field.type === undefined ? [] : [field.type];
  if (types.length > 0) return types.every((type) => type === 'object' || type === 'array');
  return isRecord(field.properties) || field.items !== undefined;
}

/**
 * Compiles a limit's `by` that is not a `LimitKey`: a path into the input (checked against the schema
 * now), a CEL expression giving a string or an int, or a function. Says why not, naming the field.
 */
export function compileLimitBy(by: unknown, input: ByInput): LimitByValue | string {
  if (typeof by === 'function') {
    const run = by as (call: RuleCall) => unknown;
    return { source: '(function)', run: (call) => run(call), timed: true };
  }
  if (typeof by !== 'string')
    return "`limit.by` must be 'actor', 'scope', 'tool', 'global', an input field ('input.customer'), a CEL expression or a function";
  const path = inputPath(by);
  if (path !== undefined) {
    const field = fieldSchema(input.json, path);
    if (field === undefined && !input.isStandard)
      return `\`limit.by\` names ${by}, which the input schema does not describe`;
    if (isCompound(field))
      return `\`limit.by\` names ${by}, which holds ${field === 'list' || (isRecord(field) && field.type === 'array') ? 'a list' : 'an object'}: it must name one string or number field`;
    return { source: by, run: (call) => valueAt(call.input, path), timed: false };
  }
  const program = compileCel(by, ['string', 'int', 'uint']);
  if ('problem' in program) return `\`limit.by\`: ${program.problem}`;
  return { source: by, run: program.run, timed: !program.closures };
}

/** The value at `path` in `input`, own properties only; `undefined` when it is not there. */
function valueAt(input: unknown, path: readonly string[]): unknown {
  let level = input;
  for (const part of path) {
    if (!isRecord(level) || !Object.hasOwn(level, part)) return undefined;
    level = level[part];
  }
  return level;
}

/**
 * A `by` value as the part of a counter's key it becomes — a non-empty string, a finite number or a
 * boolean, kept typed (`"42"` and `42` are two counters) — or why the call cannot be counted by it.
 */
export function keyPartOf(value: unknown): string | number | boolean | { readonly problem: string } {
  if (typeof value === 'string') {
    if (value === '') return { problem: 'is an empty string' };
    return value.length > MAX_VALUE_LENGTH
      ? { problem: `is longer than ${MAX_VALUE_LENGTH} characters` }
      : value;
  }
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : { problem: 'is too large a number' };
  if (typeof value === 'number') return Number.isFinite(value) ? value : { problem: `is ${value}` };
  if (typeof value === 'boolean') return value;
  if (value === undefined) return { problem: 'is missing' };
  if (value === null) return { problem: 'is null' };
  return { problem: `is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not one string or number` };
}
