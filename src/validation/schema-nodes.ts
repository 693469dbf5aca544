/**
 * Keywords whose values are data (examples, defaults, property names), never schemas: a `pattern` or
 * `nullable` there is text.
 */
export const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'dependentRequired']);
/** Keywords whose values map names to schemas: a key there is a name, even `pattern` or `enum`. */
export const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** The schemas directly under `node`'s keywords, each with the keyword it sits under. */
export function* childSchemas(node: Record<string, unknown>): Generator<[string, unknown]> {
  for (const [keyword, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(keyword) || typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) for (const item of value) yield [keyword, item];
    else if (SCHEMA_MAPS.has(keyword)) for (const item of Object.values(value)) yield [keyword, item];
    else yield [keyword, value];
  }
}

/**
 * The first answer `test` gives on a schema object anywhere in `schema` (each visited once, so a
 * schema that shares or cycles through sub-schemas costs its size), or undefined.
 */
export function findInSchema(
  schema: unknown,
  test: (node: Record<string, unknown>) => string | undefined,
  seen = new Set<object>(),
): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || seen.has(schema))
    return undefined;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  const found = test(node);
  if (found !== undefined) return found;
  for (const [, child] of childSchemas(node)) {
    const inChild = findInSchema(child, test, seen);
    if (inChild !== undefined) return inChild;
  }
  return undefined;
}

/** The schema a local `$ref` ('#' or '#/json/pointer') names in `root`, or undefined. */
export function resolveLocal(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return undefined;
    target = (target as Record<string, unknown>)[key];
  }
  return target;
}
