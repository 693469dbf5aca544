import {
  createAjvValidator,
  type JsonSchemaValidator,
  type ToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool } from '../helpers/tools.js';

describe('JSON Schema validation', () => {
  it('compiles each tool’s schema once, on first use, and caches it', async () => {
    const compiled: string[] = [];
    const ajv = createAjvValidator();
    const counting: JsonSchemaValidator = {
      // Ajv loads on first use: a wrapper passes load on, and the registry awaits it before compiling.
      load: () => ajv.load?.(),
      compile: (schema) => {
        compiled.push(JSON.stringify(schema));
        return ajv.compile(schema);
      },
    };
    const registry = new ToolRegistry({ validator: counting });
    for (let i = 0; i < 100; i += 1) registry.register(readTool(`kb.t${i}`).tool);
    expect(compiled).toHaveLength(0);
    for (let i = 0; i < 5; i += 1) await registry.invoke('kb.t7', { query: 'x' });
    const refused = await registry.invoke('kb.t8', { query: 3 });
    expect(refused.ok ? 'ran' : refused.code).toBe('INVALID_INPUT');
    // kb.t7 and kb.t8 have identical schemas: one compile serves both.
    expect(compiled).toHaveLength(1);
    registry.register({ ...readTool('kb.other').tool, inputSchema: { type: 'object', properties: {} } });
    await registry.invoke('kb.other', {});
    expect(compiled).toHaveLength(2);
  });

  it('lets an app swap the validator (e.g. where code generation is not allowed)', async () => {
    const handMade: JsonSchemaValidator = {
      compile: (schema) => {
        const required = (schema.required as string[] | undefined) ?? [];
        return (input) => {
          const missing = required.filter((key) => !Object.hasOwn(input as object, key));
          return missing.length === 0
            ? { valid: true }
            : { valid: false, issues: missing.map((key) => ({ path: `/${key}`, message: 'is required' })) };
        };
      },
    };
    const registry = new ToolRegistry({ validator: handMade }).register(readTool().tool);
    await expect(registry.invoke('kb.search', { query: 3 })).resolves.toMatchObject({ ok: true });
    await expect(registry.invoke('kb.search', {})).resolves.toMatchObject({
      code: 'INVALID_INPUT',
      issues: [{ path: '/query', message: 'is required' }],
    });
  });

  it('checks formats, enums and draft-07 schemas with a $schema marker', async () => {
    const registry = new ToolRegistry().register({
      name: 'crm.contact',
      description: 'Find a contact.',
      sideEffect: 'read',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, kind: { enum: ['lead', 'customer'] } },
        required: ['email'],
      },
      run: () => 'found',
    });
    await expect(registry.invoke('crm.contact', { email: 'a@b.co', kind: 'lead' })).resolves.toMatchObject({
      ok: true,
    });
    const bad = await registry.invoke('crm.contact', { email: 'nope', kind: 'boss' });
    expect(bad.ok ? [] : bad.issues).toEqual([
      { path: '/email', message: 'must match format "email"' },
      { path: '/kind', message: 'must be equal to one of the allowed values: "lead", "customer"' },
    ]);
  });

  it('never mutates or coerces the caller’s input', async () => {
    const registry = new ToolRegistry().register({
      name: 'kb.count',
      description: 'Count.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', default: 3 } } },
      run: (input) => input,
    });
    const input = {};
    await expect(registry.invoke('kb.count', input)).resolves.toEqual({ ok: true, data: {} });
    expect(input).toEqual({});
    await expect(registry.invoke('kb.count', { n: '3' })).resolves.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('the default validator over a registry’s lifetime', () => {
  it('validates two tools whose different schemas share one $id, each by its own schema', async () => {
    const registry = new ToolRegistry();
    const withId = (property: string) => ({
      ...readTool(`kb.${property}`).tool,
      inputSchema: {
        $id: 'https://example.com/args',
        type: 'object',
        properties: { [property]: { type: 'string' } },
        required: [property],
      },
    });
    registry.register(withId('first')).register(withId('second'));
    expect((await registry.invoke('kb.first', { first: 'x' })).ok).toBe(true);
    const second = await registry.invoke('kb.second', { second: 'x' });
    expect(second.ok).toBe(true);
    const missing = await registry.invoke('kb.second', { first: 'x' });
    expect(missing.ok === false && missing.code).toBe('INVALID_INPUT');
  });

  it('keeps validating correctly across many register/unregister cycles', async () => {
    const registry = new ToolRegistry();
    for (let i = 0; i < 150; i += 1) {
      registry.register({
        ...readTool(`kb.cycle${i}`).tool,
        inputSchema: { type: 'object', properties: { [`p${i}`]: { type: 'integer' } }, required: [`p${i}`] },
      });
      const good = await registry.invoke(`kb.cycle${i}`, { [`p${i}`]: i });
      const bad = await registry.invoke(`kb.cycle${i}`, { [`p${i}`]: 'no' });
      expect([good.ok, bad.ok === false && bad.code]).toEqual([true, 'INVALID_INPUT']);
      if (i % 2 === 0) registry.unregister(`kb.cycle${i}`);
    }
    const kept = await registry.invoke('kb.cycle1', { p1: 'no' });
    expect(kept.ok === false && kept.code).toBe('INVALID_INPUT');
  });
});

describe('Standard Schema validation, synchronous or not', () => {
  /** A hand-made Standard Schema that answers through `answer` and describes itself as an open object. */
  const handMade = (answer: (value: unknown) => unknown) => ({
    '~standard': {
      version: 1 as const,
      vendor: 'hand-made',
      validate: answer,
      jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
    },
  });

  it('refuses input whose verdict comes as a thenable that is not a Promise, never reading it as a pass', async () => {
    const ran: unknown[] = [];
    const verdict = { issues: [{ message: 'no thanks', path: ['q'] }] };
    const registry = new ToolRegistry().register({
      ...readTool('kb.odd').tool,
      // biome-ignore lint/suspicious/noThenProperty: the point is a thenable that is not a Promise
      inputSchema: handMade(() => ({ then: (resolve: (v: unknown) => void) => resolve(verdict) })),
      run: (input: unknown) => ran.push(input),
    } as ToolDefinition);
    const result = await registry.invoke('kb.odd', { q: 1 });
    expect(result).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      issues: [{ path: '/q', message: 'no thanks' }],
    });
    expect(ran).toEqual([]);
  });

  it('runs the tool with a synchronous verdict’s output, transforms included', async () => {
    const ran: unknown[] = [];
    const registry = new ToolRegistry().register({
      ...readTool('kb.sync').tool,
      inputSchema: handMade((value) => ({ value: { ...(value as object), seen: true } })),
      run: (input: unknown) => ran.push(input),
    } as ToolDefinition);
    expect((await registry.invoke('kb.sync', { q: 1 })).ok).toBe(true);
    expect(ran).toEqual([{ q: 1, seen: true }]);
  });
});
