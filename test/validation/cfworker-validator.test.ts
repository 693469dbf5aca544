import { createCfworkerValidator, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool } from '../helpers/tools.js';

/** A read tool on a registry that validates with cfworker, whatever the default. */
function cfworkerRegistry(inputSchema: Record<string, unknown>) {
  return new ToolRegistry({ validator: createCfworkerValidator() }).register({
    ...readTool().tool,
    inputSchema,
  });
}

// V8 backtracks on this for 2^n steps on n a's and a '!' (seconds for 30); RE2 answers in one pass.
const BACKTRACKING = '^(a+)+$';
const HOSTILE = `${'a'.repeat(30)}!`;

describe('createCfworkerValidator', () => {
  it('compiles only after load(), saying so before', async () => {
    const validator = createCfworkerValidator();
    const schema = { type: 'object', required: ['query'] };
    await validator.load?.();
    const check = validator.compile(schema);
    expect(check({ query: 'x' })).toEqual({ valid: true });
    expect(check({})).toMatchObject({ valid: false, issues: [{ path: '' }] });
  });

  it('runs every pattern on the linear engine, nested anywhere a schema can be', async () => {
    const hostile = { type: 'string', pattern: BACKTRACKING };
    const registry = cfworkerRegistry({
      type: 'object',
      $defs: { word: hostile },
      properties: {
        direct: hostile,
        viaRef: { $ref: '#/$defs/word' },
        inArray: { type: 'array', items: hostile },
        inAnyOf: { anyOf: [{ type: 'number' }, hostile] },
        inNot: { not: hostile },
      },
    });
    const started = performance.now();
    for (const key of ['direct', 'viaRef', 'inAnyOf']) {
      const result = await registry.invoke('kb.search', { [key]: HOSTILE });
      expect(result.ok ? 'ran' : result.code, key).toBe('INVALID_INPUT');
      expect((await registry.invoke('kb.search', { [key]: 'aaa' })).ok, key).toBe(true);
    }
    const inArray = await registry.invoke('kb.search', { inArray: ['aa', HOSTILE] });
    expect(inArray.ok ? [] : inArray.issues).toEqual([
      { path: '/inArray/1', message: `must match pattern "${BACKTRACKING}"` },
    ]);
    expect((await registry.invoke('kb.search', { inNot: HOSTILE })).ok).toBe(true);
    expect((await registry.invoke('kb.search', { inNot: 'aa' })).ok).toBe(false);
    // Each hostile input would take V8 seconds; all of them together take RE2 well under one.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps a schema’s own format and allOf beside a rewritten pattern', async () => {
    const registry = cfworkerRegistry({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', pattern: '@example\\.com$', allOf: [{ minLength: 16 }] },
      },
    });
    const issues = async (email: string) => {
      const result = await registry.invoke('kb.search', { email });
      return result.ok ? [] : (result.issues ?? []).map((issue) => issue.message);
    };
    expect(await issues('anna@example.com')).toEqual([]);
    expect(await issues('anna@example.org')).toEqual(['must match pattern "@example\\.com$"']);
    expect(await issues('a@example.com')).toEqual(['String is too short (13 < 16).']);
    expect(await issues('not an email@example.com')).toEqual(['must match format "email"']);
  });

  it('leaves a property named pattern, and text in enum or const, as they are', async () => {
    const registry = cfworkerRegistry({
      type: 'object',
      properties: {
        pattern: { type: 'string', enum: ['(a+)+'] },
        kind: { const: { pattern: 'x' } },
      },
    });
    expect((await registry.invoke('kb.search', { pattern: '(a+)+', kind: { pattern: 'x' } })).ok).toBe(true);
    expect((await registry.invoke('kb.search', { pattern: 'aaa' })).ok).toBe(false);
  });

  it('refuses at register a patternProperties key V8 could backtrack on, in the input or the payload schema', () => {
    const refusal = (register: () => unknown) => {
      try {
        register();
      } catch (error) {
        return error instanceof ToolDefinitionError ? error.code : 'another error';
      }
      return 'registered';
    };
    expect(
      refusal(() =>
        cfworkerRegistry({ type: 'object', patternProperties: { '^(a|b)*$': { type: 'string' } } }),
      ),
    ).toBe('UNSUPPORTED_SCHEMA');
    const send = sendTool('mail.send', {
      payloadSchema: { type: 'object', patternProperties: { 'x(y+)+': { type: 'string' } } },
    }).tool;
    expect(refusal(() => new ToolRegistry({ validator: createCfworkerValidator() }).register(send))).toBe(
      'UNSUPPORTED_SCHEMA',
    );
    // The default (Ajv) runs every key on the linear engine, so it takes both.
    expect(refusal(() => new ToolRegistry().register(send))).toBe('registered');
  });

  it('runs a patternProperties key that is linear in V8 itself', async () => {
    const registry = cfworkerRegistry({
      type: 'object',
      patternProperties: { '^x-[a-z]+$': { type: 'string' } },
    });
    expect((await registry.invoke('kb.search', { 'x-trace': 'abc', other: 1 })).ok).toBe(true);
    const refused = await registry.invoke('kb.search', { 'x-trace': 3 });
    expect(refused.ok ? [] : (refused.issues ?? []).map((issue) => issue.path)).toEqual(['/x-trace']);
  });

  it('never writes into the schema it is given (cfworker keeps its own keys in it)', async () => {
    const schema = Object.freeze({
      type: 'object',
      properties: Object.freeze({ id: Object.freeze({ $ref: '#/$defs/id' }) }),
      $defs: Object.freeze({ id: Object.freeze({ type: 'string', pattern: '^[a-z]+$' }) }),
    });
    const validator = createCfworkerValidator();
    await validator.load?.();
    const check = validator.compile(schema);
    expect(check({ id: 'abc' }).valid).toBe(true);
    expect(check({ id: 'ABC' }).valid).toBe(false);
    expect(JSON.stringify(schema)).not.toContain('__');
  });
});
