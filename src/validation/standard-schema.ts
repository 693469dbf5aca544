import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../json-schema.js';
import type { ValidationIssue } from '../result.js';
import type { DescribedStandardSchema, InputSchema } from '../tool.js';

/** True when `schema` is a Standard Schema (has a `~standard` property). */
export function isStandardSchema(schema: InputSchema): schema is DescribedStandardSchema {
  const standard = (schema as { '~standard'?: unknown })['~standard'];
  return typeof standard === 'object' && standard !== null;
}

/** The JSON Schema a Standard Schema describes its input as, or a reason it cannot. */
export function describeAsJsonSchema(schema: DescribedStandardSchema): JsonSchema | string {
  const converter = schema['~standard'].jsonSchema;
  if (typeof converter?.input !== 'function') {
    return 'it is a Standard Schema that cannot describe itself as JSON Schema (use zod 4 or give a JSON Schema)';
  }
  try {
    return converter.input({ target: 'draft-2020-12' });
  } catch (error) {
    return `it could not be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function pointer(path: StandardSchemaV1.Issue['path']): string {
  if (!path || path.length === 0) return '';
  return path
    .map((segment) => {
      const key = typeof segment === 'object' ? segment.key : segment;
      return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
    })
    .join('');
}

/** A Standard Schema's verdict: its output (with any transforms) is what `run` gets. */
export type StandardOutcome = { valid: true; value: unknown } | { valid: false; issues: ValidationIssue[] };

function toOutcome(result: StandardSchemaV1.Result<unknown>): StandardOutcome {
  if (result.issues === undefined) return { valid: true, value: result.value };
  return {
    valid: false,
    issues: result.issues.map((issue) => ({ path: pointer(issue.path), message: issue.message })),
  };
}

/**
 * Runs a Standard Schema's own validation: the verdict at once when the schema answers synchronously
 * (zod without async refinements does), a promise of it when the schema answers with one.
 */
export function validateStandard(
  schema: StandardSchemaV1,
  input: unknown,
): StandardOutcome | Promise<StandardOutcome> {
  const result = schema['~standard'].validate(input);
  // Any thenable counts as "answers later": read synchronously, it would look like a pass.
  return typeof (result as { then?: unknown }).then === 'function'
    ? Promise.resolve(result).then(toOutcome)
    : toOutcome(result as StandardSchemaV1.Result<unknown>);
}
