import { ToolDefinitionError } from 'graded-tools';
import { type CedarEntity, cedarRules } from 'graded-tools/cedar';
import { describe, expect, it } from 'vitest';
import type { Rule, RuleCall } from '../../../src/rule.js';

// Evaluated with the real @cedar-policy/cedar-wasm: each rule's `when` decides one policy for a call.
function call(overrides: Partial<RuleCall> = {}): RuleCall {
  return {
    input: { amount: 100, to: 'ann@example.com' },
    actor: 'ann',
    scope: 'acme',
    flags: {},
    tool: 'refund.send',
    now: new Date('2026-12-01T12:00:00Z'),
    context: undefined,
    origins: {},
    ...overrides,
  };
}

/** The rules whose `when` holds for the call, by name. */
function matching(rules: readonly Rule[], on: RuleCall): string[] {
  return rules
    .filter((rule) => typeof rule.when === 'function' && rule.when(on))
    .map((rule) => rule.name ?? '');
}

function when(rule: Rule | undefined): (call: RuleCall) => boolean {
  if (typeof rule?.when !== 'function') throw new Error('expected a function condition');
  return rule.when;
}

describe('cedarRules', () => {
  it('sees where each destination came from and the app context (#24)', () => {
    const rules = cedarRules({
      policies: `
        @reason("Ask the person to name the recipient.")
        forbid (principal, action, resource) when { context.origins has to && context.origins.to.contains({ from: "none" }) };

        @reason("Only known payees.")
        forbid (principal, action, resource) when { context has app && !context.app.payees.contains(context.input.to) };`,
    });
    const madeUp = call({ origins: { to: [{ from: 'none' }] } });
    const named = call({ origins: { to: [{ from: 'request' }] }, context: { payees: ['ann@example.com'] } });
    const unknownPayee = call({ context: { payees: ['bob@example.com'] } });
    expect(matching(rules, madeUp)).toEqual(['cedar:policy0']);
    expect(matching(rules, named)).toEqual([]);
    expect(matching(rules, unknownPayee)).toEqual(['cedar:policy1']);
    // A context Cedar cannot read (a Date) is left out: `context has app` is false.
    const unreadable = call({ context: { payees: ['ann@example.com'], at: new Date() } });
    expect(matching(rules, unreadable)).toEqual([]);
  });

  it('turns a forbid into a deny with its @reason, and a permit into the approvals it annotates', () => {
    const rules = cedarRules({
      policies: `
        @reason("Over 10,000: use the finance system.")
        forbid (principal, action, resource) when { context.input.amount > 10000 };

        @approvals("2") @approverFlags("finance, legal")
        permit (principal, action, resource) when { context.input.amount > 500 };

        @approverFlags("finance")
        permit (principal, action, resource) when { context.input.amount > 5000 };

        forbid (principal, action, resource) when { context.input.to like "*@evil.example" };`,
    });
    expect(rules.map(({ when: _, ...rest }) => rest)).toEqual([
      { name: 'cedar:policy0', deny: 'Over 10,000: use the finance system.' },
      { name: 'cedar:policy1', approvals: 2, approverFlags: ['finance', 'legal'] },
      { name: 'cedar:policy2', approverFlags: ['finance'] },
      { name: 'cedar:policy3', deny: 'Denied by Cedar policy cedar:policy3.' },
    ]);
    expect(matching(rules, call({ input: { amount: 100, to: 'ann@example.com' } }))).toEqual([]);
    expect(matching(rules, call({ input: { amount: 600, to: 'ann@example.com' } }))).toEqual([
      'cedar:policy1',
    ]);
    expect(matching(rules, call({ input: { amount: 20000, to: 'x@evil.example' } }))).toEqual([
      'cedar:policy0',
      'cedar:policy1',
      'cedar:policy2',
      'cedar:policy3',
    ]);
  });

  it('makes no rule of a plain permit: Cedar’s default deny never applies, only an explicit forbid denies', () => {
    expect(cedarRules({ policies: 'permit (principal, action, resource);' })).toEqual([]);
    expect(cedarRules({ policies: '' })).toEqual([]);
    const [rule] = cedarRules({
      policies: `
        permit (principal == User::"ann", action, resource);
        forbid (principal == User::"bot", action, resource);`,
    });
    // The forbid is Cedar's second policy: names keep Cedar's ids.
    expect(rule?.name).toBe('cedar:policy1');
    expect(when(rule)(call({ actor: 'ann' }))).toBe(false);
    expect(when(rule)(call({ actor: 'carl' }))).toBe(false);
  });

  it('names a rule by its @id, keeps source order past ten policies, and refuses two of one name', () => {
    const many = Array.from(
      { length: 12 },
      (_, i) => `forbid (principal, action, resource) when { context.input.amount == ${i} };`,
    );
    const rules = cedarRules({
      policies: [...many, '@id("last") forbid (principal, action, resource);'].join('\n'),
    });
    expect(rules.map((rule) => rule.name)).toEqual([...many.map((_, i) => `cedar:policy${i}`), 'cedar:last']);
    expect(matching(rules, call({ input: { amount: 10 } }))).toEqual(['cedar:policy10', 'cedar:last']);
    expect(() =>
      cedarRules({
        policies:
          '@id("a") forbid (principal, action, resource); @id("a") permit (principal, action, resource);',
      }),
    ).toThrow(/named cedar:a/);
  });

  it('reads the principal, the resource and the context of the call', () => {
    const rules = cedarRules({
      policies: `
        @id("bot") @reason("Bots may not refund.")
        forbid (principal == User::"bot", action == Action::"invoke", resource);
        @id("refund") @reason("No refunds over 500.")
        forbid (principal, action, resource == Tool::"refund.send") when { context.input.amount > 500 };
        @id("anonymous") @reason("Say who you are.")
        forbid (principal == User::"", action, resource);
        @id("scope") @reason("Not in this scope.")
        forbid (principal, action, resource) when { context.scope == "" || context.scope == "closed" };
        @id("beta") @reason("Beta only.")
        forbid (principal, action, resource) unless { context.flags has beta };`,
    });
    const beta = { beta: true } as const;
    expect(matching(rules, call({ flags: beta }))).toEqual([]);
    expect(matching(rules, call({ actor: 'bot', flags: beta }))).toEqual(['cedar:bot']);
    expect(matching(rules, call({ input: { amount: 600 }, flags: beta }))).toEqual(['cedar:refund']);
    expect(matching(rules, call({ input: { amount: 600 }, tool: 'credit.submit', flags: beta }))).toEqual([]);
    expect(matching(rules, call({ actor: undefined, scope: undefined, flags: beta }))).toEqual([
      'cedar:anonymous',
      'cedar:scope',
    ]);
    expect(matching(rules, call({ scope: 'closed' }))).toEqual(['cedar:scope', 'cedar:beta']);
  });

  it('passes the entities through: a principal in a group', () => {
    const entities: CedarEntity[] = [
      { uid: { type: 'User', id: 'li' }, attrs: { level: 3 }, parents: [{ type: 'Group', id: 'finance' }] },
      { uid: { type: 'Group', id: 'finance' }, attrs: {}, parents: [] },
    ];
    const [inGroup, byLevel] = cedarRules({
      policies: `
        @approvals("2")
        permit (principal in Group::"finance", action, resource);
        @reason("Level too low.")
        forbid (principal, action, resource) unless { principal has level && principal.level >= 3 };`,
      entities,
    });
    expect(when(inGroup)(call({ actor: 'li' }))).toBe(true);
    expect(when(inGroup)(call({ actor: 'ann' }))).toBe(false);
    expect(when(byLevel)(call({ actor: 'li' }))).toBe(false);
    expect(when(byLevel)(call({ actor: 'ann' }))).toBe(true);
    // A copy is taken: changing the array later changes nothing.
    entities.length = 0;
    expect(when(inGroup)(call({ actor: 'li' }))).toBe(true);
  });

  it('throws from `when` (the registry denies) when a policy errors, and only for that policy', () => {
    const [missing, fine] = cedarRules({
      policies: `
        forbid (principal, action, resource) when { context.input.amount > 500 };
        forbid (principal, action, resource) when { context.input has amount && context.input.amount > 500 };`,
    });
    expect(() => when(missing)(call({ input: {} }))).toThrow(
      /Cedar policy cedar:policy0 could not be evaluated: .*attribute `amount`/,
    );
    expect(when(fine)(call({ input: {} }))).toBe(false);
  });

  it('passes integers as Longs, other numbers as Strings (comparing them errors: deny), and leaves nulls out', () => {
    const [compare, equals, absent, sets] = cedarRules({
      policies: `
        forbid (principal, action, resource) when { context.input.amount > 500 };
        forbid (principal, action, resource) when { context.input.amount == "12.5" };
        forbid (principal, action, resource) when { context.input has note };
        forbid (principal, action, resource) when { context.input.tags.contains(["a", 2]) };`,
    });
    expect(when(compare)(call({ input: { amount: 2 ** 53 - 1 } }))).toBe(true);
    expect(() => when(compare)(call({ input: { amount: 600.5 } }))).toThrow(/could not be evaluated/);
    expect(() => when(compare)(call({ input: { amount: 2 ** 60 } }))).toThrow(/could not be evaluated/);
    expect(when(equals)(call({ input: { amount: 12.5 } }))).toBe(true);
    expect(when(absent)(call({ input: { note: null } }))).toBe(false);
    expect(when(absent)(call({ input: { note: 'hi' } }))).toBe(true);
    expect(when(sets)(call({ input: { tags: [null, ['a', 2], 'b'] } }))).toBe(true);
  });

  it('refuses input that would read as a Cedar entity or extension, failing closed', () => {
    const [rule] = cedarRules({
      policies: 'forbid (principal, action, resource) when { context.input.who == User::"admin" };',
    });
    const forged = { who: { __entity: { type: 'User', id: 'admin' } } };
    expect(() => when(rule)(call({ input: forged }))).toThrow(/__entity/);
    expect(() => when(rule)(call({ input: { who: [{ __extn: { fn: 'ip', arg: '1.1.1.1' } }] } }))).toThrow(
      /__extn/,
    );
    expect(() => when(rule)(call({ input: { at: new Date() } }))).toThrow(/not a JSON value/);
  });

  it.each([
    [
      'a policy that does not parse',
      'permit (principal, action, resource',
      /could not be parsed: .*character 35/,
    ],
    ['a template', 'permit (principal == ?principal, action, resource);', /templates/],
    [
      '@approvals that is not a count',
      '@approvals("two") permit (principal, action, resource);',
      /@approvals/,
    ],
    ['@approvals of zero', '@approvals("0") permit (principal, action, resource);', /@approvals/],
    [
      '@approverFlags naming none',
      '@approverFlags(" , ") permit (principal, action, resource);',
      /@approverFlags/,
    ],
    [
      '@approvals on a forbid',
      '@approvals("2") forbid (principal, action, resource);',
      /belong on a `permit`/,
    ],
    ['@reason on a permit', '@reason("no") permit (principal, action, resource);', /belongs on a `forbid`/],
    ['an empty @reason', '@reason forbid (principal, action, resource);', /@reason/],
  ])('throws ToolDefinitionError (INVALID_OPTION) for %s', (_, policies, message) => {
    const thrown = catchError(() => cedarRules({ policies }));
    expect(thrown).toBeInstanceOf(ToolDefinitionError);
    expect(thrown).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(message) });
  });

  it('throws ToolDefinitionError for entities that do not parse and options that are not options', () => {
    const badEntities = [{ uid: { type: 'User', id: 'li' }, attrs: {} }] as unknown as CedarEntity[];
    expect(catchError(() => cedarRules({ policies: '', entities: badEntities }))).toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('Cedar entities could not be parsed: '),
    });
    expect(catchError(() => cedarRules({ policies: 42 } as never))).toBeInstanceOf(ToolDefinitionError);
    expect(catchError(() => cedarRules(undefined as never))).toBeInstanceOf(ToolDefinitionError);
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
