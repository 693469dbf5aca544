import type * as AjvModule from 'ajv/dist/2020.js';
import { fullFormats, type LinearFormat, linearFormats } from './formats.js';

// What `#ajv-engine` resolves to on Node, Bun and Deno (package.json `imports`); the `workerd` and
// `worker` conditions get ajv-engine.workerd.ts, so that no bundle for them holds Ajv's code.
// Loaded by dynamic `import()` on the first compile, not at import: an app whose tools all bring a
// Standard Schema never pays for Ajv and ajv-formats (~60 ms and ~1 MB of heap on Node).

/** True where code generation is allowed: Ajv is then the default validator, the fastest. */
export const generatesCode = true;

/** Ajv's draft 2020-12 engine, ajv-formats' plugin, and its formats made linear (formats.ts), once loaded. */
export interface AjvEngine {
  readonly Ajv2020: typeof AjvModule.Ajv2020;
  readonly addFormats: (ajv: AjvModule.Ajv2020) => unknown;
  readonly formats: Readonly<Record<string, LinearFormat>>;
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
  ajv ??= Promise.all([
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
    import('ajv-formats/dist/formats.js'),
  ]).then(
    ([core, plugin, formats]) => {
      ajv = {
        Ajv2020: commonJsExport<typeof AjvModule.Ajv2020>(core, 'Ajv2020'),
        addFormats: commonJsExport<AjvEngine['addFormats']>(plugin, 'formatsPlugin'),
        formats: linearFormats(fullFormats(formats)),
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
