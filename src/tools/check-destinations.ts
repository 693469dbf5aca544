import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { JsonSchema } from '../json-schema.js';
import { keyOf } from '../runs/identifiers.js';
import type { SideEffect } from '../tool.js';
import { type DestinationPath, isIndex, readDestinationPath } from '../util/destination-path.js';
import { isRecord } from '../util/is-record.js';

/** A tool's `destinations` and `egress`, read once at register. */
export interface DestinationSpec {
  /** Input fields (names, dotted paths or JSON Pointers) whose values say where the call goes. */
  readonly destinations: readonly string[] | undefined;
  /** A read that reaches outside: the model's exit runs it only for vouched destinations. */
  readonly egress: { readonly allow: readonly string[]; readonly allowed: ReadonlySet<string> } | undefined;
}

const MAX_DESTINATIONS = 20;
const MAX_ALLOWED = 1_000;

function fail(name: string, message: string): never {
  throw new ToolDefinitionError('INVALID_OPTION', name, `Tool "${name}": ${message}`);
}

/**
 * Checks `destinations` (input fields the JSON Schema describes — a zod tool's as it describes itself —
 * each path followed through `properties` and list `items` to a string or number) and `egress` (`true`, or `{ allow: [...] }` of values the tool may
 * always reach — hosts, addresses — on a `read` tool that names its destinations).
 */
export function checkDestinations(
  raw: { readonly destinations: unknown; readonly egress: unknown },
  grade: SideEffect,
  input: JsonSchema,
  isStandard: boolean,
  name: string,
): DestinationSpec {
  const destinations = readDestinations(raw.destinations, input, isStandard, name);
  if (raw.egress === undefined || raw.egress === false) return { destinations, egress: undefined };
  if (grade !== 'read')
    fail(
      name,
      '`egress` marks a read that reaches outside; a write or send already waits for a person. Remove it.',
    );
  if (destinations === undefined)
    fail(name, '`egress` needs `destinations`: the input fields that say where the read goes (e.g. `url`).');
  if (raw.egress === true) return { destinations, egress: { allow: [], allowed: new Set() } };
  const allow = isRecord(raw.egress) ? raw.egress.allow : undefined;
  if (!Array.isArray(allow) || allow.length > MAX_ALLOWED || allow.some((v) => typeof v !== 'string'))
    fail(name, `\`egress\` must be \`true\` or \`{ allow: [...] }\` with at most ${MAX_ALLOWED} strings.`);
  const allowed = new Set<string>();
  for (const value of allow as string[]) {
    const key = keyOf(value);
    if (key !== undefined) allowed.add(key);
  }
  return { destinations, egress: { allow: Object.freeze([...(allow as string[])]), allowed } };
}

function readDestinations(
  raw: unknown,
  input: JsonSchema,
  isStandard: boolean,
  name: string,
): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_DESTINATIONS)
    fail(name, `\`destinations\` must be a non-empty list of at most ${MAX_DESTINATIONS} input field names.`);
  const paths: string[] = [];
  for (const path of raw) {
    const read = typeof path === 'string' ? readDestinationPath(path) : undefined;
    if (read === undefined)
      fail(
        name,
        '`destinations` holds input field names, dotted paths or JSON Pointers, like "recipient", "to[].address" or "/to/0/address".',
      );
    if (paths.includes(path)) fail(name, `\`destinations\` names "${path}" twice.`);
    const leaves = schemasAt(input, read);
    if (leaves.length === 0)
      fail(
        name,
        isStandard
          ? `\`destinations\` names "${path}", which inputSchema's properties do not describe (as the Standard Schema describes itself in JSON Schema).`
          : `\`destinations\` names "${path}", which inputSchema's properties do not describe.`,
      );
    // A leaf behind a `$ref` is judged as the schema it names; one that names nothing is not a scalar.
    const resolved = leaves.map((leaf) => branches(input, leaf));
    if (!resolved.every((found) => found.length > 0 && found.every(isScalar)))
      fail(
        name,
        `\`destinations\` names "${path}", where inputSchema lets an object, a list of objects or a value of any type through: name the string or number inside it, like ${suggestion(path, resolved.flat())}. A value that cannot be judged is never vouched for.`,
      );
    paths.push(path);
  }
  return Object.freeze(paths);
}

const ADDRESS_LIKE = /address|email|mail|url|uri|host|iban|account|phone|recipient|to$/iu;
const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'null']);
const MAX_REFS = 32;

/**
 * The schemas that describe the value at `path` (every branch of `anyOf`/`oneOf`/`allOf` and local
 * `$ref` followed); none when the schema's properties do not lead there.
 */
function schemasAt(root: JsonSchema, path: DestinationPath): JsonSchema[] {
  let level: JsonSchema[] = [root];
  for (const part of path.parts) {
    const next: JsonSchema[] = [];
    for (const schema of level.flatMap((s) => branches(root, s))) {
      if (path.kind === 'pointer' && isIndex(part)) {
        const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems[Number(part)] : undefined;
        if (isRecord(prefix)) next.push(prefix as JsonSchema);
        else if (isRecord(schema.items)) next.push(schema.items as JsonSchema);
        continue;
      }
      const inner = path.kind === 'dotted' ? throughLists(root, schema) : [schema];
      for (const object of inner) {
        const properties = isRecord(object.properties) ? object.properties : undefined;
        const found =
          properties !== undefined && Object.hasOwn(properties, part) ? properties[part] : undefined;
        if (found !== undefined) next.push((isRecord(found) ? found : {}) as JsonSchema);
      }
    }
    level = next;
  }
  return level;
}

/** A schema and, for a list, the schemas of its items, lists inside lists too. */
function throughLists(root: JsonSchema, schema: JsonSchema, depth = 0): JsonSchema[] {
  if (!isRecord(schema.items) || depth > MAX_REFS) return [schema];
  return [
    schema,
    ...branches(root, schema.items as JsonSchema).flatMap((s) => throughLists(root, s, depth + 1)),
  ];
}

/** A schema's alternatives: itself, or each branch of its `anyOf`/`oneOf`/`allOf`, local `$ref`s followed. */
function branches(root: JsonSchema, schema: JsonSchema, depth = 0): JsonSchema[] {
  if (depth > MAX_REFS) return [];
  if (typeof schema.$ref === 'string') {
    const target = localRef(root, schema.$ref);
    return target === undefined ? [] : branches(root, target, depth + 1);
  }
  const alternatives = [schema.anyOf, schema.oneOf, schema.allOf].find(Array.isArray) as
    | unknown[]
    | undefined;
  if (alternatives === undefined) return [schema];
  return alternatives.flatMap((branch) =>
    isRecord(branch) ? branches(root, branch as JsonSchema, depth + 1) : [],
  );
}

function localRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/u.exec(ref);
  const defs = match === null ? undefined : root[match[1] as string];
  const target = isRecord(defs) ? defs[(match as RegExpExecArray)[2] as string] : undefined;
  return isRecord(target) ? (target as JsonSchema) : undefined;
}

/** True when every value the schema lets through is a string, a number or null (or a list of them). */
function isScalar(schema: JsonSchema): boolean {
  return branchesOf(schema).every((branch) => {
    if (Array.isArray(branch.enum)) return branch.enum.every(isScalarValue);
    if (Object.hasOwn(branch, 'const')) return isScalarValue(branch.const);
    const types = Array.isArray(branch.type) ? branch.type : [branch.type];
    if (types.includes('array') || (branch.type === undefined && isRecord(branch.items)))
      return (
        isRecord(branch.items) &&
        isScalar(branch.items as JsonSchema) &&
        types.every((t) => t === 'array' || SCALAR_TYPES.has(t))
      );
    return branch.type !== undefined && types.every((t) => SCALAR_TYPES.has(t));
  });
}

/** A leaf's alternatives without `$ref` resolution (a reference left here is not known to be a scalar). */
function branchesOf(schema: JsonSchema, depth = 0): JsonSchema[] {
  const alternatives = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (alternatives === undefined || depth > MAX_REFS) return [schema];
  return alternatives.flatMap((b) => (isRecord(b) ? branchesOf(b as JsonSchema, depth + 1) : [{}]));
}

function isScalarValue(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number';
}

/** "to[].address" for a list of objects with an `address` string, else the two general forms. */
function suggestion(path: string, leaves: readonly JsonSchema[]): string {
  for (const leaf of leaves) {
    const object = isRecord(leaf.items) ? (leaf.items as JsonSchema) : leaf;
    const properties = isRecord(object.properties) ? object.properties : {};
    const scalars = Object.keys(properties).filter((key) => {
      const inner = properties[key];
      return isRecord(inner) && isScalar(inner as JsonSchema) && /^[A-Za-z_$][\w$-]*$/u.test(key);
    });
    // The field most likely to say where the call goes (an address, not a display name).
    const named = scalars.find((key) => ADDRESS_LIKE.test(key)) ?? scalars[0];
    if (named !== undefined && !path.startsWith('/'))
      return `"${path}${isRecord(leaf.items) ? '[]' : ''}.${named}"`;
  }
  return '"to[].address" or "/to/0/address"';
}
