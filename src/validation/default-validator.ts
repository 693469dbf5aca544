import { createAjvValidator } from './ajv-validator.js';
import type { JsonSchemaValidator } from './validator.js';

// What `#default-validator` resolves to on Node, Bun and Deno (package.json `imports`); the
// `workerd` and `worker` conditions get default-validator.workerd.ts instead.

/** The registry's validator when none is given: Ajv, the fastest where code generation is allowed. */
export function createDefaultValidator(): JsonSchemaValidator {
  return createAjvValidator();
}
