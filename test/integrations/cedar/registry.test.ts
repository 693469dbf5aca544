import { ToolRegistry } from 'graded-tools';
import { cedarRules } from 'graded-tools/cedar';
import { describe, expect, it } from 'vitest';

// Cedar rules on a registered tool, through the one call path.
function registryWith(policies: string): ToolRegistry {
  return new ToolRegistry().register({
    name: 'refund.lookup',
    description: 'Look up a refund.',
    sideEffect: 'read',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
    run: () => 'found',
    rules: cedarRules({ policies }),
  });
}

describe('Cedar rules in registry.invoke', () => {
  it('a matching forbid refuses the call with its @reason; otherwise the tool runs', async () => {
    const registry = registryWith(`
      @id("big") @reason("Over 500: ask finance.")
      forbid (principal, action, resource == Tool::"refund.lookup") when { context.input.amount > 500 };
      permit (principal, action, resource);`);
    expect(await registry.invoke('refund.lookup', { amount: 600 }, { actor: 'ann' })).toMatchObject({
      ok: false,
      code: 'RULE_DENIED',
      error: expect.stringContaining('Over 500: ask finance.'),
      rule: 'cedar:big',
    });
    expect(await registry.invoke('refund.lookup', { amount: 6 }, { actor: 'ann' })).toEqual({
      ok: true,
      data: 'found',
    });
  });

  it('a policy Cedar cannot evaluate refuses the call: fail closed', async () => {
    const registry = registryWith(`
      @reason("Over 500.") forbid (principal, action, resource) when { context.input.amount > 500 };`);
    // 600.5 reaches Cedar as a String: comparing it with a Long is an error.
    const fraction = await registry.invoke('refund.lookup', { amount: 600.5 });
    const missing = await registry.invoke('refund.lookup', {});
    for (const result of [fraction, missing]) {
      expect(result).toMatchObject({
        ok: false,
        code: 'RULE_DENIED',
        error: expect.stringContaining('could not be evaluated'),
        rule: 'cedar:policy0',
      });
    }
  });
});
