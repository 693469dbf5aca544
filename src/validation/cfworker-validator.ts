import type { OutputUnit, Schema } from '@cfworker/json-schema';
import type { ValidationIssue } from '../result.js';
import { withoutDraftMarker } from './draft-marker.js';
import { loadCfworker, loadedCfworker } from './engines.js';
import { linearRegExp, runsLinearInV8 } from './patterns.js';
import type { JsonSchemaValidator } from './validator.js';

/** Keywords whose values are data, never schemas: a `pattern` there is text. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords whose values map names to schemas: a key there is a name, even `pattern` or `enum`. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** The `format` under which a rewritten `pattern` runs; the pattern's source follows it. */
const PATTERN_FORMAT = 'graded-tools:pattern:';

const VALID = Object.freeze({ valid: true as const });

/**
 * A copy of `schema` whose every `pattern` is a `format` (in an added `allOf`) that runs on the linear
 * engine: cfworker would run it with `new RegExp`, which backtracks. A fresh copy also because
 * cfworker writes its own keys into the schema it is given, and tool schemas are frozen.
 */
function withLinearPatterns(node: unknown, formats: Record<string, (s: string) => boolean>): unknown {
  if (Array.isArray(node)) return node.map((item) => withLinearPatterns(item, formats));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  let pattern: string | undefined;
  for (const [keyword, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(keyword)) out[keyword] = value;
    else if (keyword === 'pattern' && typeof value === 'string') pattern = value;
    else if (SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null && !Array.isArray(value))
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, withLinearPatterns(schema, formats)]),
      );
    else out[keyword] = withLinearPatterns(value, formats);
  }
  if (pattern !== undefined) {
    const name = `${PATTERN_FORMAT}${pattern}`;
    if (formats[name] === undefined) {
      const regExp = linearRegExp(pattern, 'u');
      formats[name] = (text) => regExp.test(text);
    }
    out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { format: name }];
  }
  return out;
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

/** cfworker reports each enclosing keyword as well ("Property "a" does not match schema."): leaves only. */
function toIssues(errors: readonly OutputUnit[]): ValidationIssue[] {
  const leaves = errors.filter(
    (error) => !errors.some((other) => other.keywordLocation.startsWith(`${error.keywordLocation}/`)),
  );
  return (leaves.length > 0 ? leaves : errors).map((error) => ({
    path: error.instanceLocation.replace(/^#/, ''),
    message: error.error.replace(
      new RegExp(`^String does not match format "${PATTERN_FORMAT}(.*)"\\.$`, 's'),
      (_match, pattern: string) => `must match pattern "${pattern}"`,
    ),
  }));
}

/**
 * A validator without code generation, for where `new Function` is forbidden: `@cfworker/json-schema`
 * (draft 2020-12, every error reported). It is the default under the `workerd` and `worker` export
 * conditions (Cloudflare Workers, what wrangler bundles); pass it as `validator` to choose it
 * elsewhere. Creating it loads nothing; `load()` imports the engine (the registry awaits it once).
 *
 * Patterns run in linear time here too: every `pattern` is rewritten into a `format` that runs on
 * RE2 (or V8's RegExp where that is provably linear), since cfworker's own `new RegExp` backtracks.
 * A `patternProperties` key is run by cfworker itself, so one that V8 could backtrack on is refused
 * at `register` (`findUnsupported`). cfworker checks `uniqueItems` pairwise (quadratic in the array),
 * and does not check the schema against the meta-schema: a schema Ajv refuses may compile here.
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
  return {
    async load() {
      await loadCfworker();
    },
    findUnsupported(schema) {
      const key = findBacktrackingKey(schema);
      return key === undefined
        ? undefined
        : `the patternProperties key ${JSON.stringify(key)} could backtrack in this validator, which runs those keys with V8's RegExp: anchor it with ^ and keep it to one path per character (no groups or alternation), or use a property name and \`pattern\` on its value.`;
    },
    compile(schema) {
      const engine = loadedCfworker();
      if (engine === undefined)
        throw new Error(
          '@cfworker/json-schema is not loaded yet: await the validator’s load() before its first compile.',
        );
      const problem = this.findUnsupported?.(schema);
      if (problem !== undefined) throw new Error(problem);
      const source = withLinearPatterns(withoutDraftMarker(schema), engine.format) as Schema;
      const validator = new engine.Validator(source, '2020-12', false);
      return (input) => {
        const result = validator.validate(input);
        return result.valid ? VALID : { valid: false, issues: toIssues(result.errors) };
      };
    },
  };
}
