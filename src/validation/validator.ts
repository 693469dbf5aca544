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
 * default is Ajv, or `createCfworkerValidator()` where code generation is forbidden (the `workerd`
 * and `worker` conditions); pass another as the `validator` option.
 */
export interface JsonSchemaValidator {
  /** Compiles `schema`; throws when the schema itself is invalid. */
  compile(schema: JsonSchema): CompiledValidator;
  /**
   * Loads what `compile` needs, for a validator that imports its engine on first use: a promise to
   * await before the first compile, or undefined once loaded. The registry asks before its first
   * compile; a validator without it compiles at once.
   */
  load?(): Promise<void> | undefined;
  /**
   * Why this validator cannot run `schema` safely, or undefined. The registry asks at `register`
   * (cheaply: it must load nothing), so such a tool is refused there, not at its first call.
   */
  findUnsupported?(schema: JsonSchema): string | undefined;
}
