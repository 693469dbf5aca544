import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { resolveAdapterOptions } from '../../../src/adapters/shared/options.js';
import { runModelCalls } from '../../../src/adapters/shared/run-calls.js';

describe('runModelCalls', () => {
  const registry = new ToolRegistry({ locale: 'zh-CN' }).register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: { type: 'object' },
    run: () => 'hit',
  });

  it("speaks the registry's language in the messages it makes itself, unless the call gives one", async () => {
    const calls = [1, 2, 3].map(() => ({ name: 'kb__search', args: '{}' }));
    const options = resolveAdapterOptions({ maxCallsPerTurn: 2 });
    const zh = await runModelCalls(registry, calls, {}, options);
    expect(zh.map((result) => result.ok)).toEqual([true, true, false]);
    expect(zh[2]).toMatchObject({ code: 'TOO_MANY_CALLS', error: expect.stringMatching(/[\u4e00-\u9fff]/) });
    const en = await runModelCalls(registry, calls, { locale: 'en' }, options);
    expect(en[2]).toMatchObject({
      code: 'TOO_MANY_CALLS',
      error: expect.not.stringMatching(/[\u4e00-\u9fff]/),
    });
    expect(registry.locale).toBe('zh-CN');
  });
});
