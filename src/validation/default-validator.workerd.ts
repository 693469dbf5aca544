import { createCfworkerValidator } from './cfworker-validator.js';
import type { JsonSchemaValidator } from './validator.js';

// What `#default-validator` resolves to under the `workerd` and `worker` conditions (package.json
// `imports`): Cloudflare Workers forbid `new Function`, so Ajv (and its code) stays out of the bundle.

/** The registry's validator when none is given: one that generates no code. */
export function createDefaultValidator(): JsonSchemaValidator {
  return createCfworkerValidator();
}
