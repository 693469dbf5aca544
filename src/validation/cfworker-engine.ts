import type * as CfworkerModule from '@cfworker/json-schema';
import { fullFormats, type LinearFormat, linearFormats } from './formats.js';

// Loaded by dynamic `import()` on the first compile: on Node it costs nothing until chosen.

/** @cfworker/json-schema, and ajv-formats' table of formats made linear (formats.ts), the same Ajv runs. */
export interface CfworkerEngine {
  readonly Validator: typeof CfworkerModule.Validator;
  /** cfworker's own table of formats, which its `format` keyword reads: the only hook it has. */
  readonly cfworkerFormats: Record<string, (text: string) => boolean>;
  readonly ajvFormats: Readonly<Record<string, LinearFormat>>;
}

let cfworker: CfworkerEngine | Promise<CfworkerEngine> | undefined;

/** @cfworker/json-schema (no code generation) and ajv-formats' formats: loaded on the first call. */
export function loadCfworker(): CfworkerEngine | Promise<CfworkerEngine> {
  cfworker ??= Promise.all([import('@cfworker/json-schema'), import('ajv-formats/dist/formats.js')]).then(
    ([engine, formats]) => {
      cfworker = {
        Validator: engine.Validator,
        cfworkerFormats: engine.format,
        ajvFormats: linearFormats(fullFormats(formats)),
      };
      return cfworker;
    },
    (error: unknown) => {
      cfworker = undefined;
      throw error;
    },
  );
  return cfworker;
}

/** The loaded cfworker engine, or undefined before `loadCfworker` has resolved. */
export function loadedCfworker(): CfworkerEngine | undefined {
  return cfworker instanceof Promise ? undefined : cfworker;
}
