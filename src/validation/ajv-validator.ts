import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import { loadAjv, loadedAjv } from '#ajv-engine';
import type { ValidationIssue } from '../result.js';
import { findDisputedKeyword } from './disputed-keywords.js';
import { withoutDraftMarker } from './draft-marker.js';
import { useDecimalMultipleOf } from './multiple-of.js';
import { linearRegExp } from './patterns.js';
import { useLinearUniqueItems } from './unique-items.js';
import type { JsonSchemaValidator } from './validator.js';

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  if (typeof params.additionalProperty === 'string') message += `: '${params.additionalProperty}'`;
  if (Array.isArray(params.allowedValues))
    message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return { path: error.instancePath, message };
}

const COMPILES_PER_INSTANCE = 64;

/** One shared success: a validation on the hot path allocates nothing when the input is fine. */
const VALID = Object.freeze({ valid: true as const });

/**
 * Ajv (draft 2020-12, also reads draft-07 tool schemas) with ajv-formats, all errors reported, input
 * never coerced or mutated: the default validator on Node, Bun and Deno. Creating it loads nothing;
 * `load()` imports Ajv and ajv-formats (the registry awaits it once, before its first compile, so a
 * wrapper must pass `load` on), and `compile` throws until it has resolved. Its cost is bounded in the
 * input: `pattern` and `patternProperties` run in linear time (RE2, or V8's RegExp where that is
 * provably linear; `options.code.regExp` replaces the engine), every ajv-formats format runs a linear
 * check (formats.ts), and `uniqueItems` is one pass over canonical JSON keys, not Ajv's pairwise
 * compare. `multipleOf` reads decimals as written (0.07 is a multiple of 0.01). It refuses at
 * `register` what the Workers validator would read otherwise (`$recursiveRef`, `unevaluatedItems`
 * beside `contains`). Ajv generates code (`new Function`): where that is forbidden (Cloudflare
 * Workers), the default is {@link createCfworkerValidator}, which gives the same verdicts or refuses.
 *
 * @example
 * ```ts
 * import { ToolRegistry, createAjvValidator } from 'graded-tools';
 * const registry = new ToolRegistry({ validator: createAjvValidator({ strict: false }) });
 *
 * // Used on its own, it loads first:
 * const ajv = createAjvValidator();
 * await ajv.load?.();
 * const check = ajv.compile({ type: 'object', required: ['query'] });
 * console.log(check({}).valid); // false
 * ```
 */
export function createAjvValidator(options: Options = {}): JsonSchemaValidator {
  let ajv: Ajv2020 | undefined;
  let compiles = 0;
  return {
    load() {
      const engine = loadAjv();
      return engine instanceof Promise ? engine.then(() => undefined) : undefined;
    },
    findUnsupported: findDisputedKeyword,
    compile(schema) {
      const disputed = findDisputedKeyword(schema);
      if (disputed !== undefined) throw new Error(disputed);
      // Every validator an Ajv instance compiles keeps the whole instance (all its schemas and code)
      // alive; a fresh instance every few dozen compiles lets validators of removed tools go.
      if (ajv === undefined || compiles >= COMPILES_PER_INSTANCE) {
        const engine = loadedAjv();
        if (engine === undefined)
          throw new Error('Ajv is not loaded yet: await the validator’s load() before its first compile.');
        ajv = new engine.Ajv2020({
          allErrors: true,
          strict: false,
          logger: false,
          ...options,
          code: { regExp: linearRegExp, ...options.code },
        });
        engine.addFormats(ajv);
        for (const [name, format] of Object.entries(engine.formats)) ajv.addFormat(name, format);
        useLinearUniqueItems(ajv);
        useDecimalMultipleOf(ajv);
        compiles = 0;
      }
      compiles += 1;
      const source = withoutDraftMarker(schema);
      const validate = ajv.compile(source);
      // Two tools may share an `$id`: the instance must not keep the first one's schema under it.
      ajv.removeSchema(source);
      return (input) =>
        validate(input) ? VALID : { valid: false, issues: (validate.errors ?? []).map(toIssue) };
    },
  };
}
