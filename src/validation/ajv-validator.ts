import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../json-schema.js';
import type { ValidationIssue } from '../result.js';
import { loadAddFormats, loadAjv } from './engines.js';
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

/** Schemas name their own draft; the 2020-12 engine reads draft-07 tool schemas fine without it. */
function withoutDraftMarker(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/**
 * The default validator: Ajv (draft 2020-12, also reads draft-07 tool schemas) with ajv-formats, all
 * errors reported, input never coerced or mutated. Ajv and ajv-formats are loaded, and the Ajv
 * instance made, on the first compile: creating this validator loads nothing. Its cost
 * is bounded in the input: `pattern` and `patternProperties` run in linear time (RE2, or V8's RegExp
 * where that is provably linear; `options.code.regExp` replaces the engine), and `uniqueItems` is one
 * pass over canonical JSON keys, not Ajv's pairwise compare.
 *
 * @example
 * ```ts
 * import { ToolRegistry, createAjvValidator } from 'graded-tools';
 * const registry = new ToolRegistry({ validator: createAjvValidator({ strict: false }) });
 * ```
 */
export function createAjvValidator(options: Options = {}): JsonSchemaValidator {
  let ajv: Ajv2020 | undefined;
  let compiles = 0;
  return {
    compile(schema) {
      // Every validator an Ajv instance compiles keeps the whole instance (all its schemas and code)
      // alive; a fresh instance every few dozen compiles lets validators of removed tools go.
      if (ajv === undefined || compiles >= COMPILES_PER_INSTANCE) {
        const { Ajv2020: Engine } = loadAjv();
        ajv = new Engine({
          allErrors: true,
          strict: false,
          logger: false,
          ...options,
          code: { regExp: linearRegExp, ...options.code },
        });
        loadAddFormats()(ajv);
        useLinearUniqueItems(ajv);
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
