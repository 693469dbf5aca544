import type { AjvEngine } from './ajv-engine.js';

// What `#ajv-engine` resolves to under the `workerd` and `worker` conditions (package.json `imports`):
// Cloudflare Workers forbid `new Function`, which Ajv compiles schemas with, so Ajv stays out of the
// bundle and cfworker is the default validator.

/** False: code generation is forbidden here, and the default validator generates none. */
export const generatesCode = false;

/** Refuses: Ajv cannot compile where code generation is forbidden. */
export function loadAjv(): Promise<AjvEngine> {
  return Promise.reject(
    new Error(
      'Ajv compiles schemas with new Function, which this runtime forbids: use createCfworkerValidator() (the default here).',
    ),
  );
}

/** Never loaded here. */
export function loadedAjv(): AjvEngine | undefined {
  return undefined;
}
