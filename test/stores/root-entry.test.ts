import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DRIVERS = ['better-sqlite3', 'pg'];

/** Every module `entry` reaches through static and dynamic imports, relative ones followed. */
function reach(
  entry: string,
  resolveRelative: (from: string, spec: string) => string,
): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    // `import type` is erased; everything else (static, re-export, dynamic, require) counts.
    const specs = [
      ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g),
      ...text.matchAll(/(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1] as string);
    for (const spec of specs) {
      if (spec.startsWith('.')) queue.push(resolveRelative(file, spec));
      else bare.add(spec);
    }
  }
  return { files: [...files], bare: [...bare] };
}

/** Not even a `createRequire(…)('pg')` hidden in a reached file. */
function expectNoDriverNamed(files: string[]): void {
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toMatch(/['"](better-sqlite3|pg)['"]/);
  }
}

describe('the root entry never loads a store driver', () => {
  it('src/index.ts reaches neither the SQL stores nor better-sqlite3 or pg', () => {
    const { files, bare } = reach(resolve(root, 'src/index.ts'), (from, spec) =>
      resolve(dirname(from), spec.replace(/\.js$/, '.ts')),
    );
    // The store contract and the memory store (the default) are reached; no SQL store is.
    expect(files.some((f) => /\/src\/stores\/(sql\/|sqlite\.ts|postgres\.ts)/.test(f))).toBe(false);
    expect(files.some((f) => f.endsWith('/src/stores/memory/memory-store.ts'))).toBe(true);
    for (const driver of DRIVERS) expect(bare).not.toContain(driver);
    expectNoDriverNamed(files);
    // The contract suite (graded-tools/testing) and its vitest stay out of the root too.
    expect(files.some((f) => f.includes('/src/testing/'))).toBe(false);
    expect(bare).not.toContain('vitest');
  });

  const built = resolve(root, 'dist/index.mjs');
  if (!existsSync(built)) {
    console.warn(
      '[graded-tools] skipping the built-entry check: dist/ is missing (npm test builds it first; or run npx tsdown).',
    );
  }
  it.skipIf(!existsSync(built))('the built dist/index.mjs reaches neither driver', () => {
    const { files, bare } = reach(built, (from, spec) => resolve(dirname(from), spec));
    for (const driver of DRIVERS) expect(bare).not.toContain(driver);
    expectNoDriverNamed(files);
    const sqlite = reach(resolve(root, 'dist/sqlite.mjs'), (from, spec) => resolve(dirname(from), spec));
    expect(sqlite.bare).not.toContain('pg');
    // vitest, an optional peer, is loaded by graded-tools/testing alone, and not bundled into it.
    expect(bare).not.toContain('vitest');
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/['"]vitest['"]/);
    const testing = reach(resolve(root, 'dist/testing.mjs'), (from, spec) => resolve(dirname(from), spec));
    expect(testing.bare).toContain('vitest');
  });
});
