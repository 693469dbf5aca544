import { type ASTNode, Environment } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCel } from '../../../src/policy/rules/cel.js';
import { compileClosures } from '../../../src/policy/rules/cel-closures.js';
import { ruleCall } from '../../../src/policy/rules/rule-call.js';

// The fast path of rules' CEL (closures) against cel-js itself: wherever the closures answer, they
// answer what cel-js answers; wherever they do not, the rule's answer is cel-js's own.
const environment = new Environment()
  .registerVariable('input', 'map')
  .registerVariable('actor', 'string')
  .registerVariable('scope', 'string')
  .registerVariable('flags', 'map')
  .registerVariable('tool', 'string');

const fields = ['amount', 'to', 'n', 'ok', 'tags', 'meta', 'missing'];
const scalar = fc.oneof(
  fc.integer({ min: -3, max: 600 }),
  fc.double({ min: -10, max: 600, noNaN: true }),
  fc.constantFrom('', 'a', 'ab', 'b', 'x@example.com', 'x@evil.test', 'ä', '😀', '500'),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('k', 'to'), scalar),
);
const inputs = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 5 });

const literal = fc.oneof(
  fc.integer({ min: -3, max: 600 }).map(String),
  fc.constantFrom('500.5', '0.0', '"a"', '"b"', '"@example.com"', '""', 'true', 'false', 'null', '"ä"'),
);
const operand = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...fields).map((f) => `input.${f}`) },
  { weight: 1, arbitrary: fc.constantFrom('actor', 'scope', 'tool', 'input.meta.k', 'input["to"]') },
  { weight: 2, arbitrary: literal },
);
const comparison = fc
  .tuple(operand, fc.constantFrom('==', '!=', '<', '<=', '>', '>='), operand)
  .map(([a, op, b]) => `${a} ${op} ${b}`);
const call = fc
  .tuple(operand, fc.constantFrom('startsWith', 'endsWith', 'contains'), operand)
  .map(([a, m, b]) => `${a}.${m}(${b})`);
const membership = fc
  .tuple(fc.constantFrom('"k"', '"beta"', 'input.to'), fc.constantFrom('flags', 'input.meta', 'input'))
  .map(([k, m]) => `${k} in ${m}`);
const atom = fc.oneof(comparison, call, membership, operand);
const expression: fc.Arbitrary<string> = fc.letrec((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc
      .tuple(tie('expr'), fc.constantFrom('&&', '||'), tie('expr'))
      .map(([a, op, b]) => `(${a}) ${op} (${b})`),
    tie('expr').map((e) => `!(${e})`),
  ),
})).expr as fc.Arbitrary<string>;

const context = (input: Record<string, unknown>, flags: Record<string, true>) =>
  ruleCall(
    { input, actor: 'ana', scope: 'desk', flags, tool: 'refund.send', context: undefined, origins: {} },
    0,
  );

function celAnswer(source: string, facts: ReturnType<typeof context>): { value: unknown } | { threw: true } {
  try {
    const value = environment.parse(source)({
      input: facts.input,
      actor: facts.actor,
      scope: facts.scope,
      flags: facts.flags,
      tool: facts.tool,
    });
    return { value: typeof value === 'bigint' ? Number(value) : value };
  } catch {
    return { threw: true };
  }
}

describe('CEL closures (the fast path) against cel-js', () => {
  it('answer exactly what cel-js answers wherever they answer, over random expressions and inputs', () => {
    let answered = 0;
    let asked = 0;
    fc.assert(
      fc.property(expression, inputs, fc.boolean(), (source, input, beta) => {
        let ast: ASTNode;
        try {
          const parsed = environment.parse(source);
          // Register refuses what does not parse or type-check before any closure is made.
          if (!parsed.check().valid) return;
          ast = parsed.ast;
        } catch {
          return;
        }
        const fast = compileClosures(ast);
        if (fast === undefined) return;
        const facts = context(input, beta ? Object.assign(Object.create(null), { beta: true }) : {});
        asked += 1;
        let mine: unknown;
        try {
          mine = fast(facts);
        } catch {
          return; // not answered here: cel-js answers it (the rule's program falls back)
        }
        answered += 1;
        expect(celAnswer(source, facts)).toEqual({ value: mine });
      }),
      { numRuns: 3_000 },
    );
    // Random inputs often lack the fields asked for (cel-js answers those with an error); enough are
    // answered here for the comparison to mean something. Real rules are answered below.
    expect(asked).toBeGreaterThan(1_000);
    expect(answered / asked).toBeGreaterThan(0.1);
  });

  it('the compiled rule program answers as cel-js does with the fast path on and off, errors included', () => {
    fc.assert(
      fc.property(expression, inputs, (source, input) => {
        const on = compileCel(source, ['bool'], { closures: true });
        const off = compileCel(source, ['bool'], { closures: false });
        if ('problem' in on || 'problem' in off) {
          expect('problem' in on && 'problem' in off).toBe(true);
          return;
        }
        const facts = context(input, {});
        const answer = (run: (c: typeof facts) => unknown) => {
          try {
            return { value: run(facts) };
          } catch {
            return { threw: true };
          }
        };
        expect(answer(on.run)).toEqual(answer(off.run));
      }),
      { numRuns: 1_000 },
    );
  });

  it('leaves to cel-js what it does not compile: now, size, arithmetic, list literals', () => {
    for (const source of [
      'now > now',
      'size(input.to) > 1',
      'input.n + 1 > 2',
      'input.tags == [1]',
      '-input.n < 0',
    ])
      expect(compileClosures(environment.parse(source).ast)).toBeUndefined();
    expect(
      compileClosures(environment.parse('input.amount > 500 && !input.to.endsWith("@x.com")').ast),
    ).toBeTypeOf('function');
  });
});
