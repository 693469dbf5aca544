import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../../json-schema.js';

/** A Standard Schema that accepts every value and describes itself with a tool's JSON Schema. */
export type PassThroughSchema = StandardSchemaV1<unknown, unknown> & StandardJSONSchemaV1<unknown, unknown>;

/**
 * The input schema a framework gets for one tool: its JSON Schema is the model's (a fresh mutable
 * copy on every ask, since frameworks annotate what they are given), and its validation lets every
 * value through, because the model's exit validates and the model must read the exit's issue list,
 * not the framework's "did not match expected schema".
 */
export function toPassThroughSchema(parameters: JsonSchema): PassThroughSchema {
  const copy = () => structuredClone(parameters) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'graded-tools',
      validate: (value) => ({ value }),
      jsonSchema: { input: copy, output: copy },
    },
  };
}
