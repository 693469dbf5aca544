import type { JsonSchema } from '../../tool.js';
import { allowsNull, isRecord, jsonTypeOf, resolveLocalRef, typeAdmits } from '../shared/json-schema-walk.js';

/** Deeper than this the walk stops: a recursive schema must not let a model exhaust the stack. */
const MAX_DEPTH = 64;
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

/**
 * Undoes what strict mode asks of the model: it must send every property, `null` for the optional
 * ones it means to leave out. Those nulls are removed (only where the tool's own schema does not
 * accept `null`) so the tool's schema, which the model's exit still checks, validates the input as
 * written. Anything that is not a JSON object string is returned untouched for the exit to refuse.
 */
export function stripStrictNulls(rawArguments: unknown, parameters: JsonSchema): unknown {
  if (typeof rawArguments !== 'string' || rawArguments.length > MAX_ARGUMENT_CHARS) return rawArguments;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments);
  } catch {
    return rawArguments;
  }
  if (!isRecord(parsed)) return rawArguments;
  // The result goes back as a string so the registry's own argument limits still apply to it.
  return strip(parsed, parameters, parameters, 0) ? JSON.stringify(parsed) : rawArguments;
}
