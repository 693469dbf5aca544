import { type JsonSchemaValidator, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool } from '../helpers/tools.js';

/** A validator that accepts everything once `load` has resolved, counting loads and compiles. */
function loadingValidator(load: () => Promise<void>) {
  const counts = { loads: 0, compiles: 0 };
  let loaded = false;
  const validator: JsonSchemaValidator = {
    load: async () => {
      counts.loads += 1;
      await load();
      loaded = true;
    },
    compile: () => {
      if (!loaded) throw new Error('compiled before load');
      counts.compiles += 1;
      return () => ({ valid: true });
    },
  };
  return { validator, counts };
}

describe('a validator that loads its engine on first use', () => {
  it('is loaded once for concurrent first calls, and compiles after', async () => {
    const { validator, counts } = loadingValidator(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const registry = new ToolRegistry({ validator }).register(readTool().tool);
    const results = await Promise.all([1, 2, 3].map(() => registry.invoke('kb.search', { query: 'x' })));
    expect(results.map((result) => result.ok)).toEqual([true, true, true]);
    expect(counts).toEqual({ loads: 1, compiles: 1 });
  });

  it('answers the calls waiting on a failed load with SCHEMA_ERROR, and tries again on the next', async () => {
    let failing = true;
    const { validator, counts } = loadingValidator(async () => {
      if (failing) throw new Error('module not found');
    });
    const registry = new ToolRegistry({ validator }).register(readTool().tool);
    const first = await Promise.all([1, 2].map(() => registry.invoke('kb.search', { query: 'x' })));
    expect(first.map((result) => (result.ok ? 'ran' : result.code))).toEqual([
      'SCHEMA_ERROR',
      'SCHEMA_ERROR',
    ]);
    expect(first[0]?.ok === false && first[0].error).toContain('module not found');
    failing = false;
    expect((await registry.invoke('kb.search', { query: 'x' })).ok).toBe(true);
    expect(counts).toEqual({ loads: 2, compiles: 1 });
  });

  it('answers a load that throws instead of rejecting with SCHEMA_ERROR, never a crash', async () => {
    const validator: JsonSchemaValidator = {
      load: () => {
        throw new Error('no engine here');
      },
      compile: () => () => ({ valid: true }),
    };
    const registry = new ToolRegistry({ validator }).register(readTool().tool);
    const result = await registry.invoke('kb.search', { query: 'x' });
    expect(result.ok ? 'ran' : result.code).toBe('SCHEMA_ERROR');
  });

  it('runs a call in the same tick with a validator that has no load()', () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry({ validator: { compile: () => () => ({ valid: true }) } }).register(
      tool,
    );
    void registry.invoke('kb.search', { query: 'x' });
    expect(calls).toEqual([{ query: 'x' }]);
  });

  it('runs a later call in the same tick once the default validator has loaded', async () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry().register(tool);
    expect((await registry.invoke('kb.search', { query: 'first' })).ok).toBe(true);
    void registry.invoke('kb.search', { query: 'second' });
    expect(calls).toEqual([{ query: 'first' }, { query: 'second' }]);
  });

  it('runs a new registry’s first call in the same tick once the process has the engine', async () => {
    expect((await new ToolRegistry().register(readTool().tool).invoke('kb.search', { query: 'x' })).ok).toBe(
      true,
    );
    const { tool, calls } = readTool();
    void new ToolRegistry().register(tool).invoke('kb.search', { query: 'fresh' });
    expect(calls).toEqual([{ query: 'fresh' }]);
  });
});
