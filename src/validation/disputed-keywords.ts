import { findInSchema, resolveLocal } from './schema-nodes.js';

type Node = Record<string, unknown>;

/** Keywords whose sub-schemas apply to the same instance, so that their annotations reach `unevaluatedItems`. */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', '$ref'];

/** True when `contains` is read in the same instance as `node`'s `unevaluatedItems`, or may be (a non-local `$ref`). */
function seesContains(root: unknown, node: unknown, seen = new Set<unknown>()): boolean {
  if (typeof node !== 'object' || node === null || Array.isArray(node) || seen.has(node)) return false;
  seen.add(node);
  const schema = node as Node;
  if ('contains' in schema) return true;
  for (const keyword of IN_PLACE) {
    const value = schema[keyword];
    if (keyword === '$ref') {
      if (typeof value !== 'string') continue;
      const target = resolveLocal(root, value);
      if (target === undefined || seesContains(root, target, seen)) return true;
    } else if (Array.isArray(value)) {
      if (value.some((part) => seesContains(root, part, seen))) return true;
    } else if (keyword === 'dependentSchemas' && typeof value === 'object' && value !== null) {
      if (Object.values(value).some((part) => seesContains(root, part, seen))) return true;
    } else if (seesContains(root, value, seen)) return true;
  }
  return false;
}

/**
 * Why Ajv and cfworker would read `schema` differently whichever validator runs it, or undefined:
 * both refuse these at `register`, so that a tool's contract never depends on where it runs.
 */
export function findDisputedKeyword(schema: unknown): string | undefined {
  return findInSchema(schema, (node) => {
    if ('$recursiveRef' in node || '$recursiveAnchor' in node)
      return '$recursiveRef and $recursiveAnchor (draft 2019-09) are ignored by the draft 2020-12 validator and read by the Workers one: use $ref into $defs (or $dynamicRef, which only the default validator reads).';
    if ('unevaluatedItems' in node && seesContains(schema, node))
      return 'unevaluatedItems beside contains: Ajv does not count the items contains matched as evaluated (JSON Schema 2020-12 does), so the two validators would disagree. Describe the items with prefixItems or items instead.';
    return undefined;
  });
}
