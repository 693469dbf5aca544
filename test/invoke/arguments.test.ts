import fc from 'fast-check';
import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';

/** A read tool with an open schema that records what reached `run`. */
function openTool() {
  const calls: unknown[] = [];
  const registry = new ToolRegistry().register({
    name: 'kb.store',
    description: 'Store anything.',
    sideEffect: 'read',
    inputSchema: { type: 'object' },
    run: (input) => {
      calls.push(input);
      return 'ran';
    },
  });
  return { registry, calls };
}

const nestedJson = (levels: number) => `{"z":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('arguments: one depth limit for JSON strings and objects', () => {
  it('refuses a 1,000-deep JSON string from the model, as it refuses the same object', async () => {
    const { registry, calls } = openTool();
    const raw = nestedJson(1_000);
    const asString = await registry.invokeReadOnly('kb__store', raw);
    const asObject = await registry.invoke('kb.store', JSON.parse(raw));
    for (const result of [asString, asObject]) {
      expect(result).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
      expect(result.ok ? '' : result.error).toContain('nested deeper than 64 levels');
    }
    expect(calls).toEqual([]);
  });

  it('refuses a 20,000-deep JSON string with a result, not a RangeError', async () => {
    const { registry, calls } = openTool();
    await expect(registry.invokeReadOnly('kb__store', nestedJson(20_000))).resolves.toMatchObject({
      ok: false,
      code: 'INVALID_ARGUMENTS',
    });
    await expect(
      registry.invokeReadOnly('kb__store', `[${'['.repeat(499_999)}${']'.repeat(499_999)}]`),
    ).resolves.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(calls).toEqual([]);
  });

  it('accepts exactly the configured depth in both forms, and counts brackets inside strings as text', async () => {
    const { registry, calls } = openTool();
    // The root object is level 0, so 64 arrays inside it are the deepest accepted.
    await expect(registry.invokeReadOnly('kb__store', nestedJson(64))).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('kb.store', JSON.parse(nestedJson(64)))).resolves.toMatchObject({
      ok: true,
    });
    await expect(registry.invokeReadOnly('kb__store', nestedJson(65))).resolves.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
    const bracketsAsText = JSON.stringify({ text: `[{"\\${'['.repeat(5_000)}`, more: '\\"[[' });
    // Long enough that the text is scanned for nesting before it is parsed.
    const longBracketsAsText = JSON.stringify({ text: `"\\${'['.repeat(70_000)}`, list: [[['"[']]] });
    for (const raw of [bracketsAsText, longBracketsAsText]) {
      await expect(registry.invokeReadOnly('kb__store', raw)).resolves.toMatchObject({ ok: true });
    }
    const padded = (levels: number) => `{"pad":"${'x'.repeat(70_000)}",${nestedJson(levels).slice(1)}`;
    await expect(registry.invokeReadOnly('kb__store', padded(64))).resolves.toMatchObject({ ok: true });
    await expect(registry.invokeReadOnly('kb__store', padded(65))).resolves.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
    expect(calls).toHaveLength(5);

    const shallow = new ToolRegistry({ argumentLimits: { maxDepth: 2 } }).register({
      name: 'kb.store',
      description: 'Store.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => 'ran',
    });
    await expect(shallow.invokeReadOnly('kb__store', '{"a":[[1]]}')).resolves.toMatchObject({ ok: true });
    await expect(shallow.invokeReadOnly('kb__store', '{"a":[[[1]]]}')).resolves.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
    await expect(shallow.invoke('kb.store', { a: [[[1]]] })).resolves.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
  });
});

describe('arguments: objects with shared sub-objects', () => {
  it('walks a DAG of shared arrays in bounded time and refuses it with a clear detail', async () => {
    const { registry, calls } = openTool();
    let shared: unknown[] = [];
    for (let i = 0; i < 40; i += 1) shared = [shared, shared];
    const started = performance.now();
    const result = await registry.invoke('kb.store', { d: shared });
    expect(performance.now() - started).toBeLessThan(500);
    expect(result).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(result.ok ? '' : result.error).toContain('more than 500000 values');
    expect(calls).toEqual([]);
  });

  it('still accepts a sub-object used twice, as a person’s code often does', async () => {
    const { registry, calls } = openTool();
    const address = { street: 'Main St 1' };
    await expect(registry.invoke('kb.store', { billing: address, shipping: address })).resolves.toMatchObject(
      {
        ok: true,
      },
    );
    expect(calls).toHaveLength(1);
  });
});

describe('arguments: a __proto__ key', () => {
  it('refuses a JSON __proto__ key from the model, however it is spelled', async () => {
    const { registry, calls } = openTool();
    for (const raw of [
      '{"__proto__":{"admin":true}}',
      '{"a":{"b":[{"__proto__":1}]}}',
      '{"\\u005f_proto__":{"admin":true}}',
    ]) {
      const result = await registry.invokeReadOnly('kb__store', raw);
      expect(result).toMatchObject({ ok: false, code: 'INVALID_ARGUMENTS' });
      expect(result.ok ? '' : result.error).toContain('__proto__');
    }
    expect(calls).toEqual([]);
  });

  it('refuses an own __proto__ property in an object from a person, and accepts the text as a value', async () => {
    const { registry, calls } = openTool();
    const own = JSON.parse('{"x":{"__proto__":{"admin":true}}}');
    await expect(registry.invoke('kb.store', own)).resolves.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    await expect(registry.invokeReadOnly('kb__store', '{"note":"__proto__ \\u00e9"}')).resolves.toMatchObject(
      {
        ok: true,
      },
    );
    expect(calls).toEqual([{ note: '__proto__ é' }]);
  });
});

describe('arguments: the short-text fast path agrees with the full check', () => {
  /** JSON values with `__proto__` keys (plain and escaped) and nesting around the depth limit. */
  const hostileJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.jsonValue({ maxDepth: 2 }),
      fc.array(tie('value'), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom('a', '__proto__', 'b\u005c', 'q'), tie('value'), { maxKeys: 2 }),
    ),
  })).value;

  it('accepts a raw JSON string exactly when the same object is accepted (property)', async () => {
    const { registry } = openTool();
    const limits = new ToolRegistry({ argumentLimits: { maxDepth: 3 } }).register({
      name: 'kb.store',
      description: 'Store anything.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => 'ran',
    });
    await fc.assert(
      fc.asyncProperty(hostileJson, fc.boolean(), fc.boolean(), async (value, wrap, escaped) => {
        let text = JSON.stringify(wrap ? { v: value } : value);
        if (escaped) text = text.replaceAll('__proto__', '\\u005f_proto__');
        if (!text.startsWith('{')) return;
        for (const target of [registry, limits]) {
          const fromText = await target.invokeReadOnly('kb__store', text);
          const fromObject = await target.invokeReadOnly('kb__store', JSON.parse(text));
          expect(fromText.ok).toBe(fromObject.ok);
        }
      }),
      { numRuns: 300 },
    );
  });
});
