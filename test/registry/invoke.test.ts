import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

describe('ToolRegistry#invoke: gates', () => {
  it('runs a tool whose gates pass and returns its data', async () => {
    const { tool, calls } = readTool();
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('kb.search', { query: 'refund' })).resolves.toEqual({
      ok: true,
      data: { hits: ['refund'] },
    });
    expect(calls).toEqual([{ query: 'refund' }]);
  });

  it('refuses a tool whose feature flag is not granted, without running it', async () => {
    const { tool, calls } = readTool('kb.search', { featureFlag: 'kb' });
    const registry = new ToolRegistry().register(tool);
    for (const flags of [undefined, {}, { kb: false }, { other: true }, JSON.parse('{"kb":"yes"}')]) {
      const result = await registry.invoke('kb.search', { query: 'x' }, { flags });
      expect(result).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    }
    expect(calls).toEqual([]);
    await expect(
      registry.invoke('kb.search', { query: 'x' }, { flags: { kb: true } }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('refuses a tool outside its scopes', async () => {
    const { tool, calls } = writeTool('ticket.submit', { scopes: ['desk', 'crm'] });
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('ticket.submit', {}, { scope: 'web' })).resolves.toMatchObject({
      code: 'SCOPE_MISMATCH',
    });
    await expect(registry.invoke('ticket.submit', {})).resolves.toMatchObject({ code: 'SCOPE_MISMATCH' });
    await expect(registry.invoke('ticket.submit', {}, { scope: 'crm' })).resolves.toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
  });

  it('refuses send in an autonomous context with requiresConfirm and prepares nothing', async () => {
    const { tool, prepared, delivered } = sendTool();
    const registry = new ToolRegistry().register(tool);
    const result = await registry.invoke('message.send', { text: 'hi' }, { autonomous: true });
    expect(result).toMatchObject({ ok: false, code: 'SEND_REQUIRES_CONFIRM', requiresConfirm: true });
    expect(prepared).toEqual([]);
    expect(delivered).toEqual([]);
  });

  it('lets a person start a send: prepare runs, deliver does not, the payload comes back to confirm', async () => {
    const { tool, prepared, delivered } = sendTool();
    const registry = new ToolRegistry().register(tool);
    const result = await registry.invoke('message.send', { text: 'hi' });
    expect(result).toMatchObject({
      ok: true,
      requiresConfirm: true,
      confirmPayload: { draft: { text: 'hi' } },
    });
    expect(prepared).toEqual([{ text: 'hi' }]);
    expect(delivered).toEqual([]);
  });

  it('lets autonomous callers run write tools (a fixed plan may write)', async () => {
    const { tool, calls } = writeTool();
    const registry = new ToolRegistry().register(tool);
    await expect(registry.invoke('ticket.submit', {}, { autonomous: true })).resolves.toMatchObject({
      ok: true,
    });
    expect(calls).toHaveLength(1);
  });

  it('answers an unknown name with UNKNOWN_TOOL', async () => {
    const registry = new ToolRegistry();
    await expect(registry.invoke('ticket.submit', {})).resolves.toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
    });
  });
});

describe('ToolRegistry#invoke: input', () => {
  const registry = new ToolRegistry().register(readTool().tool);

  it('validates against the schema and lists every problem', async () => {
    const result = await registry.invoke('kb.search', { query: 3, extra: true });
    expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    if (result.ok) throw new Error('expected a failure');
    expect(result.issues).toEqual([
      { path: '', message: "must NOT have additional properties: 'extra'" },
      { path: '/query', message: 'must be string' },
    ]);
    expect(result.error).toContain('/query: must be string');
  });

  it.each([
    ['an array', [1]],
    ['null', null],
    ['a number', 7],
    ['unparseable JSON', '{"query": '],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"hi"'],
  ])('refuses %s as INVALID_ARGUMENTS', async (_label, input) => {
    await expect(registry.invoke('kb.search', input)).resolves.toMatchObject({
      ok: false,
      code: 'INVALID_ARGUMENTS',
    });
  });

  it('accepts a JSON string of arguments, and treats an empty string or no input as {}', async () => {
    await expect(registry.invoke('kb.search', '{"query":"a"}')).resolves.toMatchObject({ ok: true });
    const empty = new ToolRegistry().register(writeTool().tool);
    await expect(empty.invoke('ticket.submit', '')).resolves.toMatchObject({ ok: true });
    await expect(empty.invoke('ticket.submit')).resolves.toMatchObject({ ok: true });
  });

  it('refuses a cyclic, too deep, non-JSON or huge input with a result', async () => {
    const cyclic: Record<string, unknown> = { query: 'x' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { query: 'x' };
    for (let i = 0; i < 100; i += 1) deep = { query: 'x', nested: deep };
    const inputs = [
      cyclic,
      deep,
      { query: 'x', n: 10n },
      { query: 'x', f: () => 1 },
      { query: 'x', n: Number.NaN },
    ];
    for (const input of inputs) {
      await expect(registry.invoke('kb.search', input)).resolves.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    }
    const huge = JSON.stringify({ query: 'x'.repeat(1_000_001) });
    await expect(registry.invoke('kb.search', huge)).resolves.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    const hugeButAllowed = new ToolRegistry({ argumentLimits: { maxLength: 3_000_000 } }).register(
      readTool().tool,
    );
    await expect(hugeButAllowed.invoke('kb.search', huge)).resolves.toMatchObject({ ok: true });
  });

  it('reports an input object whose getter throws as INVALID_ARGUMENTS', async () => {
    const input = {
      get query(): string {
        throw new Error('boom');
      },
    };
    await expect(registry.invoke('kb.search', input)).resolves.toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('validates a Standard Schema and hands run the parsed output', async () => {
    const seen: unknown[] = [];
    const typed = new ToolRegistry().register({
      name: 'kb.lookup',
      description: 'Look up.',
      sideEffect: 'read',
      inputSchema: z.object({
        id: z.string().transform((id) => id.toUpperCase()),
        limit: z.number().int().default(5),
      }),
      run: (input) => {
        seen.push(input);
        return input.id;
      },
    });
    await expect(typed.invoke('kb.lookup', { id: 'ab' })).resolves.toEqual({ ok: true, data: 'AB' });
    expect(seen).toEqual([{ id: 'AB', limit: 5 }]);
    const bad = await typed.invoke('kb.lookup', { id: 1 });
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(bad.ok ? [] : bad.issues?.map((issue) => issue.path)).toEqual(['/id']);
  });
});

describe('ToolRegistry#invoke: a misbehaving tool never throws at the caller', () => {
  function registryWith(run: () => unknown, timeoutMs?: number) {
    return new ToolRegistry().register({
      name: 'bad.tool',
      description: 'Misbehaves.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  }

  it.each([
    [
      'an Error',
      () => {
        throw new Error('database is down');
      },
      'database is down',
    ],
    [
      'a string',
      () => {
        throw 'plain string';
      },
      'plain string',
    ],
    [
      'an object',
      () => {
        throw { status: 500 };
      },
      '{"status":500}',
    ],
    [
      'undefined',
      () => {
        throw undefined;
      },
      'undefined was thrown',
    ],
    ['a rejection', () => Promise.reject(new TypeError('bad type')), 'bad type'],
    ['a rejection with null', () => Promise.reject(null), 'null'],
  ])('turns %s into RUN_FAILED', async (_label, run, detail) => {
    const result = await registryWith(run).invoke('bad.tool', {});
    expect(result).toMatchObject({ ok: false, code: 'RUN_FAILED' });
    expect(result.ok ? '' : result.error).toContain(detail);
  });

  it('returns null data for a tool that returns nothing', async () => {
    await expect(registryWith(() => undefined).invoke('bad.tool', {})).resolves.toEqual({
      ok: true,
      data: null,
    });
    await expect(registryWith(async () => {}).invoke('bad.tool', {})).resolves.toEqual({
      ok: true,
      data: null,
    });
  });

  it('times out a hanging tool and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const registry = new ToolRegistry().register({
      name: 'slow.tool',
      description: 'Hangs.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      timeoutMs: 20,
      run: (_input, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    await expect(registry.invoke('slow.tool', {})).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException | undefined)?.name).toBe('TimeoutError');
  });

  it('uses the registry default timeout when the tool has none', async () => {
    const registry = new ToolRegistry({ defaultTimeoutMs: 10 }).register({
      name: 'slow.tool',
      description: 'Hangs.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => new Promise(() => {}),
    });
    await expect(registry.invoke('slow.tool', {})).resolves.toMatchObject({ code: 'TIMEOUT' });
  });

  it('aborts when the caller aborts, before or during the call', async () => {
    let toolSignal: AbortSignal | undefined;
    const registry = new ToolRegistry().register({
      name: 'slow.tool',
      description: 'Waits.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: (_input, ctx) => {
        toolSignal = ctx.signal;
        return new Promise(() => {});
      },
    });
    await expect(registry.invoke('slow.tool', {}, { signal: AbortSignal.abort() })).resolves.toMatchObject({
      code: 'ABORTED',
    });
    expect(toolSignal).toBeUndefined();
    const controller = new AbortController();
    const pending = registry.invoke('slow.tool', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 5);
    await expect(pending).resolves.toMatchObject({ code: 'ABORTED' });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('reports a schema that does not compile as SCHEMA_ERROR on use, every time', async () => {
    const registry = new ToolRegistry().register({
      name: 'odd.tool',
      description: 'Bad schema.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } },
      run: () => 1,
    });
    await expect(registry.invoke('odd.tool', {})).resolves.toMatchObject({ code: 'SCHEMA_ERROR' });
    await expect(registry.invoke('odd.tool', {})).resolves.toMatchObject({ code: 'SCHEMA_ERROR' });
  });

  it('survives a describeError option that throws', async () => {
    const registry = new ToolRegistry({
      describeError: () => {
        throw new Error('oops');
      },
    }).register({
      name: 'bad.tool',
      description: 'x',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => {
        throw new Error('inner');
      },
    });
    await expect(registry.invoke('bad.tool', {})).resolves.toMatchObject({
      code: 'RUN_FAILED',
      error: expect.stringContaining('inner'),
    });
  });

  it('hands run the caller, scope and app context', async () => {
    const registry = new ToolRegistry<{ user: string }>().register({
      name: 'who.ami',
      description: 'Who am I.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: (_input, ctx) => ({
        caller: ctx.caller,
        scope: ctx.scope,
        user: ctx.context.user,
        tool: ctx.toolName,
      }),
    });
    await expect(
      registry.invoke('who.ami', {}, { scope: 'desk', context: { user: 'ana' } }),
    ).resolves.toEqual({
      ok: true,
      data: { caller: 'person', scope: 'desk', user: 'ana', tool: 'who.ami' },
    });
    await expect(
      registry.invokeReadOnly('who__ami', '{}', { context: { user: 'bo' } }),
    ).resolves.toMatchObject({
      data: { caller: 'model', user: 'bo' },
    });
  });
});
