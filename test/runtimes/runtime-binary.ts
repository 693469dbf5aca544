import { describe, it } from 'vitest';
import { runtimeBinary } from '../../scripts/runtimes.mjs';

type Runtime = 'bun' | 'deno' | 'node24' | 'wrangler';

/**
 * The runtime's binary, or a suite that says why there is none: a failing test in CI (which installs
 * every runtime before `npm test`), a skip with the reason printed anywhere else.
 */
export function binaryOrReason(name: Runtime, title: string): string | undefined {
  const binary = runtimeBinary(name);
  if (binary !== undefined) return binary;
  const reason = `${name} is not installed in the runtimes folder: \`node scripts/runtimes.mjs install\` (run by \`npm test\`) could not install it`;
  if (process.env.CI) {
    describe(title, () => {
      it(`needs ${name}`, () => {
        throw new Error(`${reason}; CI must install it (.ci/run)`);
      });
    });
  } else {
    console.warn(`skipped "${title}": ${reason}`);
    // A file whose suites are all skipped still reports one test, named for the reason.
    describe(title, () => {
      it.skipIf(true)(`needs ${name}: ${reason}`, () => {});
    });
  }
  return undefined;
}
