import fc from 'fast-check';
import { type InvokeEvent, ToolRegistry } from 'graded-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { fastPaths, stepChooser } from '../../src/invoke/choose-steps.js';

// The plain-read fast path (choose-steps.ts) calls a plain read's steps in one function instead of
// the runner's loop. With it on and off, every call must answer the same, tell the same events and
// hand `run` the same input.

const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
  },
  required: ['query'],
  additionalProperties: false,
} as const;
const brokenSchema = { type: 'object', properties: { query: { type: 'not-a-type' } } };

type RunKind = 'value' | 'promise' | 'undefined' | 'throws' | 'rejects' | 'hangs' | 'readsSignal';

interface ToolSpec {
  readonly sideEffect: 'read' | 'write';
  readonly featureFlag: 'beta' | undefined;
  readonly scopes: readonly string[] | undefined;
  readonly broken: boolean;
  readonly run: RunKind;
}

const toolSpec = fc.record({
  sideEffect: fc.constantFrom<'read' | 'write'>('read', 'read', 'read', 'write'),
  featureFlag: fc.constantFrom<'beta' | undefined>(undefined, undefined, 'beta'),
  scopes: fc.constantFrom<readonly string[] | undefined>(undefined, undefined, ['desk'], ['ops']),
  broken: fc.constantFrom(false, false, false, false, true),
  run: fc.constantFrom<RunKind>('value', 'promise', 'undefined', 'throws', 'rejects', 'hangs', 'readsSignal'),
});

function runOf(kind: RunKind, seen: unknown[]) {
  return (input: Record<string, unknown>, ctx: { signal: AbortSignal; toolName: string }) => {
    seen.push(input);
    switch (kind) {
      case 'value':
        return { echo: input, tool: ctx.toolName };
      case 'promise':
        return Promise.resolve({ echo: input });
      case 'undefined':
        return undefined;
      case 'throws':
        throw new Error('boom');
      case 'rejects':
        return Promise.reject(new Error('later boom'));
      case 'hangs':
        return new Promise(() => {});
      case 'readsSignal':
        return { aborted: ctx.signal.aborted };
    }
  };
}

function registryOf(specs: readonly ToolSpec[], fast: boolean) {
  const events: unknown[] = [];
  const seen: unknown[] = [];
  const registry = new ToolRegistry({
    defaultTimeoutMs: 5,
    onEvent: (event: InvokeEvent) => {
      if (event.type !== 'invoke') return;
      const { ms: _ms, at: _at, ...rest } = event;
      events.push(rest);
    },
  });
  specs.forEach((spec, i) => {
    registry.register({
      name: `kb.tool${i}`,
      description: `Tool ${i}.`,
      sideEffect: spec.sideEffect,
      ...(spec.featureFlag === undefined ? {} : { featureFlag: spec.featureFlag }),
      ...(spec.scopes === undefined ? {} : { scopes: spec.scopes }),
      inputSchema: spec.broken ? (brokenSchema as never) : searchSchema,
      run: runOf(spec.run, seen) as never,
    });
  });
  return { registry, events, seen, fast };
}

const aborted = AbortSignal.abort();
const args = fc.oneof(
  fc.constant('{"query":"refunds","limit":5}'),
  fc.constant('{"query":"refunds"}'),
  fc.constant('{"query":""}'),
  fc.constant('{"query":"x","extra":1}'),
  fc.constant('{"query":'),
  fc.constant(''),
  fc.constant('[1,2]'),
  fc.constant('{"__proto__":{"query":"x"}}'),
  fc.constant(undefined),
  fc.record({ query: fc.string(), limit: fc.integer({ min: -5, max: 60 }) }),
  fc.json(),
);
const context = fc.constantFrom<unknown>(
  undefined,
  {},
  { flags: { beta: true } },
  { scope: 'desk' },
  { scope: 'desk', flags: { beta: true } },
  { signal: aborted },
  { run: 'no-such-run' },
  { autonomous: true },
  { locale: 'zh-CN' },
  'not an object',
);
const call = fc.record({
  tool: fc.nat({ max: 4 }),
  wire: fc.boolean(),
  how: fc.constantFrom('invokeReadOnly', 'invoke', 'check'),
  args,
  ctx: context,
});

async function ask(
  on: ReturnType<typeof registryOf>,
  c: { tool: number; wire: boolean; how: string; args: unknown; ctx: unknown },
) {
  fastPaths.plainRead = on.fast; // read when a tool's steps are chosen, at its first call
  const name = c.wire ? `kb__tool${c.tool}` : `kb.tool${c.tool}`;
  const registry = on.registry as ToolRegistry;
  if (c.how === 'check') return registry.check(name, c.args, c.ctx as never);
  if (c.how === 'invoke') return registry.invoke(name, c.args, c.ctx as never);
  return registry.invokeReadOnly(name, c.args, c.ctx as never);
}

describe('the plain-read fast path answers exactly as the list of steps does', () => {
  afterEach(() => {
    fastPaths.plainRead = true;
  });

  it('is what a plain read chooses, and nothing else', () => {
    const choose = stepChooser({ settings: {} as never, answers: {} as never });
    const tool = (over: object) =>
      ({ tool: { info: { sideEffect: 'read' }, rules: [], ...over } }) as never;
    expect(choose(tool({})).call).toHaveLength(1);
    expect(choose(tool({})).check).toHaveLength(4);
    expect(choose(tool({ rules: [{}] })).call.length).toBeGreaterThan(1);
    expect(choose(tool({ standard: {} })).call.length).toBeGreaterThan(1);
    expect(choose(tool({ info: { sideEffect: 'write' } })).call.length).toBeGreaterThan(1);
    fastPaths.plainRead = false;
    expect(choose(tool({})).call.length).toBeGreaterThan(1);
  });

  it('same results, events and inputs with it on and off, over random registries and calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(toolSpec, { minLength: 1, maxLength: 4 }),
        fc.array(call, { minLength: 1, maxLength: 8 }),
        async (specs, calls) => {
          const fast = registryOf(specs, true);
          const slow = registryOf(specs, false);
          for (const c of calls) {
            const a = await ask(fast, c);
            const b = await ask(slow, c);
            expect(a).toEqual(b);
          }
          expect(fast.events).toEqual(slow.events);
          expect(fast.seen).toEqual(slow.seen);
        },
      ),
      { numRuns: 150 },
    );
  });
});
