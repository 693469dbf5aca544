import {
  createMemoryStore,
  type Rule,
  type ToolDefinition,
  ToolDefinitionError,
  ToolRegistry,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../../helpers/tools.js';

// Register-time checks of a tool's `rules`: a bad rule is a programmer's mistake, thrown at once, naming it.
const byGrade = {
  read: (rules: readonly unknown[]) => readTool('kb.search', { rules: rules as Rule[] }).tool,
  write: (rules: readonly unknown[]) => writeTool('ticket.submit', { rules: rules as Rule[] }).tool,
  send: (rules: readonly unknown[]) => sendTool('message.send', { rules: rules as Rule[] }).tool,
};

function registerError(definition: ToolDefinition, registry = new ToolRegistry()): ToolDefinitionError {
  try {
    registry.register(definition);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('register accepted the tool');
}

function expectInvalidRule(definition: ToolDefinition, ...parts: (string | RegExp)[]) {
  const error = registerError(definition);
  expect(error.code).toBe('INVALID_RULE');
  for (const part of parts) expect(error.message).toMatch(part);
  return error;
}

describe('compiling rules at register', () => {
  it('accepts well-formed rules of every kind and registers the tool', () => {
    const registry = new ToolRegistry()
      .register(
        byGrade.read([
          { when: 'input.query == "secret"', deny: 'Not that one.' },
          { when: (call: { actor?: string }) => call.actor === 'bot', deny: 'No bots.' },
          { limit: { calls: 5, per: 'minute', by: 'actor' } },
          { when: 'size(input.query) > 3', deny: 'Too long.', mode: 'shadow' },
        ]),
      )
      .register(
        byGrade.write([
          { when: 'input.summary.startsWith("refund")', confirm: true },
          { name: 'big', limit: { sum: 'size(input.summary)', max: 100, per: 'day', by: 'scope' } },
          { approvals: 2, approverFlags: ['finance'] },
        ]),
      )
      .register(
        byGrade.send([{ approvals: 3 }, { approverFlags: ['legal'] }, { when: 'actor == ""', deny: 'Who?' }]),
      );
    expect(registry.size).toBe(3);
  });

  it('refuses a `when` that does not parse, naming the rule by position', () => {
    expectInvalidRule(
      byGrade.read([{ deny: 'x' }, { when: 'input.amount >', deny: 'Broken.' }]),
      'rule #2',
      /parse/,
    );
  });

  it('names the rule by its name when it has one', () => {
    expectInvalidRule(byGrade.read([{ name: 'broken', when: '((', deny: 'Broken.' }]), 'rule "broken"');
  });

  it('refuses a `when` that does not type-check', () => {
    expectInvalidRule(byGrade.read([{ when: 'actor + 1', deny: 'x' }]), 'rule #1', /type-check/);
    expectInvalidRule(byGrade.read([{ when: 'nobody == "x"', deny: 'x' }]), 'rule #1');
  });

  it('refuses a `when` that gives something other than a bool; a dyn is allowed', () => {
    expectInvalidRule(byGrade.read([{ when: '1 + 2', deny: 'x' }]), 'rule #1', /int/);
    expectInvalidRule(byGrade.read([{ when: 'actor', deny: 'x' }]), 'rule #1', /string/);
    expect(() =>
      new ToolRegistry().register(byGrade.read([{ when: 'input.amount', deny: 'x' }])),
    ).not.toThrow();
  });

  it('refuses `matches` (a backtracking regex), as a function or a method', () => {
    expectInvalidRule(byGrade.read([{ when: 'actor.matches("^(a+)+$")', deny: 'x' }]), /matches/);
    expectInvalidRule(byGrade.read([{ when: 'matches(actor, "a")', deny: 'x' }]), /matches/);
    expectInvalidRule(
      byGrade.write([{ limit: { sum: 'actor.matches("a") ? 1 : 0', max: 5, per: 'day', by: 'actor' } }]),
      /matches/,
    );
  });

  it('refuses an empty or non-string CEL `when`', () => {
    expectInvalidRule(byGrade.read([{ when: '', deny: 'x' }]), 'rule #1');
    expectInvalidRule(byGrade.read([{ when: 42, deny: 'x' }]), 'rule #1');
  });

  it('refuses `confirm` on a read or a send tool, and anything but `confirm: true`', () => {
    expectInvalidRule(byGrade.read([{ confirm: true }]), 'rule #1', /write/);
    expectInvalidRule(byGrade.send([{ confirm: true }]), 'rule #1', /write/);
    expectInvalidRule(byGrade.write([{ confirm: false }]), 'rule #1');
  });

  it('refuses `approvals` and `approverFlags` on a read tool', () => {
    expectInvalidRule(byGrade.read([{ approvals: 2 }]), 'rule #1', /send and write/);
    expectInvalidRule(byGrade.read([{ approverFlags: ['finance'] }]), 'rule #1');
  });

  it('refuses approvals that are not a whole number from 1 to 20, and bad approverFlags', () => {
    for (const approvals of [0, -1, 1.5, 21, '2'])
      expectInvalidRule(byGrade.send([{ approvals }]), 'rule #1', /approvals/);
    for (const approverFlags of ['finance', [''], [1]])
      expectInvalidRule(byGrade.send([{ approverFlags }]), 'rule #1', /approverFlags/);
  });

  it('refuses a rule with two effects, or none', () => {
    expectInvalidRule(byGrade.write([{ deny: 'x', confirm: true }]), 'rule #1', /exactly one/);
    expectInvalidRule(
      byGrade.write([{ deny: 'x', limit: { calls: 1, per: 'day', by: 'actor' } }]),
      /exactly one/,
    );
    expectInvalidRule(byGrade.send([{ deny: 'x', approvals: 2 }]), /exactly one/);
    expectInvalidRule(byGrade.read([{ when: 'true' }]), /exactly one/);
  });

  it('refuses limits of the wrong shape', () => {
    const bad: unknown[] = [
      'daily',
      { calls: 5, per: 'week', by: 'actor' },
      { calls: 5, per: 'day' },
      { calls: 5, per: 'day', by: 'tenant' },
      { calls: 0, per: 'day', by: 'actor' },
      { calls: 1.5, per: 'day', by: 'actor' },
      { calls: 5, max: 5, per: 'day', by: 'actor' },
      { sum: 'size(input.query)', per: 'day', by: 'actor' },
      { sum: 'size(input.query)', max: 0, per: 'day', by: 'actor' },
      { sum: 'size(input.query)', max: Number.POSITIVE_INFINITY, per: 'day', by: 'actor' },
      { sum: 'actor', max: 5, per: 'day', by: 'actor' },
      { sum: 'input.query >', max: 5, per: 'day', by: 'actor' },
    ];
    for (const limit of bad) expectInvalidRule(byGrade.read([{ limit }]), 'rule #1', /limit/);
  });

  it('accepts a sum that is a function, and a sum of dyn or double', () => {
    const registry = new ToolRegistry().register(
      byGrade.write([
        { name: 'f', limit: { sum: () => 1, max: 5, per: 'hour', by: 'tool' } },
        { name: 'dyn', limit: { sum: 'input.amount', max: 5, per: 'hour', by: 'global' } },
        { name: 'double', limit: { sum: '1.5', max: 5, per: 'hour', by: 'global' } },
      ]),
    );
    expect(registry.has('ticket.submit')).toBe(true);
  });

  it('refuses bad names, modes, deny reasons, duplicate names and a non-array', () => {
    expectInvalidRule(byGrade.read([{ name: '', deny: 'x' }]), /`name`/);
    expectInvalidRule(byGrade.read([{ deny: 'x', mode: 'audit' }]), 'rule #1', /mode/);
    expectInvalidRule(byGrade.read([{ deny: '' }]), 'rule #1', /deny/);
    expectInvalidRule(byGrade.read([{ deny: 'two\nlines' }]), 'rule #1', /deny/);
    expectInvalidRule(
      byGrade.read([
        { name: 'a', deny: 'x' },
        { name: 'a', deny: 'y' },
      ]),
      /two rules are named "a"/,
    );
    expectInvalidRule(byGrade.read([{ name: '#2', deny: 'x' }, { deny: 'y' }]), /"#2"/);
    expectInvalidRule(readTool('kb.search', { rules: 'deny' as unknown as Rule[] }).tool, /rules/);
    expectInvalidRule(byGrade.read(['deny everything']), 'rule #1', /object/);
  });

  it('names the tool in the message', () => {
    expectInvalidRule(byGrade.read([{ when: '1 + 2', deny: 'x' }]), 'kb.search');
  });

  it('refuses a limit on a registry whose store keeps no limits', () => {
    const { spendLimit: _spend, refundLimit: _refund, peekLimit: _peek, ...store } = createMemoryStore();
    const registry = new ToolRegistry({ confirmations: store });
    const error = registerError(byGrade.read([{ limit: { calls: 1, per: 'day', by: 'actor' } }]), registry);
    expect(error.code).toBe('INVALID_RULE');
    expect(error.message).toMatch(/spendLimit/);
    // Rules without a limit are fine on that store.
    expect(() => registry.register(byGrade.read([{ deny: 'x' }]))).not.toThrow();
  });

  it('leaves nothing registered when a rule is refused', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(byGrade.read([{ when: '1 + 2', deny: 'x' }]))).toThrow(
      ToolDefinitionError,
    );
    expect(registry.has('kb.search')).toBe(false);
  });
});
