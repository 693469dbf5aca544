import { generatesCode } from '#ajv-engine';
import { createAjvValidator } from './ajv-validator.js';
import { createCfworkerValidator } from './cfworker-validator.js';
import type { JsonSchemaValidator } from './validator.js';

/**
 * The registry's validator when none is given: Ajv where code generation is allowed (the fastest), and
 * cfworker under the `workerd` and `worker` conditions, where it is not (`#ajv-engine` decides).
 */
export function createDefaultValidator(): JsonSchemaValidator {
  return generatesCode ? createAjvValidator() : createCfworkerValidator();
}
