import type { OutputUnit, Schema } from '@cfworker/json-schema';
import type { JsonSchema } from '../json-schema.js';
import type { ValidationIssue } from '../result.js';
import { type CfworkerEngine, loadCfworker, loadedCfworker } from './cfworker-engine.js';
import { checkUniqueItems, findUnplacedUniqueItems, usesUniqueItems } from './cfworker-unique-items.js';
import { findDisputedKeyword } from './disputed-keywords.js';
import { withoutDraftMarker } from './draft-marker.js';
import { linearRegExp, runsLinearInV8 } from './patterns.js';
import { DATA_KEYWORDS, findInSchema, SCHEMA_MAPS } from './schema-nodes.js';
import type { JsonSchemaValidator } from './validator.js';

/**
 * ajv-formats' number formats as schemas cfworker checks (its `format` reads strings only): like Ajv,
 * each applies to numbers alone; `float` and `double` take any number.
 */
const NUMBER_FORMATS: Record<string, object | undefined> = {
  int32: { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 },
  int64: { type: 'integer' },
  float: undefined,
  double: undefined,
};

/** Keywords cfworker does not read, which Ajv does: a schema with one is refused rather than half checked. */
const UNREAD_KEYWORDS = [
  '$dynamicRef',
  '$dynamicAnchor',
  'formatMinimum',
  'formatMaximum',
  'formatExclusiveMinimum',
  'formatExclusiveMaximum',
];

/** `type` with `null` added when `nullable: true` (OpenAPI 3.0), as Ajv reads it, and Ajv's two refusals. */
function withNullable(node: Record<string, unknown>): unknown {
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('null')) {
    if (node.nullable === false) throw new Error('type: null contradicts nullable: false');
    return node.type;
  }
  if (types.length === 0) throw new Error('"nullable" cannot be used without "type"');
  return node.nullable === true ? [...types, 'null'] : node.type;
}
/** The prefixes of the `format`s this validator adds to cfworker's table; the pattern or the format's name follows. */
const PATTERN_FORMAT = 'graded-tools:pattern:';
const AJV_FORMAT = 'graded-tools:format:';

const VALID = Object.freeze({ valid: true as const });

/** A string check from ajv-formats' table (a regex, a function, or `{ validate }` of either); undefined for a number format. */
function toStringCheck(definition: unknown): ((text: string) => boolean) | undefined {
  if (typeof definition === 'function') return definition as (text: string) => boolean;
  if (definition instanceof RegExp) return (text) => definition.test(text);
  const format = definition as { type?: string; validate?: unknown };
  if (typeof format !== 'object' || format === null || format.type === 'number') return undefined;
  return toStringCheck(format.validate);
}

/** The name under which ajv-formats' check for `format` sits in cfworker's table; `format` itself when it has none. */
function ajvFormat(format: string, engine: CfworkerEngine): string {
  const name = `${AJV_FORMAT}${format}`;
  if (engine.cfworkerFormats[name] !== undefined) return name;
  const check = Object.hasOwn(engine.ajvFormats, format)
    ? toStringCheck(engine.ajvFormats[format as keyof typeof engine.ajvFormats])
    : undefined;
  if (check === undefined) return format;
  engine.cfworkerFormats[name] = check;
  return name;
}

/**
 * The copy of `schema` cfworker runs. Every `pattern` becomes a `format` (in an added `allOf`) that
 * runs on the linear engine, since cfworker's own `new RegExp` backtracks; every format ajv-formats
 * knows becomes one that runs ajv-formats' check, so that both validators read `email` alike. A fresh
 * copy also because cfworker writes its own keys into the schema it is given, and tool schemas are frozen.
 */
function toCfworkerSchema(node: unknown, engine: CfworkerEngine): unknown {
  if (Array.isArray(node)) return node.map((item) => toCfworkerSchema(item, engine));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  const added: unknown[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(keyword)) out[keyword] = value;
    else if (keyword === 'pattern' && typeof value === 'string')
      added.push({ format: patternFormat(value, engine) });
    else if (keyword === 'format' && typeof value === 'string' && Object.hasOwn(NUMBER_FORMATS, value)) {
      const check = NUMBER_FORMATS[value];
      if (check !== undefined) added.push({ anyOf: [{ not: { type: 'number' } }, { ...check }] }); // a copy: cfworker marks each schema object it is given
    } else if (keyword === 'format' && typeof value === 'string') out[keyword] = ajvFormat(value, engine);
    else if (keyword === 'nullable' && typeof value === 'boolean')
      out.type = withNullable(node as Record<string, unknown>);
    else if (keyword === 'uniqueItems')
      continue; // checked in one pass beside cfworker: cfworker-unique-items.ts
    else if (SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null && !Array.isArray(value))
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, toCfworkerSchema(schema, engine)]),
      );
    else if (keyword === 'type' && typeof (node as { nullable?: unknown }).nullable === 'boolean')
      continue; // written by `nullable`, wherever it sits
    else out[keyword] = toCfworkerSchema(value, engine);
  }
  if (added.length > 0) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...added];
  return out;
}

/** The name of the `format` that runs `pattern` on the linear engine, added to cfworker's table once. */
function patternFormat(pattern: string, engine: CfworkerEngine): string {
  const name = `${PATTERN_FORMAT}${pattern}`;
  if (engine.cfworkerFormats[name] === undefined) {
    const regExp = linearRegExp(pattern, 'u');
    engine.cfworkerFormats[name] = (text) => regExp.test(text);
  }
  return name;
}

/** The first `patternProperties` key V8 could backtrack on; cfworker runs those keys itself. */
function findBacktrackingKey(node: unknown, seen = new Set<object>()): string | undefined {
  if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findBacktrackingKey(item, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [keyword, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(keyword) || typeof value !== 'object' || value === null) continue;
    if (keyword === 'patternProperties') {
      const key = Object.keys(value).find((source) => !runsLinearInV8(source));
      if (key !== undefined) return key;
    }
    const schemas = SCHEMA_MAPS.has(keyword) && !Array.isArray(value) ? Object.values(value) : value;
    const found = findBacktrackingKey(schemas, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Ajv's words for a check this validator added: `pattern` and ajv-formats' formats. */
function ownMessage(error: string): string {
  const format = /^String does not match format "(.*)"\.$/s.exec(error)?.[1];
  if (format?.startsWith(PATTERN_FORMAT))
    return `must match pattern "${format.slice(PATTERN_FORMAT.length)}"`;
  if (format?.startsWith(AJV_FORMAT)) return `must match format "${format.slice(AJV_FORMAT.length)}"`;
  return error;
}

/** cfworker reports each enclosing keyword as well ("Property "a" does not match schema."): leaves only. */
function toIssues(errors: readonly OutputUnit[]): ValidationIssue[] {
  const leaves = errors.filter(
    (error) => !errors.some((other) => other.keywordLocation.startsWith(`${error.keywordLocation}/`)),
  );
  return (leaves.length > 0 ? leaves : errors).map((error) => ({
    path: error.instanceLocation.replace(/^#/, ''),
    message: ownMessage(error.error),
  }));
}

/**
 * A validator without code generation, for where `new Function` is forbidden: `@cfworker/json-schema`
 * (draft 2020-12, every error reported). It is the default under the `workerd` and `worker` export
 * conditions (Cloudflare Workers, what wrangler bundles); pass it as `validator` to choose it
 * elsewhere. Creating it loads nothing; `load()` imports the engine (the registry awaits it once).
 *
 * It gives the verdicts Ajv gives, or refuses the schema at `register` (`findUnsupported`, and
 * `compile` throws the same): a property test over generated schemas and inputs checks it. Every
 * `pattern` is rewritten into a `format` that runs on RE2 (or V8's RegExp where that is provably
 * linear), since cfworker's own `new RegExp` backtracks; every format runs the linear checks Ajv runs
 * (formats.ts), number formats (`int32`, `int64`) included; `multipleOf` reads decimals as Ajv now
 * does; `nullable: true` adds `null` to the type, as in Ajv. `uniqueItems` is checked in one pass
 * beside cfworker (whose own check is pairwise), where it always applies; under `anyOf`, `oneOf`,
 * `not`, `if` or `contains` it is refused. Also refused: a `patternProperties` key V8 could backtrack
 * on (cfworker runs those keys itself), `$dynamicRef` and ajv-formats' `formatMinimum` family (cfworker
 * ignores them), and what Ajv reads otherwise (`$recursiveRef`; `unevaluatedItems` beside `contains`).
 * Unlike Ajv, it does not check the schema against the meta-schema: a schema Ajv refuses may compile here.
 *
 * @example
 * ```ts
 * import { ToolRegistry, createCfworkerValidator } from 'graded-tools';
 * const registry = new ToolRegistry({ validator: createCfworkerValidator() });
 *
 * // Used on its own, it loads first:
 * const cfworker = createCfworkerValidator();
 * await cfworker.load?.();
 * const check = cfworker.compile({ type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } });
 * console.log(check({ id: 'A1' }).valid); // false
 * ```
 */
export function createCfworkerValidator(): JsonSchemaValidator {
  const findUnsupported = (schema: JsonSchema): string | undefined => {
    const key = findBacktrackingKey(schema);
    if (key !== undefined)
      return `the patternProperties key ${JSON.stringify(key)} could backtrack in this validator, which runs those keys with V8's RegExp: anchor it with ^ and keep it to one path per character (no groups or alternation), or use a property name and \`pattern\` on its value.`;
    const unread = findInSchema(schema, (node) => UNREAD_KEYWORDS.find((keyword) => keyword in node));
    if (unread !== undefined)
      return `${unread} is not checked by this validator (@cfworker/json-schema), which would let every value through it: on Workers, describe the value without it (use $ref into $defs for a recursive shape).`;
    return findDisputedKeyword(schema) ?? findUnplacedUniqueItems(schema);
  };
  return {
    load() {
      const engine = loadCfworker();
      return engine instanceof Promise ? engine.then(() => undefined) : undefined;
    },
    findUnsupported,
    compile(schema) {
      const engine = loadedCfworker();
      if (engine === undefined)
        throw new Error(
          '@cfworker/json-schema is not loaded yet: await the validator’s load() before its first compile.',
        );
      const problem = findUnsupported(schema);
      if (problem !== undefined) throw new Error(problem);
      const source = toCfworkerSchema(withoutDraftMarker(schema), engine) as Schema;
      const validator = new engine.Validator(source, '2020-12', false);
      const unique = usesUniqueItems(schema) ? schema : undefined;
      return (input) => {
        const result = validator.validate(input);
        const duplicates = unique === undefined ? [] : checkUniqueItems(unique, input);
        if (result.valid && duplicates.length === 0) return VALID;
        return { valid: false, issues: [...(result.valid ? [] : toIssues(result.errors)), ...duplicates] };
      };
    },
  };
}
