import { type RegistryEvent, type Rule, type RuleCall, type RuleEvent, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, writeTool } from '../../helpers/tools.js';

// How rules decide one call, through the registry: conditions, fail-closed, shadow mode, the `rule` event.
const T0 = Date.parse('2030-01-01T12:00:00.000Z');

function withRules(rules: readonly Rule[]) {
  const events: RegistryEvent[] = [];
  const { tool, calls } = readTool('kb.search', { rules });
  const registry = new ToolRegistry({ now: () => T0, onEvent: (e) => void events.push(e) }).register(tool);
  const ruleEvents = () => events.filter((e): e is RuleEvent => e.type === 'rule');
  return { registry, calls, ruleEvents };
}

describe('evaluating rules', () => {
  it('a function rule sees the validated input, actor, scope, granted flags, tool and the registry clock', async () => {
    const seen: RuleCall[] = [];
    const { registry, calls } = withRules([
      {
        when: (call) => {
          seen.push(call);
          return call.input.query === 'secret';
        },
        deny: 'Not that one.',
      },
    ]);
    await expect(
      registry.invoke(
        'kb.search',
        { query: 'hello' },
        { actor: 'ann', scope: 'desk', flags: { beta: true, off: false } },
      ),
    ).resolves.toMatchObject({ ok: true });
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call).toMatchObject({ input: { query: 'hello' }, actor: 'ann', scope: 'desk', tool: 'kb.search' });
    expect(call?.flags).toEqual({ beta: true });
    expect(call?.now.getTime()).toBe(T0);
    expect(calls).toEqual([{ query: 'hello' }]);
  });

  it('a CEL rule reads the same names; actor and scope are empty strings when none', async () => {
    const { registry, calls } = withRules([
      { name: 'no-actor', when: 'actor == ""', deny: 'Say who you are.' },
      { name: 'beta-only', when: '!("beta" in flags)', deny: 'Beta only.' },
      { name: 'late', when: 'now > timestamp("2030-01-02T00:00:00Z")', deny: 'Too late.' },
      { name: 'tool', when: 'tool != "kb.search"', deny: 'Wrong tool.' },
      { name: 'scope', when: 'scope == "web"', deny: 'Not on the web.' },
    ]);
    await expect(registry.invoke('kb.search', { query: 'q' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
      rule: 'no-actor',
    });
    await expect(registry.invoke('kb.search', { query: 'q' }, { actor: 'ann' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
      rule: 'beta-only',
    });
    await expect(
      registry.invoke('kb.search', { query: 'q' }, { actor: 'ann', scope: 'web', flags: { beta: true } }),
    ).resolves.toMatchObject({
      code: 'RULE_DENIED',
      rule: 'scope',
      error: expect.stringContaining('Not on the web.'),
    });
    await expect(
      registry.invoke('kb.search', { query: 'q' }, { actor: 'ann', flags: { beta: true } }),
    ).resolves.toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
  });

  it('the first enforced deny gives the reason, and a deny wins over every other rule', async () => {
    const { registry, calls, ruleEvents } = withRules([
      { limit: { calls: 100, per: 'day', by: 'actor' } },
      { name: 'first', deny: 'First reason.' },
      { name: 'second', deny: 'Second reason.' },
    ]);
    const result = await registry.invoke('kb.search', { query: 'q' }, { actor: 'ann' });
    expect(result).toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'first' });
    expect(result.ok ? '' : result.error).toContain('First reason.');
    expect(result.ok ? '' : result.error).not.toContain('Second reason.');
    expect(calls).toEqual([]);
    expect(ruleEvents().map((e) => [e.rule, e.decision, e.enforced])).toEqual([
      ['first', 'deny', true],
      ['second', 'deny', true],
    ]);
    // A denied call counts no limit.
    const check = await registry.check('kb.search', { query: 'q' }, { actor: 'ann' });
    expect(check.limits).toMatchObject([{ rule: '#1', used: 0 }]);
  });

  it('a rule whose condition throws denies (fail closed) and reports decision "error"', async () => {
    const { registry, calls, ruleEvents } = withRules([
      {
        name: 'broken',
        when: () => {
          throw new Error('lookup table missing');
        },
        deny: 'Never read.',
      },
    ]);
    const result = await registry.invoke('kb.search', { query: 'q' }, { actor: 'ann' });
    expect(result).toMatchObject({ ok: false, code: 'RULE_DENIED', rule: 'broken' });
    expect(result.ok ? '' : result.error).toContain('could not be evaluated');
    expect(calls).toEqual([]);
    expect(ruleEvents()).toEqual([
      {
        type: 'rule',
        tool: 'kb.search',
        caller: 'person',
        rule: 'broken',
        decision: 'error',
        enforced: true,
        reason: expect.stringContaining('lookup table missing'),
        at: T0,
      },
    ]);
  });

  it('a condition that is not a boolean, or is a promise, denies', async () => {
    for (const value of [1, 'true', null, undefined, {}, Promise.resolve(true)]) {
      const { registry, calls, ruleEvents } = withRules([
        { name: 'odd', when: (() => value) as unknown as () => boolean, deny: 'Never read.' },
      ]);
      await expect(registry.invoke('kb.search', { query: 'q' })).resolves.toMatchObject({
        ok: false,
        code: 'RULE_DENIED',
        rule: 'odd',
      });
      expect(calls).toEqual([]);
      expect(ruleEvents()).toMatchObject([{ rule: 'odd', decision: 'error', enforced: true }]);
    }
  });

  it('a rule that applies to no call never denies', async () => {
    const { registry, calls, ruleEvents } = withRules([
      { when: () => false, deny: 'x' },
      { when: 'false', deny: 'y' },
    ]);
    await expect(registry.invoke('kb.search', { query: 'q' })).resolves.toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
    expect(ruleEvents()).toEqual([]);
  });

  it('a CEL expression that fails at run time (a missing key) denies', async () => {
    const { tool, calls } = readTool('kb.search', {
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      rules: [{ name: 'amount', when: 'input.amount > 500', deny: 'Too much.' }],
    });
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('kb.search', { amount: 10 })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('kb.search', { amount: 600 })).resolves.toMatchObject({
      code: 'RULE_DENIED',
      error: expect.stringContaining('Too much.'),
    });
    await expect(registry.invoke('kb.search', {})).resolves.toMatchObject({
      code: 'RULE_DENIED',
      rule: 'amount',
      error: expect.stringContaining('could not be evaluated'),
    });
    expect(calls).toEqual([{ amount: 10 }]);
  });

  it('a sum that throws or gives a negative number denies', async () => {
    for (const sum of [
      () => {
        throw new Error('no');
      },
      () => -1,
      () => Number.NaN,
      (() => 'five') as unknown as () => number,
    ]) {
      const { tool, calls } = writeTool('ticket.submit', {
        rules: [{ name: 'budget', limit: { sum, max: 10, per: 'day', by: 'global' } }],
      });
      const registry = new ToolRegistry().register(tool);
      await expect(registry.invoke('ticket.submit', {})).resolves.toMatchObject({
        ok: false,
        code: 'RULE_DENIED',
        rule: 'budget',
      });
      expect(calls).toEqual([]);
    }
  });

  it('a shadow deny does not deny, and reports enforced: false', async () => {
    const { registry, calls, ruleEvents } = withRules([
      { name: 'audit', when: 'input.query == "x"', deny: 'Would refuse.', mode: 'shadow' },
    ]);
    await expect(registry.invoke('kb.search', { query: 'x' }, { actor: 'ann' })).resolves.toMatchObject({
      ok: true,
    });
    expect(calls).toEqual([{ query: 'x' }]);
    expect(ruleEvents()).toEqual([
      {
        type: 'rule',
        tool: 'kb.search',
        caller: 'person',
        rule: 'audit',
        decision: 'deny',
        enforced: false,
        reason: 'Would refuse.',
        at: T0,
      },
    ]);
  });

  it('a shadow rule that throws only reports; an enforced one beside it still decides', async () => {
    const { registry, calls, ruleEvents } = withRules([
      {
        name: 'shaky',
        when: () => {
          throw new Error('boom');
        },
        deny: 'x',
        mode: 'shadow',
      },
      { name: 'real', when: 'input.query == "no"', deny: 'No.' },
    ]);
    await expect(registry.invoke('kb.search', { query: 'yes' })).resolves.toMatchObject({ ok: true });
    expect(ruleEvents()).toMatchObject([{ rule: 'shaky', decision: 'error', enforced: false }]);
    await expect(registry.invoke('kb.search', { query: 'no' })).resolves.toMatchObject({
      code: 'RULE_DENIED',
      rule: 'real',
    });
    expect(calls).toHaveLength(1);
  });

  it('a shadow limit counts without refusing and reports when it would have refused', async () => {
    const { registry, calls, ruleEvents } = withRules([
      { name: 'soft', limit: { calls: 1, per: 'day', by: 'actor' }, mode: 'shadow' },
    ]);
    for (let i = 0; i < 3; i++)
      await expect(registry.invoke('kb.search', { query: 'q' }, { actor: 'ann' })).resolves.toMatchObject({
        ok: true,
      });
    expect(calls).toHaveLength(3);
    expect(ruleEvents().map((e) => [e.rule, e.decision, e.enforced])).toEqual([
      ['soft', 'limit', false],
      ['soft', 'limit', false],
    ]);
    const check = await registry.check('kb.search', { query: 'q' }, { actor: 'ann' });
    expect(check).toMatchObject({
      outcome: 'allow',
      limits: [{ rule: 'soft', used: 3, max: 1, shadow: true }],
    });
  });

  it('rules run after the input is validated: an invalid input is INVALID_INPUT, no rule consulted', async () => {
    let asked = 0;
    const { registry } = withRules([{ when: () => ++asked > 0, deny: 'x' }]);
    await expect(registry.invoke('kb.search', { query: 5 })).resolves.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(asked).toBe(0);
  });
});
