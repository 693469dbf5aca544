import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv/dist/2020.js';
import type * as Re2jsModule from 're2js';

// Loaded on first use, not at import: an app whose tools all bring a Standard Schema never pays for
// them. Ajv and ajv-formats ship CommonJS only; re2js ships both builds, of the same code.
const load = createRequire(import.meta.url);

let ajv: typeof AjvModule | undefined;
let addFormats: ((ajv: AjvModule.Ajv2020) => unknown) | undefined;
let re2js: typeof Re2jsModule | undefined;

/** Ajv's draft 2020-12 engine, loaded on the first schema compiled. */
export function loadAjv(): typeof AjvModule {
  ajv ??= load('ajv/dist/2020.js') as typeof AjvModule;
  return ajv;
}

/** ajv-formats' plugin (its CommonJS export; some bundlers put it under `.default`). */
export function loadAddFormats(): (ajv: AjvModule.Ajv2020) => unknown {
  if (addFormats === undefined) {
    const module = load('ajv-formats') as { default?: unknown };
    addFormats = (module.default ?? module) as (ajv: AjvModule.Ajv2020) => unknown;
  }
  return addFormats;
}

/** re2js, loaded on the first `pattern` checked or compiled. */
export function loadRe2js(): typeof Re2jsModule {
  re2js ??= load('re2js') as typeof Re2jsModule;
  return re2js;
}
