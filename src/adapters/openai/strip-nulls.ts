import type { JsonSchema } from '../../json-schema.js';
import { isRecord } from '../../util/is-record.js';
import { allowsNull, jsonTypeOf, resolveLocalRef, typeAdmits } from './json-schema-walk.js';

/**
 * The deepest arguments strict mode takes: the registry's default `argumentLimits.maxDepth`. Deeper
 * ones are refused before anything walks or re-serialises them (`JSON.stringify` recurses).
 */
export const MAX_STRICT_DEPTH = 64;
const MAX_DEPTH = MAX_STRICT_DEPTH;
/** Longer raw arguments are left to the registry, which refuses them by its own length limit. */
const MAX_ARGUMENT_CHARS = 1_000_000;

function resolve(schema: unknown, root: JsonSchema): unknown {
  let node = schema;
  for (let hops = 0; isRecord(node) && typeof node.$ref === 'string' && hops < 16; hops += 1) {
    node = resolveLocalRef(root, node.$ref);
  }
  return node;
}

/** Removes, in place, the nulls strict mode made the model send; true when something changed. */
function strip(value: unknown, schemaIn: unknown, root: JsonSchema, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  const schema = resolve(schemaIn, root);
  if (!isRecord(schema)) return false;
  let changed = false;
  if (isRecord(value) && isRecord(schema.properties)) {
    const { properties } = schema;
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(properties, key)) continue;
      const child = properties[key];
      if (value[key] === null && !required.includes(key) && !allowsNull(child, root)) {
        delete value[key];
        changed = true;
      } else if (strip(value[key], child, root, depth + 1)) {
        changed = true;
      }
    }
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    for (const item of value) if (strip(item, schema.items, root, depth + 1)) changed = true;
  }
  if (Array.isArray(schema.anyOf) && value !== null && typeof value === 'object') {
    // Only an unambiguous branch is followed; anything else is left for the tool's schema to judge.
    const type = jsonTypeOf(value);
    const branches = schema.anyOf
      .map((branch) => resolve(branch, root))
      .filter((branch) => isRecord(branch) && typeAdmits(branch, type));
    if (branches.length === 1 && strip(value, branches[0], root, depth + 1)) changed = true;
  }
  return changed;
}

/** True when `value` nests objects or arrays deeper than `limit`; a loop, never recursion. */
export function isNestedDeeper(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Strict-mode arguments ready for the model's exit, or refused for nesting deeper than `MAX_STRICT_DEPTH`. */
export type StrictArguments = { readonly args: unknown } | { readonly tooDeep: number };

/**
 * Undoes what strict mode asks of the model: it must send every property, `null` for the optional
 * ones it means to leave out. Those nulls are removed (only where the tool's own schema does not
 * accept `null`) so the tool's schema, which the model's exit still checks, validates the input as
 * written. Anything that is not a JSON object string is returned untouched for the exit to refuse.
 */
export function stripStrictNulls(rawArguments: unknown, parameters: JsonSchema): StrictArguments {
  if (typeof rawArguments !== 'string' || rawArguments.length > MAX_ARGUMENT_CHARS)
    return { args: rawArguments };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments);
  } catch {
    return { args: rawArguments };
  }
  if (!isRecord(parsed)) return { args: rawArguments };
  if (isNestedDeeper(parsed, MAX_STRICT_DEPTH)) return { tooDeep: MAX_STRICT_DEPTH };
  // The result goes back as a string so the registry's own argument limits still apply to it.
  return { args: strip(parsed, parameters, parameters, 0) ? JSON.stringify(parsed) : rawArguments };
}
