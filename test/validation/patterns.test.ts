import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findUnsupportedPattern, linearRegExp, nativeWhenLinear } from '../../src/validation/patterns.js';

function toolWith(inputSchema: Record<string, unknown>) {
  return {
    name: 'kb.find',
    description: 'Find.',
    sideEffect: 'read' as const,
    inputSchema: { type: 'object', ...inputSchema },
    run: () => 'found',
  };
}

// No wall-clock windows here: each input below would keep a backtracking engine busy for hours (2^48
// paths, or 500,000² steps), so an answer at all, within the test's timeout, is what shows the check is
// linear; the outcome is asserted too.
describe('patterns run in linear time', () => {
  const evil = `${'a'.repeat(48)}!`;

  it('checks `pattern: ^(a+)+$` against a ReDoS input in milliseconds', async () => {
    const registry = new ToolRegistry().register(
      toolWith({ properties: { q: { type: 'string', pattern: '^(a+)+$' } } }),
    );
    const result = await registry.invokeReadOnly('kb__find', JSON.stringify({ q: evil }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    const long = await registry.invokeReadOnly('kb__find', JSON.stringify({ q: `${'a'.repeat(100_000)}!` }));
    expect(long).toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      registry.invokeReadOnly('kb__find', JSON.stringify({ q: 'a'.repeat(100_000) })),
    ).resolves.toMatchObject({ ok: true });
    await expect(registry.invokeReadOnly('kb__find', '{"q":"aaaa"}')).resolves.toMatchObject({ ok: true });
  });

  it('checks patternProperties keys in linear time too', async () => {
    const registry = new ToolRegistry().register(
      toolWith({ patternProperties: { '^(a+)+$': { type: 'integer' } }, additionalProperties: false }),
    );
    const result = await registry.invokeReadOnly('kb__find', JSON.stringify({ [evil]: 1 }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    await expect(registry.invokeReadOnly('kb__find', '{"aa":1}')).resolves.toMatchObject({ ok: true });
    await expect(registry.invokeReadOnly('kb__find', '{"aa":"x"}')).resolves.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('keeps ECMAScript meaning for `.`, `\\s`, `\\u` escapes, classes and named groups', async () => {
    const registry = new ToolRegistry().register(
      toolWith({
        properties: {
          line: { type: 'string', pattern: '^.+$' },
          space: { type: 'string', pattern: '^\\s+$' },
          nonSpace: { type: 'string', pattern: '^\\S+$' },
          code: { type: 'string', pattern: '^(?<area>[A-Z]{2})-\\d{3}[\\s\\u00e9]?$' },
          word: { type: 'string', pattern: 'dup' },
        },
      }),
    );
    const ok = (input: Record<string, string>) =>
      registry.invoke('kb.find', input).then((result) => result.ok);
    expect(await ok({ line: 'one line' })).toBe(true);
    for (const breaker of ['\n', '\r', '\u2028', '\u2029'])
      expect(await ok({ line: `a${breaker}b` })).toBe(false);
    expect(await ok({ space: ' \t\u00a0\u2003\ufeff\v' })).toBe(true);
    expect(await ok({ nonSpace: 'a\u00a0b' })).toBe(false);
    expect(await ok({ nonSpace: 'ab' })).toBe(true);
    expect(await ok({ code: 'AB-123' })).toBe(true);
    expect(await ok({ code: 'AB-123é' })).toBe(true);
    expect(await ok({ code: 'AB-123\u3000' })).toBe(true);
    expect(await ok({ code: 'ab-123' })).toBe(false);
    expect(await ok({ word: 'a duplicate' })).toBe(true);
    expect(await ok({ word: 'unique' })).toBe(false);
  });
});

describe('patterns the linear engine cannot run are refused at register', () => {
  it.each([
    ['a backreference', { properties: { q: { type: 'string', pattern: '(a)\\1' } } }, '(a)\\1'],
    ['a lookahead', { properties: { q: { type: 'string', pattern: '^(?!admin)' } } }, '^(?!admin)'],
    ['a lookbehind', { properties: { q: { items: { pattern: '(?<=a)b' } } } }, '(?<=a)b'],
    ['a nested one', { $defs: { x: { anyOf: [{ pattern: 'x(?=y)' }] } } }, 'x(?=y)'],
    ['a patternProperties key', { patternProperties: { '^(?=x)': {} } }, '^(?=x)'],
    ['an invalid one', { properties: { q: { pattern: '(' } } }, '('],
  ])('refuses %s with UNSUPPORTED_PATTERN, before any call', (_label, schema, pattern) => {
    let thrown: unknown;
    try {
      new ToolRegistry().register(toolWith(schema));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolDefinitionError);
    expect(thrown).toMatchObject({ code: 'UNSUPPORTED_PATTERN', toolName: 'kb.find' });
    expect((thrown as Error).message).toContain(JSON.stringify(pattern));
    expect((thrown as Error).message).toContain(
      pattern === '(' ? 'not a valid regular expression' : 'linear',
    );
  });

  it('does not mistake data for patterns: enum, const, default, examples or a property named pattern', () => {
    expect(() =>
      new ToolRegistry().register(
        toolWith({
          properties: {
            pattern: { type: 'string', enum: ['(?=x)'], default: '(a)\\1' },
            rule: { const: { pattern: '(?=x)' }, examples: [{ pattern: '(?!y)' }] },
          },
          required: ['pattern'],
        }),
      ),
    ).not.toThrow();
  });

  it('leaves a Standard Schema’s own patterns to its library, which runs them', async () => {
    const registry = new ToolRegistry().register({
      ...toolWith({}),
      inputSchema: z.object({ q: z.string().regex(/^(?!admin)\w+$/) }),
    });
    await expect(registry.invoke('kb.find', { q: 'alice' })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('kb.find', { q: 'admin' })).resolves.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('the native fast path for patterns V8 also runs in linear time', () => {
  const fast = [
    '^[\\w ,.-]{1,200}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^[^@\\s]+@[^@\\s]+$',
    '^.+$',
    '^\\S*\\s\\S*$',
    '^\\(\\d+\\)$',
  ];
  const slow = [
    '^\\S*\\s?x$',
    '^(a|a)*$',
    '^(a+)+$',
    '^a*a*$',
    'dup',
    '^\\p{L}+$',
    '^[^]+$',
    '^(?:[a-z]+)$',
    '^\\d*\\d+$',
  ];
  const inputs = [
    '',
    'a',
    'aaaa!',
    'refund, 2 items.',
    '2026-12-01',
    'x@y.z',
    'a b',
    'a\rb',
    'é\u00a0x',
    '(12)',
    'dupe',
    'ab\n',
    '\ud800x',
    '😀 x',
  ];

  it('is taken only for anchored, group-free, one-pass patterns', () => {
    for (const pattern of fast) expect(linearRegExp(pattern, 'u'), pattern).toBeInstanceOf(RegExp);
    for (const pattern of slow) expect(linearRegExp(pattern, 'u'), pattern).not.toBeInstanceOf(RegExp);
  });

  it('stays linear on the fast path, against long inputs made to backtrack', () => {
    const long = 'a'.repeat(500_000);
    for (const [pattern, input] of [
      ['^[^@\\s]+@[^@\\s]+$', long],
      ['^[^@\\s]+@[^@\\s]+$', `${long}@${long} `],
      ['^[\\w ,.-]{1,200}$', `${long}!`],
      ['^.+$', `${long}\n`],
    ] as const) {
      expect(linearRegExp(pattern, 'u').test(input), pattern).toBe(false);
    }
  });

  it('answers as RE2 does, and both as ECMAScript does, for every pattern and input', () => {
    for (const pattern of [...fast, ...slow]) {
      const reference = new RegExp(pattern, 'u');
      const withFastPath = linearRegExp(pattern, 'u');
      nativeWhenLinear.enabled = false;
      try {
        const re2Only = linearRegExp(pattern, 'u');
        for (const input of inputs) {
          const expected = reference.test(input);
          expect(withFastPath.test(input), `${pattern} on ${JSON.stringify(input)}`).toBe(expected);
          expect(re2Only.test(input), `RE2: ${pattern} on ${JSON.stringify(input)}`).toBe(expected);
        }
      } finally {
        nativeWhenLinear.enabled = true;
      }
    }
  });
});

describe('the register-time pattern check', () => {
  it('visits a shared or cyclic sub-schema once', () => {
    // Count the reads of the shared node instead of timing them: once visited, it is never read again.
    let reads = 0;
    const target: Record<string, unknown> = { type: 'object', properties: {} };
    const node = new Proxy(target, {
      get(object, key, receiver) {
        reads += 1;
        return Reflect.get(object, key, receiver);
      },
    });
    const properties = target.properties as Record<string, unknown>;
    for (let i = 0; i < 30; i += 1) properties[`p${i}`] = node;
    expect(findUnsupportedPattern({ type: 'object', properties: { tree: node } })).toBeUndefined();
    const readsForOneVisit = reads;
    expect(readsForOneVisit).toBeGreaterThan(0);
    // A walk that revisited it would read it 31 times per level, without end through the cycle.
    expect(readsForOneVisit).toBeLessThan(31);
    properties.bad = { pattern: '(?=x)' };
    reads = 0;
    expect(findUnsupportedPattern({ type: 'object', properties: { tree: node } })).toContain('"(?=x)"');
    expect(reads).toBeLessThanOrEqual(readsForOneVisit);
  });
});
