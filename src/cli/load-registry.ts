import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolRegistry } from '../registry.js';
import { describeThrown } from '../util/describe-thrown.js';

/** A registry module loaded, or why not (a message for the person at the terminal). */
export type LoadedRegistry =
  | { readonly ok: true; readonly registry: ToolRegistry<unknown> }
  | { readonly ok: false; readonly problem: string };

/**
 * True for anything with the registry's model-facing methods. Duck-typed rather than `instanceof`, so a
 * module that imports another copy of graded-tools (a second install, `dist` vs sources) still works.
 */
export function isRegistryLike(value: unknown): value is ToolRegistry<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.toFunctionSchemas === 'function' &&
    typeof candidate.invokeReadOnly === 'function' &&
    typeof candidate.get === 'function'
  );
}

/** The package Node could not find for an import (an optional SDK not installed), if that was it. */
function missingPackage(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND')
    return undefined;
  return /^Cannot find package '([^']+)'/.exec(error.message)?.[1];
}

/**
 * Imports the module at `modulePath` (relative to `cwd`) and returns its `ToolRegistry`: the default
 * export, or the export named `registry`.
 */
export async function loadRegistry(modulePath: string, cwd: string): Promise<LoadedRegistry> {
  const url = pathToFileURL(resolve(cwd, modulePath)).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const missing = missingPackage(error);
    if (missing !== undefined) {
      return {
        ok: false,
        problem: `${modulePath} needs ${missing}, which is not installed: run \`npm i ${missing}\`.`,
      };
    }
    const hint = /\.[cm]?tsx?$/.test(modulePath)
      ? ' A TypeScript module needs a loader: run `node --import tsx …/graded-tools/dist/cli.mjs <command> …`, or point at the compiled .js.'
      : '';
    return { ok: false, problem: `Could not import ${modulePath}: ${describeThrown(error)}.${hint}` };
  }
  const fallback = loaded.default as Record<string, unknown> | undefined;
  for (const candidate of [loaded.default, loaded.registry, fallback?.default, fallback?.registry]) {
    if (isRegistryLike(candidate)) return { ok: true, registry: candidate };
  }
  const names = Object.keys(loaded).join(', ') || '(nothing)';
  return {
    ok: false,
    problem: `${modulePath} exports no ToolRegistry (it exports: ${names}). Add \`export default registry\` or \`export const registry = …\`.`,
  };
}
