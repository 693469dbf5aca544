import { installRuntime } from '../../scripts/runtimes.mjs';

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * A Node >= 22 binary for a test that needs one: this process's own, or the Node 24 of the runtimes
 * folder (`scripts/runtimes.mjs`, the npm registry's `node` package, pinned; the same one wrangler runs
 * on). `reason` says why there is none.
 */
export function findNode22(): { readonly path: string } | { readonly reason: string } {
  if (major(process.version) >= 22) return { path: process.execPath };
  const binary = installRuntime('node24');
  return binary === undefined
    ? { reason: 'node@24 could not be installed from npm into the runtimes folder (scripts/runtimes.mjs)' }
    : { path: binary };
}
