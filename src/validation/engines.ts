import type * as CfworkerModule from '@cfworker/json-schema';
import type * as AjvModule from 'ajv/dist/2020.js';
import type * as FormatsModule from 'ajv-formats/dist/formats.js';

// Loaded by dynamic `import()` on the first compile, not at import: an app whose tools all bring a
// Standard Schema never pays for them (Ajv and ajv-formats: ~60 ms and ~1 MB of heap on Node), and
// every bundler still sees them.

/** Ajv's draft 2020-12 engine and ajv-formats' plugin, once loaded. */
export interface AjvEngine {
  readonly Ajv2020: typeof AjvModule.Ajv2020;
  readonly addFormats: (ajv: AjvModule.Ajv2020) => unknown;
}

/** A CommonJS module's `module.exports`, wherever the loader put it (Node: `default`; some bundlers: `default.default`). */
function commonJsExport<T>(namespace: unknown, name: string): T {
  let value = namespace as Record<string, unknown> | undefined;
  for (let depth = 0; depth < 3 && value !== undefined; depth += 1) {
    if (typeof value[name] === 'function') return value[name] as T;
    if (typeof value === 'function') return value as T;
    value = value.default as Record<string, unknown> | undefined;
  }
  if (typeof value === 'function') return value as T;
  throw new Error(`could not find ${name} in the loaded module`);
}

let ajv: AjvEngine | Promise<AjvEngine> | undefined;

/** Ajv and ajv-formats: loaded on the first call, the same promise (then the engine itself) after. */
export function loadAjv(): AjvEngine | Promise<AjvEngine> {
  ajv ??= Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]).then(
    ([core, formats]) => {
      ajv = {
        Ajv2020: commonJsExport<typeof AjvModule.Ajv2020>(core, 'Ajv2020'),
        addFormats: commonJsExport<AjvEngine['addFormats']>(formats, 'formatsPlugin'),
      };
      return ajv;
    },
    (error: unknown) => {
      ajv = undefined; // A failed load is tried again on the next compile.
      throw error;
    },
  );
  return ajv;
}

/** The loaded Ajv engine, or undefined before `loadAjv` has resolved. */
export function loadedAjv(): AjvEngine | undefined {
  return ajv instanceof Promise ? undefined : ajv;
}

/** @cfworker/json-schema, and ajv-formats' table of formats (plain functions and regexes, no Ajv). */
export interface CfworkerEngine {
  readonly Validator: typeof CfworkerModule.Validator;
  /** cfworker's own table of formats, which its `format` keyword reads: the only hook it has. */
  readonly cfworkerFormats: Record<string, (text: string) => boolean>;
  readonly ajvFormats: typeof FormatsModule.fullFormats;
}

let cfworker: CfworkerEngine | Promise<CfworkerEngine> | undefined;

/** @cfworker/json-schema (no code generation) and ajv-formats' formats: loaded on the first call. */
export function loadCfworker(): CfworkerEngine | Promise<CfworkerEngine> {
  cfworker ??= Promise.all([import('@cfworker/json-schema'), import('ajv-formats/dist/formats.js')]).then(
    ([engine, formats]) => {
      cfworker = {
        Validator: engine.Validator,
        cfworkerFormats: engine.format,
        ajvFormats:
          (formats as { fullFormats?: unknown; default?: { fullFormats?: unknown } }).fullFormats ??
          (formats as { default: { fullFormats: unknown } }).default.fullFormats,
      } as CfworkerEngine;
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
