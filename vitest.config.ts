import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import tsconfig from './tsconfig.json' with { type: 'json' };

// Tests import the package by its public names ('graded-tools', 'graded-tools/sqlite', …); the same
// map as tsconfig's `paths` points them at the sources.
const alias = Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => ({
  find: new RegExp(`^${name.replace('/', '\\/')}$`),
  replacement: fileURLToPath(new URL(target ?? '', import.meta.url)),
}));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    coverage: { provider: 'v8', include: ['src/**'] },
  },
});
