import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { JsonSchema } from '../../json-schema.js';
import { isRecord } from '../../util/is-record.js';
import { allowsNull } from './json-schema-walk.js';

/**
 * Keywords strict Structured Outputs cannot express. The list follows the `openai` SDK's own strict
 * transform (`lib/transform.ts`, `JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS`) and OpenAI's "supported
 * schemas" guide (composition: `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`/`then`/
 * `else`), plus `oneOf` and tuple forms, which the API refuses in strict mode.
 */
export const OPENAI_STRICT_UNSUPPORTED_KEYWORDS: readonly string[] = [
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  'additionalItems',
  'allOf',
  'contains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'else',
  'if',
  'maxContains',
  'maxProperties',
  'minContains',
  'minProperties',
  'not',
  'oneOf',
  'patternProperties',
  'prefixItems',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
];

const ANNOTATIONS = ['title', 'description'] as const;

type Fail = (problem: string, path: string) => never;

function isObjectSchema(node: Record<string, unknown>): boolean {
  const { type } = node;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return true;
  return type === undefined && ('properties' in node || 'required' in node || 'additionalProperties' in node);
}

function isArraySchema(node: Record<string, unknown>): boolean {
  const { type } = node;
  return type === 'array' || (Array.isArray(type) && type.includes('array'));
}

/** `schema` widened to accept `null`, the way OpenAI's guide writes an optional field. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const { type } = schema;
  const hasConst = Object.hasOwn(schema, 'const');
  if (!hasConst && (typeof type === 'string' || Array.isArray(type))) {
    const widened: Record<string, unknown> = {
      ...schema,
      type: typeof type === 'string' ? [type, 'null'] : [...type, 'null'],
    };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  if (!hasConst && type === undefined && Array.isArray(schema.anyOf)) {
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const inner = { ...schema };
  const outer: Record<string, unknown> = {};
  for (const key of ANNOTATIONS) {
    if (key in inner) {
      outer[key] = inner[key];
      delete inner[key];
    }
  }
  return { ...outer, anyOf: [inner, { type: 'null' }] };
}

function strictify(node: unknown, path: string, root: JsonSchema, fail: Fail): Record<string, unknown> {
  if (!isRecord(node)) {
    return fail(
      typeof node === 'boolean' ? `a boolean schema (\`${node}\`)` : 'a schema that is not an object',
      path,
    );
  }
  for (const keyword of OPENAI_STRICT_UNSUPPORTED_KEYWORDS) {
    if (node[keyword] !== undefined) return fail(`the keyword \`${keyword}\``, path);
  }
  const isObject = isObjectSchema(node);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    switch (key) {
      case 'properties':
      case 'required':
      case 'additionalProperties':
        if (!isObject) out[key] = value;
        break;
      case 'items':
        if (Array.isArray(value)) return fail('tuple-form `items` (an array of schemas)', path);
        out.items = strictify(value, `${path}/items`, root, fail);
        break;
      case 'anyOf':
        if (!Array.isArray(value) || value.length === 0) return fail('an `anyOf` that is not a list', path);
        out.anyOf = value.map((branch, index) => strictify(branch, `${path}/anyOf/${index}`, root, fail));
        break;
      case '$defs':
      case 'definitions':
        if (!isRecord(value)) return fail(`a \`${key}\` that is not an object`, path);
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, child]) => [
            name,
            strictify(child, `${path}/${key}/${name}`, root, fail),
          ]),
        );
        break;
      case 'default':
        // A null default says nothing a nullable type does not; the SDK's own transform drops it too.
        if (value !== null) out.default = value;
        break;
      default:
        out[key] = value;
    }
  }
  if (isObject) {
    const { additionalProperties } = node;
    if (additionalProperties !== undefined && additionalProperties !== false) {
      return fail(
        '`additionalProperties` other than `false` (strict mode closes every object: list each property)',
        path,
      );
    }
    const properties = isRecord(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    for (const key of required) {
      if (typeof key !== 'string' || !Object.hasOwn(properties, key)) {
        return fail(`a required property ${JSON.stringify(key)} that \`properties\` does not declare`, path);
      }
    }
    const strictProperties: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(properties)) {
      const converted = strictify(child, `${path}/properties/${key}`, root, fail);
      // Strict mode lists every property as required; an optional one must be able to say "absent".
      strictProperties[key] =
        required.includes(key) || allowsNull(child, root) ? converted : nullable(converted);
    }
    if (node.type === undefined) out.type = 'object';
    out.properties = strictProperties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (isArraySchema(node) && node.items === undefined) return fail('an array without `items`', path);
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Converts a tool's input schema to OpenAI's strict subset: every object gets
 * `additionalProperties: false` and lists every property in `required`; a property that was optional
 * becomes nullable (`type: [t, 'null']`, or `anyOf` with `{ type: 'null' }`), so the model sends
 * `null` for "not given" — the adapter strips those nulls again before the tool's own schema checks
 * the input. A keyword strict mode cannot express is refused: throws `ToolDefinitionError`
 * (`UNSUPPORTED_SCHEMA`) naming the tool, the keyword and where it is.
 *
 * @example
 * ```ts
 * import { toOpenAIStrictSchema } from 'graded-tools/openai';
 *
 * const strict = toOpenAIStrictSchema(
 *   { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
 *   'kb.search',
 * );
 * // { type: 'object', properties: { query: { type: 'string' }, limit: { type: ['integer', 'null'] } },
 * //   required: ['query', 'limit'], additionalProperties: false }
 * console.log(strict);
 * ```
 */
export function toOpenAIStrictSchema(schema: JsonSchema, toolName: string): JsonSchema {
  const fail: Fail = (problem, path) => {
    throw new ToolDefinitionError(
      'UNSUPPORTED_SCHEMA',
      toolName,
      `Tool "${toolName}": OpenAI strict mode does not support ${problem} (at ${path === '' ? 'the schema root' : path}). Remove it from the input schema, or list this tool without \`strict: true\`.`,
    );
  };
  const { $schema: _draft, ...rest } = schema;
  return deepFreeze(strictify(rest, '', schema, fail));
}
