import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const PENDING = Symbol('still pending');

/** What `promise` settled to within `ms`, or PENDING: a hang fails the test with a clear message. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof PENDING> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<typeof PENDING>((resolve) => {
    timer = setTimeout(() => resolve(PENDING), ms);
  });
  try {
    return await Promise.race([promise, pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** A read tool whose Standard Schema validation never settles. */
function hangingValidation(timeoutMs?: number) {
  let runs = 0;
  const tool = {
    name: 'kb.search',
    description: 'Search the knowledge base.',
    sideEffect: 'read' as const,
    inputSchema: z.object({ q: z.string().refine(() => new Promise<boolean>(() => {})) }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    run: () => {
      runs += 1;
      return 'ran';
    },
  };
  return { tool, runs: () => runs };
}

describe('ToolRegistry: a Standard Schema whose async validation hangs (issue 7, hole 14)', () => {
  it("the tool's timeoutMs covers validation: TIMEOUT, and run is never called", async () => {
    const { tool, runs } = hangingValidation(100);
    const registry = new ToolRegistry().register(tool);
    await expect(within(registry.invoke('kb.search', { q: 'x' }), 2_000)).resolves.toMatchObject({
      ok: false,
      code: 'TIMEOUT',
    });
    await expect(within(registry.invokeReadOnly('kb__search', '{"q":"x"}'), 2_000)).resolves.toMatchObject({
      ok: false,
      code: 'TIMEOUT',
    });
    expect(runs()).toBe(0);
  });

  it("the registry's defaultTimeoutMs covers validation for a tool without its own", async () => {
    const { tool, runs } = hangingValidation();
    const registry = new ToolRegistry({ defaultTimeoutMs: 100 }).register(tool);
    await expect(within(registry.invoke('kb.search', { q: 'x' }), 2_000)).resolves.toMatchObject({
      ok: false,
      code: 'TIMEOUT',
    });
    expect(runs()).toBe(0);
  });

  it("the caller's signal, aborted while validation hangs, gives ABORTED and run is never called", async () => {
    const { tool, runs } = hangingValidation(60_000);
    const registry = new ToolRegistry().register(tool);
    const controller = new AbortController();
    const asked = registry.invoke('kb.search', { q: 'x' }, { signal: controller.signal });
    const modelController = new AbortController();
    const modelAsked = registry.invokeReadOnly('kb__search', { q: 'x' }, { signal: modelController.signal });
    setTimeout(() => {
      controller.abort();
      modelController.abort();
    }, 20);
    await expect(within(asked, 2_000)).resolves.toMatchObject({ ok: false, code: 'ABORTED' });
    await expect(within(modelAsked, 2_000)).resolves.toMatchObject({ ok: false, code: 'ABORTED' });
    expect(runs()).toBe(0);
  });

  it('a Standard Schema that validates in time still runs the tool (already holds)', async () => {
    const registry = new ToolRegistry().register({
      name: 'kb.search',
      description: 'Search the knowledge base.',
      sideEffect: 'read',
      timeoutMs: 1_000,
      inputSchema: z.object({ q: z.string().refine(async () => true) }),
      run: ({ q }) => `ran ${q}`,
    });
    await expect(registry.invoke('kb.search', { q: 'x' })).resolves.toEqual({ ok: true, data: 'ran x' });
  });
});

describe('ToolRegistry: defaultTimeoutMs is validated (issue 7, hole 15)', () => {
  it.each([
    ['NaN', Number.NaN],
    ['-1', -1],
    ['0', 0],
    ['Infinity', Number.POSITIVE_INFINITY],
    ["'5000'", '5000'],
    ['3e9 (past the largest Node timer)', 3e9],
  ])('refuses defaultTimeoutMs %s in the constructor, like a tool timeoutMs at register', (_, value) => {
    let thrown: unknown;
    try {
      new ToolRegistry({ defaultTimeoutMs: value as never });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolDefinitionError);
    expect(thrown).toMatchObject({ code: 'INVALID_OPTION' });
    expect((thrown as Error).message).toContain('defaultTimeoutMs');
  });

  it('a tool timeoutMs past the largest Node timer is refused at register (already holds)', () => {
    expect(() =>
      new ToolRegistry().register({
        name: 'kb.search',
        description: 'Search.',
        sideEffect: 'read',
        timeoutMs: 3e9,
        inputSchema: { type: 'object' },
        run: () => [],
      }),
    ).toThrow(ToolDefinitionError);
  });

  it.each([1, 30_000, 2_147_483_647])('accepts defaultTimeoutMs %d (already holds)', (value) => {
    expect(() => new ToolRegistry({ defaultTimeoutMs: value })).not.toThrow();
  });

  it('accepts an omitted defaultTimeoutMs (already holds)', () => {
    expect(() => new ToolRegistry({})).not.toThrow();
    expect(() => new ToolRegistry({ defaultTimeoutMs: undefined as never })).not.toThrow();
  });
});
