import { createMemoryStore, type RegistryEvent, type Rule, runPlan, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, writeTool } from '../helpers/tools.js';

// Limits: counted in the registry's confirmation store, in fixed UTC windows of the registry's clock.
const T0 = Date.parse('2030-01-01T12:34:56.000Z');

function clock(start = T0) {
  let t = start;
  return {
    now: () => t,
    set(at: number) {
      t = at;
    },
  };
}

function credits(rules: readonly Rule[], time = clock()) {
  const { tool, calls } = writeTool('credit.submit', {
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
    rules,
  });
  const registry = new ToolRegistry({ now: time.now }).register(tool);
  return { registry, calls, time };
}

describe('limit rules', () => {
  it('refuses past the limit with LIMIT_REACHED, the rule and when the window resets', async () => {
    const { registry, calls } = credits([{ name: 'daily', limit: { calls: 2, per: 'day', by: 'actor' } }]);
    const ctx = { actor: 'ann' };
    await expect(registry.invoke('credit.submit', {}, ctx)).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', {}, ctx)).resolves.toMatchObject({ ok: true });
    const refused = await registry.invoke('credit.submit', {}, ctx);
    expect(refused).toMatchObject({
      ok: false,
      code: 'LIMIT_REACHED',
      rule: 'daily',
      resetsAt: '2030-01-02T00:00:00.000Z',
    });
    expect(refused.ok ? '' : refused.error).toContain('2030-01-02T00:00:00.000Z');
    expect(calls).toHaveLength(2);
  });

  it('starts counting again when the window ends (the injected clock), not before', async () => {
    const { registry, calls, time } = credits([{ limit: { calls: 1, per: 'hour', by: 'tool' } }]);
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({ ok: true });
    time.set(Date.parse('2030-01-01T12:59:59.999Z'));
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
      resetsAt: '2030-01-01T13:00:00.000Z',
    });
    time.set(Date.parse('2030-01-01T13:00:00.000Z'));
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
      resetsAt: '2030-01-01T14:00:00.000Z',
    });
    expect(calls).toHaveLength(2);
  });

  it('a minute window', async () => {
    const { registry, time } = credits([{ limit: { calls: 1, per: 'minute', by: 'global' } }]);
    await registry.invoke('credit.submit', {});
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
      resetsAt: '2030-01-01T12:35:00.000Z',
    });
    time.set(Date.parse('2030-01-01T12:35:00.000Z'));
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({ ok: true });
  });

  it('a sum limit adds the amount; a call that would pass the max is refused and counts nothing', async () => {
    const { registry, calls } = credits([
      { name: 'budget', limit: { sum: 'input.amount', max: 100, per: 'day', by: 'scope' } },
    ]);
    const ctx = { scope: 'desk' };
    await expect(registry.invoke('credit.submit', { amount: 60 }, ctx)).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', { amount: 50 }, ctx)).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
      rule: 'budget',
    });
    await expect(registry.invoke('credit.submit', { amount: 40 }, ctx)).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', { amount: 0.5 }, ctx)).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    await expect(registry.invoke('credit.submit', { amount: 0 }, ctx)).resolves.toMatchObject({ ok: true });
    expect(calls).toEqual([{ amount: 60 }, { amount: 40 }, { amount: 0 }]);
    const check = await registry.check('credit.submit', { amount: 1 }, ctx);
    expect(check).toMatchObject({
      outcome: 'limit',
      limits: [{ rule: 'budget', used: 100, amount: 1, max: 100 }],
    });
  });

  it('a function sum', async () => {
    const { registry } = credits([
      { limit: { sum: (call) => Number(call.input.amount ?? 0) * 2, max: 10, per: 'day', by: 'global' } },
    ]);
    await expect(registry.invoke('credit.submit', { amount: 5 })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', { amount: 1 })).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
  });

  it('by actor: each asker has their own count', async () => {
    const { registry } = credits([{ limit: { calls: 1, per: 'day', by: 'actor' } }]);
    await expect(
      registry.invoke('credit.submit', {}, { actor: 'ann', scope: 'desk' }),
    ).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann', scope: 'crm' })).resolves.toMatchObject(
      {
        code: 'LIMIT_REACHED',
      },
    );
    await expect(
      registry.invoke('credit.submit', {}, { actor: 'bob', scope: 'desk' }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('by scope: everyone in a scope shares one count', async () => {
    const { registry } = credits([{ limit: { calls: 1, per: 'day', by: 'scope' } }]);
    await expect(
      registry.invoke('credit.submit', {}, { actor: 'ann', scope: 'desk' }),
    ).resolves.toMatchObject({ ok: true });
    await expect(
      registry.invoke('credit.submit', {}, { actor: 'bob', scope: 'desk' }),
    ).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann', scope: 'crm' })).resolves.toMatchObject(
      { ok: true },
    );
  });

  it('by tool: one count for every caller of the tool, apart from other tools', async () => {
    const limit: Rule = { limit: { calls: 1, per: 'day', by: 'tool' } };
    const a = writeTool('credit.submit', { rules: [limit] });
    const b = writeTool('refund.submit', { rules: [limit] });
    const registry = new ToolRegistry({ now: () => T0 }).register(a.tool).register(b.tool);
    await expect(
      registry.invoke('credit.submit', {}, { actor: 'ann', scope: 'desk' }),
    ).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', {}, { actor: 'bob', scope: 'crm' })).resolves.toMatchObject(
      {
        code: 'LIMIT_REACHED',
      },
    );
    await expect(registry.invoke('refund.submit', {}, { actor: 'bob' })).resolves.toMatchObject({ ok: true });
  });

  it('global: two tools with the same measure and window share one count', async () => {
    const limit: Rule = { limit: { calls: 3, per: 'day', by: 'global' } };
    const a = writeTool('credit.submit', { rules: [limit] });
    const b = readTool('kb.search', { rules: [limit] });
    const registry = new ToolRegistry({ now: () => T0 }).register(a.tool).register(b.tool);
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann' })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('kb.search', { query: 'q' }, { actor: 'bob' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(registry.invokeReadOnly('kb__search', { query: 'q' })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', {}, { actor: 'cy' })).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    await expect(registry.invokeReadOnly('kb__search', { query: 'q' })).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(2);
  });

  it('two limits on one call: when the second refuses, the first is refunded', async () => {
    const { registry, calls } = credits([
      { name: 'mine', limit: { calls: 10, per: 'day', by: 'actor' } },
      { name: 'all', limit: { calls: 1, per: 'day', by: 'global' } },
    ]);
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann' })).resolves.toMatchObject({ ok: true });
    for (let i = 0; i < 3; i++)
      await expect(registry.invoke('credit.submit', {}, { actor: 'ann' })).resolves.toMatchObject({
        code: 'LIMIT_REACHED',
        rule: 'all',
      });
    const check = await registry.check('credit.submit', {}, { actor: 'ann' });
    expect(check.limits).toMatchObject([
      { rule: 'mine', used: 1, max: 10 },
      { rule: 'all', used: 1, max: 1 },
    ]);
    expect(calls).toHaveLength(1);
  });

  it('a limit that does not apply (its `when` is false) counts nothing', async () => {
    const { registry } = credits([
      { when: 'input.amount > 100', limit: { calls: 1, per: 'day', by: 'global' } },
    ]);
    for (let i = 0; i < 3; i++)
      await expect(registry.invoke('credit.submit', { amount: 5 })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', { amount: 500 })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('credit.submit', { amount: 500 })).resolves.toMatchObject({
      code: 'LIMIT_REACHED',
    });
  });

  it('a call the tool fails still counts (the limit is spent before run)', async () => {
    const { tool } = writeTool('credit.submit', {
      rules: [{ limit: { calls: 1, per: 'day', by: 'global' } }],
      run: () => {
        throw new Error('down');
      },
    });
    const registry = new ToolRegistry({ now: () => T0 }).register(tool);
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({
      ok: false,
      code: 'RUN_FAILED',
    });
    await expect(registry.invoke('credit.submit', {})).resolves.toMatchObject({ code: 'LIMIT_REACHED' });
  });

  it('a write refused to an autonomous caller or a plan (a person must confirm) counts no limit', async () => {
    const { tool, calls } = writeTool('credit.submit', {
      rules: [{ confirm: true }, { name: 'daily', limit: { calls: 1, per: 'day', by: 'global' } }],
    });
    const registry = new ToolRegistry({ now: () => T0 }).register(tool);
    await expect(registry.invoke('credit.submit', {}, { autonomous: true })).resolves.toMatchObject({
      code: 'SEND_REQUIRES_CONFIRM',
    });
    await runPlan({ name: 'p', steps: [{ tool: 'credit.submit', input: {} }] }, {}, { registry });
    await expect(registry.check('credit.submit', {})).resolves.toMatchObject({
      limits: [{ rule: 'daily', used: 0 }],
    });
    // The person who then asks for it is not told the limit is spent by calls that never ran.
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann' })).resolves.toMatchObject({
      ok: true,
      requiresConfirm: true,
    });
    expect(calls).toEqual([]);
  });
});

describe('a shadow limit never refuses', () => {
  it('when its counter cannot be kept (the memory store is full), the call goes on and the rule event says so', async () => {
    const events: RegistryEvent[] = [];
    const { tool, calls } = writeTool('credit.submit', {
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      rules: [{ name: 'watch', mode: 'shadow', limit: { calls: 5, per: 'day', by: 'actor' } }],
    });
    const registry = new ToolRegistry({
      now: () => T0,
      confirmations: createMemoryStore({ maxRecords: 1 }),
      onEvent: (event) => {
        events.push(event);
      },
    }).register(tool);
    await expect(registry.invoke('credit.submit', {}, { actor: 'ann' })).resolves.toMatchObject({ ok: true });
    // A second actor needs a second counter, and the store holds one.
    await expect(registry.invoke('credit.submit', {}, { actor: 'bob' })).resolves.toMatchObject({ ok: true });
    expect(calls).toHaveLength(2);
    const rules = events.filter((event) => event.type === 'rule');
    expect(rules).toEqual([expect.objectContaining({ rule: 'watch', decision: 'error', enforced: false })]);
    expect(rules[0]?.type === 'rule' && rules[0].reason).toMatch(/could not be counted.*maxRecords/);
  });
});
