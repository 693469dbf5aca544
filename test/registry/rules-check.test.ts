import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

// registry.check: what would happen to a call now, running and counting nothing; get(name).rules.
const T0 = Date.parse('2030-01-01T12:00:00.000Z');

function setup() {
  const credit = writeTool('credit.submit', {
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    rules: [
      { name: 'huge', when: 'input.amount > 10000', deny: 'Use the finance system.' },
      { name: 'big', when: 'input.amount > 500', confirm: true },
      { name: 'daily', limit: { calls: 2, per: 'day', by: 'actor' } },
      { name: 'watch', when: 'input.amount > 100', deny: 'Would refuse.', mode: 'shadow' },
    ],
  });
  const pay = sendTool('payment.send', {
    rules: [{ name: 'two', when: 'input.text.contains("900")', approvals: 2, approverFlags: ['finance'] }],
  });
  const search = readTool('kb.search', { featureFlag: 'kb' });
  const registry = new ToolRegistry({ now: () => T0 })
    .register(credit.tool)
    .register(pay.tool)
    .register(search.tool);
  return { registry, credit, pay, search };
}

describe('registry.check', () => {
  it('allow: no rule stops the call; limits are listed with where they stand', async () => {
    const { registry, credit } = setup();
    const check = await registry.check('credit.submit', { amount: 50 }, { actor: 'ann' });
    expect(check).toEqual({
      outcome: 'allow',
      approvals: 1,
      approverFlags: [],
      limits: [
        {
          rule: 'daily',
          per: 'day',
          by: 'actor',
          count: 'asked',
          max: 2,
          used: 0,
          amount: 1,
          resetsAt: '2030-01-02T00:00:00.000Z',
          shadow: false,
        },
      ],
      rules: [],
    });
    expect(credit.calls).toEqual([]);
  });

  it('deny: the code, the reason the caller would read, and the rule', async () => {
    const { registry } = setup();
    const check = await registry.check('credit.submit', { amount: 20000 }, { actor: 'ann' });
    expect(check).toMatchObject({ outcome: 'deny', code: 'RULE_DENIED', rule: 'huge' });
    expect(check.reason).toContain('Use the finance system.');
    expect(check.rules).toEqual(
      expect.arrayContaining([
        { rule: 'huge', mode: 'enforce', decision: 'deny', reason: 'Use the finance system.' },
        { rule: 'watch', mode: 'shadow', decision: 'deny', reason: 'Would refuse.' },
      ]),
    );
  });

  it('confirm: a write a rule sends to a person, with the rule; shadow rules are reported', async () => {
    const { registry, credit } = setup();
    const check = await registry.check('credit.submit', { amount: 600 }, { actor: 'ann' });
    expect(check).toMatchObject({ outcome: 'confirm', rule: 'big', approvals: 1, approverFlags: [] });
    expect(check.rules).toEqual([
      { rule: 'big', mode: 'enforce', decision: 'confirm' },
      { rule: 'watch', mode: 'shadow', decision: 'deny', reason: 'Would refuse.' },
    ]);
    for (const caller of ['plan', 'autonomous'] as const)
      await expect(
        registry.check('credit.submit', { amount: 600 }, { actor: 'ann', caller }),
      ).resolves.toMatchObject({
        outcome: 'confirm',
        rule: 'big',
      });
    expect(credit.calls).toEqual([]);
  });

  it('confirm for a send, with the approvals and flags its rules ask', async () => {
    const { registry, pay } = setup();
    await expect(
      registry.check('payment.send', { text: 'Pay 900.' }, { actor: 'ann' }),
    ).resolves.toMatchObject({
      outcome: 'confirm',
      rule: 'two',
      approvals: 2,
      approverFlags: ['finance'],
    });
    await expect(
      registry.check('payment.send', { text: 'Pay 9.' }, { actor: 'ann', caller: 'autonomous' }),
    ).resolves.toMatchObject({ outcome: 'confirm', approvals: 1, approverFlags: [] });
    expect(pay.prepared).toEqual([]);
    expect(pay.delivered).toEqual([]);
  });

  it('limit: once the count is spent, without counting anything itself', async () => {
    const { registry, credit } = setup();
    for (let i = 0; i < 5; i++) await registry.check('credit.submit', { amount: 50 }, { actor: 'ann' });
    await expect(registry.check('credit.submit', { amount: 50 }, { actor: 'ann' })).resolves.toMatchObject({
      outcome: 'allow',
      limits: [{ rule: 'daily', used: 0 }],
    });
    await registry.invoke('credit.submit', { amount: 50 }, { actor: 'ann' });
    await registry.invoke('credit.submit', { amount: 50 }, { actor: 'ann' });
    expect(credit.calls).toHaveLength(2);
    const check = await registry.check('credit.submit', { amount: 50 }, { actor: 'ann' });
    expect(check).toMatchObject({
      outcome: 'limit',
      code: 'LIMIT_REACHED',
      rule: 'daily',
      limits: [{ rule: 'daily', used: 2, max: 2, resetsAt: '2030-01-02T00:00:00.000Z' }],
    });
    expect(check.reason).toContain('2030-01-02T00:00:00.000Z');
    await expect(registry.check('credit.submit', { amount: 50 }, { actor: 'bob' })).resolves.toMatchObject({
      outcome: 'allow',
    });
    expect(credit.calls).toHaveLength(2);
  });

  it('gates and input validation deny with their own code', async () => {
    const { registry, search } = setup();
    await expect(registry.check('kb.search', { query: 'q' })).resolves.toMatchObject({
      outcome: 'deny',
      code: 'FLAG_NOT_GRANTED',
    });
    await expect(registry.check('kb.search', { query: 'q' }, { flags: { kb: true } })).resolves.toMatchObject(
      {
        outcome: 'allow',
      },
    );
    await expect(registry.check('credit.submit', { amount: 'lots' })).resolves.toMatchObject({
      outcome: 'deny',
      code: 'INVALID_INPUT',
    });
    await expect(registry.check('nope.nothing', {})).resolves.toMatchObject({
      outcome: 'deny',
      code: 'UNKNOWN_TOOL',
    });
    await expect(registry.check('credit__submit', { amount: 1 }, { caller: 'model' })).resolves.toMatchObject(
      {
        outcome: 'deny',
        code: 'UNKNOWN_TOOL',
      },
    );
    expect(search.calls).toEqual([]);
  });

  it('for the model, a hidden tool with a deny rule is checked like a name that does not exist', async () => {
    const { tool } = readTool('kb.search', { featureFlag: 'kb', rules: [{ deny: 'Secret reason.' }] });
    const registry = new ToolRegistry().register(tool);
    const hidden = await registry.check('kb__search', { query: 'q' }, { caller: 'model' });
    const missing = await new ToolRegistry().check('kb__search', { query: 'q' }, { caller: 'model' });
    expect(hidden).toEqual(missing);
    expect(hidden).toMatchObject({ outcome: 'deny', code: 'UNKNOWN_TOOL' });
    await expect(
      registry.check('kb__search', { query: 'q' }, { caller: 'model', flags: { kb: true } }),
    ).resolves.toMatchObject({
      outcome: 'deny',
      code: 'RULE_DENIED',
      reason: expect.stringContaining('Secret reason.'),
    });
  });

  it('a rule that throws is checked as a deny', async () => {
    const { tool } = readTool('kb.search', {
      rules: [
        {
          name: 'broken',
          when: () => {
            throw new Error('down');
          },
          deny: 'x',
        },
      ],
    });
    const registry = new ToolRegistry().register(tool);
    const check = await registry.check('kb.search', { query: 'q' });
    expect(check).toMatchObject({ outcome: 'deny', code: 'RULE_DENIED', rule: 'broken' });
    expect(check.rules).toMatchObject([{ rule: 'broken', mode: 'enforce', decision: 'error' }]);
  });

  it('a plan or autonomous caller checking a send is not refused for being autonomous', async () => {
    const { registry } = setup();
    await expect(registry.check('payment.send', { text: 'x' }, { caller: 'plan' })).resolves.toMatchObject({
      outcome: 'confirm',
    });
  });

  it('runs no prepare for a send and no run for a confirmed write', async () => {
    const { registry, credit, pay } = setup();
    await registry.check('payment.send', { text: 'Pay 900.' }, { actor: 'ann' });
    await registry.check('credit.submit', { amount: 600 }, { actor: 'ann' });
    await registry.check('credit.submit', { amount: 6 }, { actor: 'ann' });
    expect(pay.prepared).toEqual([]);
    expect(credit.calls).toEqual([]);
    const pending = await registry.confirmations.list();
    expect(pending).toMatchObject({ ok: true, confirmations: [] });
  });
});

describe('registry.get(name).rules', () => {
  it('shows each rule as a reviewer reads it, functions as "(function)"', () => {
    const { registry } = setup();
    expect(registry.get('credit.submit')?.rules).toEqual([
      { name: 'huge', mode: 'enforce', when: 'input.amount > 10000', deny: 'Use the finance system.' },
      { name: 'big', mode: 'enforce', when: 'input.amount > 500', confirm: true },
      { name: 'daily', mode: 'enforce', limit: { calls: 2, per: 'day', by: 'actor' } },
      { name: 'watch', mode: 'shadow', when: 'input.amount > 100', deny: 'Would refuse.' },
    ]);
    expect(registry.get('payment.send')?.rules).toEqual([
      {
        name: 'two',
        mode: 'enforce',
        when: 'input.text.contains("900")',
        approvals: 2,
        approverFlags: ['finance'],
      },
    ]);
    const other = new ToolRegistry().register(
      writeTool('ticket.submit', {
        rules: [
          { when: () => true, deny: 'No.' },
          { limit: { sum: () => 1, max: 5, per: 'hour', by: 'global' } },
          { limit: { sum: 'size(input.summary)', max: 500, per: 'minute', by: 'scope' } },
        ],
      }).tool,
    );
    expect(other.get('ticket__submit')?.rules).toEqual([
      { name: '#1', mode: 'enforce', when: '(function)', deny: 'No.' },
      { name: '#2', mode: 'enforce', limit: { sum: '(function)', max: 5, per: 'hour', by: 'global' } },
      {
        name: '#3',
        mode: 'enforce',
        limit: { sum: 'size(input.summary)', max: 500, per: 'minute', by: 'scope' },
      },
    ]);
  });

  it('is absent for a tool without rules, and frozen', () => {
    const { registry } = setup();
    expect(registry.get('kb.search')?.rules).toBeUndefined();
    const rules = registry.get('credit.submit')?.rules;
    expect(Object.isFrozen(rules)).toBe(true);
    expect(Object.isFrozen(rules?.[0])).toBe(true);
  });

  it('is a snapshot: changing the definition after register changes nothing', async () => {
    const rules = [{ when: 'input.summary == "x"', deny: 'No x.' }];
    const { tool, calls } = writeTool('ticket.submit', { rules });
    const registry = new ToolRegistry().register(tool);
    rules[0] = { when: 'true', deny: 'Everything.' };
    rules.push({ when: 'true', deny: 'Everything.' });
    expect(registry.get('ticket.submit')?.rules).toHaveLength(1);
    await expect(registry.invoke('ticket.submit', { summary: 'y' })).resolves.toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
  });
});
