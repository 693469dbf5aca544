import { type RunContext, ToolRegistry } from 'graded-tools';
import { beforeAll, describe, expect, it } from 'vitest';

// Issue 7, hole 16: the `ctx` a tool receives is its own call's, holds exactly the documented fields
// of `RunContext`, reaches nothing of another call in flight, and serialises.

const DOCUMENTED = ['caller', 'context', 'scope', 'signal', 'toolName'];

interface Held {
  readonly ctx: RunContext<{ tenant: string; secret: string }>;
  readonly finish: (value: unknown) => void;
}

// The first JSON Schema call of a process waits for the validator's engine to be imported; the calls
// in flight here are looked at one tick after they start, so the engine is loaded first.
beforeAll(async () => {
  const warm = new ToolRegistry().register({
    name: 'kb.warm',
    description: 'Loads the validator.',
    sideEffect: 'read',
    inputSchema: { type: 'object' },
    run: () => 'warm',
  });
  expect((await warm.invoke('kb.warm', {})).ok).toBe(true);
});

/** A registry whose tool holds on to its `ctx` and stays in flight until the test finishes it. */
function inFlight() {
  const held: Held[] = [];
  const registry = new ToolRegistry<{ tenant: string; secret: string }>().register({
    name: 'kb.search',
    description: 'Search the knowledge base.',
    sideEffect: 'read',
    timeoutMs: 10_000,
    inputSchema: { type: 'object' },
    run: (_input, ctx) =>
      new Promise((resolve) => {
        held.push({ ctx, finish: resolve });
      }),
  });
  const tenantA = { tenant: 'a', secret: 'secret-of-tenant-a' };
  const tenantB = { tenant: 'b', secret: 'secret-of-tenant-b' };
  const calls = [
    registry.invoke('kb.search', {}, { scope: 'desk', context: tenantA }),
    registry.invoke('kb.search', {}, { scope: 'desk', context: tenantB }),
    registry.invokeReadOnly('kb__search', {}, { scope: 'web', context: tenantB }),
  ];
  const finishAll = async () => {
    for (const { finish } of held) finish('done');
    return Promise.all(calls);
  };
  return { held, tenantA, tenantB, finishAll };
}

/** Every key on `value` and its prototypes, up to (not including) the built-in ones. */
function keysUpTheChain(value: object): PropertyKey[] {
  const keys: PropertyKey[] = [];
  for (
    let at: object | null = value;
    at !== null && at !== Object.prototype && at !== Function.prototype;
    at = Object.getPrototypeOf(at)
  ) {
    keys.push(...Reflect.ownKeys(at));
  }
  return keys;
}

/** Whether `target` can be reached from `ctx` by reading properties, not counting `ctx.context` itself. */
function reaches(ctx: object, target: object): boolean {
  const seen = new Set<unknown>([ctx]);
  const queue: object[] = [];
  const visit = (value: unknown) => {
    if ((typeof value === 'object' || typeof value === 'function') && value !== null && !seen.has(value)) {
      seen.add(value);
      queue.push(value);
    }
  };
  for (const key of keysUpTheChain(ctx)) {
    if (key === 'context' || key === 'signal') continue;
    try {
      visit(Reflect.get(ctx, key));
    } catch {
      // A getter that refuses to answer reaches nothing.
    }
  }
  for (let at = Object.getPrototypeOf(ctx); at !== null; at = Object.getPrototypeOf(at)) visit(at);
  while (queue.length > 0 && seen.size < 50_000) {
    const value = queue.shift() as object;
    if (value === target) return true;
    for (const key of keysUpTheChain(value)) {
      try {
        visit(Reflect.get(value, key));
      } catch {
        // Brand-checked getters on a prototype read with the prototype itself throw; nothing reached.
      }
    }
    visit(Object.getPrototypeOf(value));
  }
  return seen.has(target);
}

describe('RunContext: a tool’s ctx is its own call’s (issue 7, hole 16)', () => {
  it('holds exactly the documented fields', async () => {
    const { held, finishAll } = inFlight();
    await Promise.resolve();
    expect(held).toHaveLength(3);
    for (const { ctx } of held) {
      for (const key of Object.keys(ctx)) expect(DOCUMENTED).toContain(key);
      for (const key of keysUpTheChain(ctx)) expect([...DOCUMENTED, 'constructor']).toContain(key);
      for (const key of DOCUMENTED) expect(key in ctx).toBe(true);
    }
    await finishAll();
  });

  it('has no list links, deadline or settle/expire to call', async () => {
    const { held, finishAll } = inFlight();
    await Promise.resolve();
    for (const { ctx } of held) {
      const loose = ctx as unknown as Record<string, unknown>;
      for (const name of ['previous', 'next', 'watched', 'deadline', 'settle', 'expire', 'run']) {
        expect(loose[name], name).toBeUndefined();
      }
    }
    await finishAll();
  });

  it('reaches nothing of another call in flight (another tenant’s context)', async () => {
    const { held, tenantA, tenantB, finishAll } = inFlight();
    await Promise.resolve();
    const [first, second, third] = held;
    if (first === undefined || second === undefined || third === undefined) throw new Error('three calls');
    expect(first.ctx.context).toBe(tenantA);
    expect(reaches(first.ctx, tenantB)).toBe(false);
    expect(reaches(second.ctx, tenantA)).toBe(false);
    expect(reaches(third.ctx, tenantA)).toBe(false);
    await finishAll();
  });

  it('serialises with JSON.stringify while other calls are in flight', async () => {
    const { held, finishAll } = inFlight();
    await Promise.resolve();
    for (const { ctx } of held) {
      let json = '';
      expect(() => {
        json = JSON.stringify(ctx);
      }).not.toThrow();
      const parsed = JSON.parse(json) as Record<string, unknown>;
      for (const key of Object.keys(parsed)) expect(DOCUMENTED).toContain(key);
      expect(json).not.toContain(ctx.context.tenant === 'a' ? 'secret-of-tenant-b' : 'secret-of-tenant-a');
    }
    await finishAll();
  });

  it('tells the tool its caller, scope, context and name, with a working signal (already holds)', async () => {
    const { held, tenantA, tenantB, finishAll } = inFlight();
    await Promise.resolve();
    expect(held.map(({ ctx }) => [ctx.caller, ctx.scope, ctx.context, ctx.toolName])).toEqual([
      ['person', 'desk', tenantA, 'kb.search'],
      ['person', 'desk', tenantB, 'kb.search'],
      ['model', 'web', tenantB, 'kb.search'],
    ]);
    for (const { ctx } of held) {
      expect(ctx.signal).toBeInstanceOf(AbortSignal);
      expect(ctx.signal.aborted).toBe(false);
    }
    await expect(finishAll()).resolves.toEqual([
      { ok: true, data: 'done' },
      { ok: true, data: 'done' },
      { ok: true, data: 'done' },
    ]);
  });
});
