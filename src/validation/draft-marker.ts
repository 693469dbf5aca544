import type { JsonSchema } from '../json-schema.js';

/** Schemas name their own draft; both engines run 2020-12, which reads draft-07 tool schemas fine without it. */
export function withoutDraftMarker(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
