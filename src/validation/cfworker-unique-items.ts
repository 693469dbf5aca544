import type { ValidationIssue } from '../result.js';
import { childSchemas, resolveLocal } from './schema-nodes.js';
import { duplicateMessage, findDuplicate } from './unique-items.js';

// cfworker checks `uniqueItems` by comparing every pair of items (8,000 objects: seconds) and has no
// hook to replace it, so the Workers validator hands cfworker the schema without it and checks it here,
// in one pass over canonical JSON, at each array a `uniqueItems: true` applies to. That walk follows
// only the keywords that always apply (below); `register` refuses a `uniqueItems` anywhere else.

type Node = Record<string, unknown>;

/** Keywords whose sub-schemas apply to the instance (or to its parts) unconditionally. */
const ALWAYS_APPLIED = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'prefixItems',
  'items',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
]);

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The one branch of an `anyOf` or `oneOf` that an array can pass, when it is typed `array` and every
 * other branch's `type` leaves arrays out (a nullable list: `[{ type: 'array', … }, { type: 'null' }]`):
 * for an array the combinator then holds exactly when that branch does, so its `uniqueItems` always
 * applies to arrays.
 */
export function soleArrayBranch(branches: unknown): Node | undefined {
  if (!Array.isArray(branches)) return undefined;
  const arrays = branches.filter((branch) => isNode(branch) && branch.type === 'array');
  const [only] = arrays;
  const othersRefuseArrays = branches.every((branch) => {
    if (branch === only) return true;
    if (!isNode(branch)) return false;
    const types = typeof branch.type === 'string' ? [branch.type] : branch.type;
    return Array.isArray(types) && types.length > 0 && !types.includes('array');
  });
  return arrays.length === 1 && othersRefuseArrays ? (only as Node) : undefined;
}

/** True when `schema` has `uniqueItems: true` anywhere. */
export function usesUniqueItems(schema: unknown, seen = new Set<object>()): boolean {
  if (!isNode(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (schema.uniqueItems === true) return true;
  for (const [, child] of childSchemas(schema)) if (usesUniqueItems(child, seen)) return true;
  return false;
}

/**
 * Why the walk below cannot place every `uniqueItems: true` in `root`, or undefined: one under a
 * keyword that applies only sometimes (anyOf, oneOf, not, if/then/else, contains, …), or a `$ref`
 * that is not a local JSON pointer, or an `$id` below the root (which moves where `$ref`s resolve).
 */
export function findUnplacedUniqueItems(root: Node): string | undefined {
  if (!usesUniqueItems(root)) return undefined;
  // A node reached both ways is visited twice: what is allowed where it always applies may not be elsewhere.
  const seen = { always: new Set<object>(), sometimes: new Set<object>() };
  const visit = (node: unknown, always: boolean, where: string): string | undefined => {
    if (!isNode(node)) return undefined;
    const visited = always ? seen.always : seen.sometimes;
    if (visited.has(node)) return undefined;
    visited.add(node);
    if (node !== root && '$id' in node) return `an $id below the root (${where})`;
    if (typeof node.$ref === 'string' && resolveLocal(root, node.$ref) === undefined)
      return `the $ref ${JSON.stringify(node.$ref)}, which is not a local JSON pointer`;
    if (node.uniqueItems === true && !always) return `uniqueItems under ${where}`;
    for (const [keyword, child] of childSchemas(node)) {
      const stillAlways =
        always &&
        ((ALWAYS_APPLIED.has(keyword) && !(keyword === 'items' && Array.isArray(node.items))) ||
          ((keyword === 'anyOf' || keyword === 'oneOf') && child === soleArrayBranch(node[keyword])));
      const found = visit(child, stillAlways, keyword);
      if (found !== undefined) return found;
    }
    if (typeof node.$ref === 'string') return visit(resolveLocal(root, node.$ref), always, '$ref');
    return undefined;
  };
  const problem = visit(root, true, 'the root');
  return problem === undefined
    ? undefined
    : `uniqueItems is checked in linear time by this validator only where it always applies (under properties, patternProperties, additionalProperties, prefixItems, items, allOf, a local $ref, or the one array branch of an anyOf or oneOf whose other branches' types leave arrays out); this schema has ${problem}. Move the check out of the conditional keyword, or check it in the tool's run.`;
}

/** Issues for every array `root` (with its `uniqueItems` placed, see above) requires unique, in one pass each. */
export function checkUniqueItems(root: Node, input: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const check = (node: unknown, value: unknown, path: string, onPath: Set<unknown>): void => {
    if (!isNode(node) || onPath.has(node)) return;
    onPath.add(node); // a `$ref` cycle that does not descend into the value stops here
    if (typeof node.$ref === 'string') check(resolveLocal(root, node.$ref), value, path, onPath);
    if (Array.isArray(node.allOf)) for (const part of node.allOf) check(part, value, path, onPath);
    if (Array.isArray(value))
      for (const branch of [soleArrayBranch(node.anyOf), soleArrayBranch(node.oneOf)])
        if (branch !== undefined) check(branch, value, path, onPath);
    if (Array.isArray(value)) checkArray(node, value, path);
    else if (typeof value === 'object' && value !== null) checkObject(node, value as Node, path);
  };
  const checkArray = (node: Node, items: unknown[], path: string) => {
    if (node.uniqueItems === true && items.length > 1) {
      const duplicate = findDuplicate(items);
      if (duplicate !== undefined) issues.push({ path, message: duplicateMessage(duplicate) });
    }
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    items.forEach((item, index) => {
      const schema = index < prefix.length ? prefix[index] : isNode(node.items) ? node.items : undefined;
      if (schema !== undefined) check(schema, item, `${path}/${index}`, new Set());
    });
  };
  const checkObject = (node: Node, object: Node, path: string) => {
    const properties = isNode(node.properties) ? node.properties : {};
    const patterns = isNode(node.patternProperties)
      ? Object.entries(node.patternProperties).map(
          ([source, schema]) => [new RegExp(source, 'u'), schema] as const,
        )
      : [];
    for (const key of Object.keys(object)) {
      const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      let matched = Object.hasOwn(properties, key);
      if (matched) check(properties[key], object[key], at, new Set());
      for (const [regExp, schema] of patterns) {
        if (!regExp.test(key)) continue;
        matched = true;
        check(schema, object[key], at, new Set());
      }
      if (!matched && isNode(node.additionalProperties))
        check(node.additionalProperties, object[key], at, new Set());
    }
  };
  check(root, input, '', new Set());
  return issues;
}
