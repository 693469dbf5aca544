import { describe, expect, it } from 'vitest';
import { isRegistryLike, loadRegistry } from '../../src/cli/load-registry.js';
import { ROOT } from '../support/ensure-built.js';

describe('loadRegistry', () => {
  it('takes the default export', async () => {
    const loaded = await loadRegistry('test/fixtures/support-desk-module.ts', ROOT);
    expect(loaded.ok && loaded.registry.toFunctionSchemas().map((s) => s.name)).toEqual(['session__fetch']);
  });

  it('takes an export named registry', async () => {
    const loaded = await loadRegistry('./test/fixtures/named-registry-module.ts', ROOT);
    expect(loaded.ok).toBe(true);
  });

  it('says what the module exports when none is a registry', async () => {
    const loaded = await loadRegistry('test/fixtures/no-registry-module.ts', ROOT);
    expect(loaded).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /exports no ToolRegistry \(it exports: answer, helper\)\. Add `export default registry`/,
      ),
    });
  });

  it('reports a module that throws or does not exist, with a hint for TypeScript', async () => {
    const throwing = await loadRegistry('test/fixtures/throwing-module.ts', ROOT);
    expect(!throwing.ok && throwing.problem).toMatch(/Could not import .*database URL is not set/);
    const missing = await loadRegistry('test/fixtures/missing.ts', ROOT);
    expect(!missing.ok && missing.problem).toMatch(/Could not import .*needs a loader/);
  });

  it('recognises registries by shape, not by class identity', () => {
    expect(isRegistryLike({ toFunctionSchemas() {}, invokeReadOnly() {}, get() {} })).toBe(true);
    expect(isRegistryLike({ toFunctionSchemas() {} })).toBe(false);
    expect(isRegistryLike(null)).toBe(false);
  });
});
