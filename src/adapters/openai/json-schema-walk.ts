/** Small, dependency-free readers for JSON Schema documents, shared by the strict-mode transforms. */
import { isRecord } from '../../util/is-record.js';

/** The schema a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x` …) points at, or `undefined`. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * True when `schema` accepts `null`: no `type`/`enum`/`const` that excludes it, or a branch of
 * `anyOf`/`oneOf` that takes it. Local refs are followed; a cycle counts as "no".
 */
export function allowsNull(schema: unknown, root: unknown, seen: ReadonlySet<string> = new Set()): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return false;
    return allowsNull(resolveLocalRef(root, schema.$ref), root, new Set([...seen, schema.$ref]));
  }
  const { type } = schema;
  if (type !== undefined && type !== 'null' && !(Array.isArray(type) && type.includes('null'))) return false;
  if (Object.hasOwn(schema, 'const') && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && !branches.some((branch) => allowsNull(branch, root, seen))) return false;
  }
  if (Array.isArray(schema.allOf) && !schema.allOf.every((branch) => allowsNull(branch, root, seen)))
    return false;
  return true;
}

/** The JSON type of a parsed value, as JSON Schema names it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** True when `schema`'s `type` admits a value of JSON type `valueType` (no `type` admits all). */
export function typeAdmits(schema: Record<string, unknown>, valueType: string): boolean {
  const { type } = schema;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (types === undefined) return true;
  return types.includes(valueType) || (valueType === 'integer' && types.includes('number'));
}
