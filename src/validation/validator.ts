import type { JsonSchema } from '../json-schema.js';
import type { ValidationIssue } from '../result.js';

/** The outcome of checking one input. */
export type ValidationOutcome =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly ValidationIssue[] };

/** A compiled check for one schema. */
export type CompiledValidator = (input: unknown) => ValidationOutcome;

/**
 * A JSON Schema validator the registry compiles tool schemas with, lazily and once per tool. The
 * default uses Ajv; pass another (e.g. one without code generation) as the `validator` option.
 */
export interface JsonSchemaValidator {
  /** Compiles `schema`; throws when the schema itself is invalid. */
  compile(schema: JsonSchema): CompiledValidator;
}
