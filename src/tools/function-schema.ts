import type { JsonSchema } from '../json-schema.js';
import { deepFreeze } from '../util/deep-freeze.js';

/** A tool as the model sees it, in OpenAI's function shape; the adapters start from this. */
export interface FunctionSchema {
  /** The wire name (`kb__search`). */
  readonly name: string;
  readonly description: string;
  /** The input JSON Schema, without a `$schema` marker. Frozen: copy before changing it. */
  readonly parameters: JsonSchema;
}

/** A frozen copy of a tool's JSON Schema for the model: the app's own schema object stays untouched. */
export function toModelParameters(schema: JsonSchema): JsonSchema {
  // A JSON round trip: what the model is sent is JSON anyway, and it is faster than structuredClone.
  const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  delete copy.$schema;
  return deepFreeze(copy);
}
