import fc from 'fast-check';
import {
  type InvokeContext,
  runPlan,
  type SideEffect,
  type ToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';

// Random registries, contexts, names and inputs: the safety invariants hold for all of them.
const FLAGS = ['kb', 'mail', 'beta'];
const SCOPES = ['desk', 'crm', 'web'];

interface Spec {
  name: string;
  sideEffect: SideEffect;
  featureFlag: string | undefined;
  scopes: string[] | undefined;
  behaviour: 'value' | 'throw' | 'reject' | 'undefined' | 'async';
}

const segment = fc.constantFrom(
  'kb',
  'crm',
  'ticket',
  'message',
  'session',
  'search',
  'send',
  'submit',
  'fetch',
);
const specArb: fc.Arbitrary<Spec> = fc.record({
  name: fc.tuple(segment, segment).map(([a, b]) => `${a}.${b}`),
  sideEffect: fc.constantFrom<SideEffect>('read', 'write', 'send'),
  featureFlag: fc.option(fc.constantFrom(...FLAGS), { nil: undefined }),
  scopes: fc.option(fc.subarray(SCOPES, { minLength: 1 }), { nil: undefined }),
  behaviour: fc.constantFrom('value', 'throw', 'reject', 'undefined', 'async'),
});

const ctxArb: fc.Arbitrary<InvokeContext> = fc.record(
  {
    scope: fc.constantFrom(...SCOPES, 'other'),
    flags: fc.dictionary(
      fc.constantFrom(...FLAGS, '__proto__', 'constructor'),
      fc.oneof(fc.boolean(), fc.constant('true'), fc.integer()),
    ) as fc.Arbitrary<Record<string, boolean>>,
    autonomous: fc.boolean(),
  },
  { requiredKeys: [] },
);

const inputArb = fc.oneof(
  fc.json(),
  fc.string(),
  fc.jsonValue(),
  fc.constant(undefined),
  fc.constant(null),
  fc.object(),
  fc.constant('{"q":'),
  fc.anything(),
);

function build(specs: Spec[]) {
  const executed: { name: string; sideEffect: SideEffect; what: 'run' | 'prepare' | 'deliver' }[] = [];
  const registry = new ToolRegistry({ defaultTimeoutMs: 50 });
  const behave = (spec: Spec, what: 'run' | 'prepare') => () => {
    executed.push({ name: spec.name, sideEffect: spec.sideEffect, what });
    switch (spec.behaviour) {
      case 'throw':
        throw new Error('boom');
      case 'reject':
        return Promise.reject('no');
      case 'undefined':
        return undefined;
      case 'async':
        return Promise.resolve({ ok: 1 });
      default:
        return { value: 1 };
    }
  };
  for (const spec of specs) {
    const common = {
      name: spec.name,
      description: 'Random tool.',
      inputSchema: { type: 'object' },
      ...(spec.featureFlag === undefined ? {} : { featureFlag: spec.featureFlag }),
      ...(spec.scopes === undefined ? {} : { scopes: spec.scopes }),
    };
    const definition: ToolDefinition =
      spec.sideEffect === 'send'
        ? {
            ...common,
            sideEffect: 'send',
            prepare: behave(spec, 'prepare'),
            deliver: () => {
              executed.push({ name: spec.name, sideEffect: 'send', what: 'deliver' });
            },
          }
        : { ...common, sideEffect: spec.sideEffect, run: behave(spec, 'run') };
    registry.register(definition, { replace: true });
  }
  return { registry, executed };
}

const calledName = (specs: Spec[]) =>
  fc.oneof(
    fc.constantFrom(...specs.map((s) => s.name), ...specs.map((s) => s.name.replace('.', '__'))),
    fc.string(),
    fc.constantFrom('ticket__submit', 'message__send', 'kb___search', ''),
  );

/** A random registry and a list of random calls against it. */
const registryAndCalls = fc
  .array(specArb, { minLength: 1, maxLength: 8 })
  .chain((specs) =>
    fc.tuple(fc.constant(specs), fc.array(fc.tuple(calledName(specs), inputArb, ctxArb), { maxLength: 10 })),
  );

describe('safety properties', () => {
  it('nothing reachable through the model exit ever runs a write or prepares/delivers a send', async () => {
    await fc.assert(
      fc.asyncProperty(registryAndCalls, async ([specs, calls]) => {
        const { registry, executed } = build(specs);
        for (const [name, input, ctx] of calls) {
          const result = await registry.invokeReadOnly(name, input, ctx);
          expect(typeof result.ok).toBe('boolean');
          expect('requiresConfirm' in result && result.requiresConfirm).toBeFalsy();
        }
        expect(executed.filter((e) => e.sideEffect !== 'read')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('the model list holds only read tools and exactly what the model exit would run', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 8 }), ctxArb, async (specs, ctx) => {
        const { registry, executed } = build(specs);
        const listed = registry.toFunctionSchemas(ctx).map((f) => f.name);
        for (const name of listed) expect(registry.get(name)?.sideEffect).toBe('read');
        for (const tool of registry.list()) {
          const result = await registry.invokeReadOnly(tool.wireName, '{}', ctx);
          const ran = result.ok || (result.code !== 'UNKNOWN_TOOL' && result.code !== 'INVALID_ARGUMENTS');
          expect(ran).toBe(listed.includes(tool.wireName));
        }
        expect(executed.every((e) => e.sideEffect === 'read')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('no plan ever prepares or delivers a send', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(specArb, { minLength: 1, maxLength: 8 })
          .chain((specs) =>
            fc.tuple(fc.constant(specs), fc.array(calledName(specs), { maxLength: 8 }), ctxArb),
          ),
        async ([specs, steps, ctx]) => {
          const { registry, executed } = build(specs);
          const result = await runPlan(
            { name: 'random', steps: steps.map((tool) => ({ tool, input: {} })) },
            {},
            { registry, ...ctx },
          );
          expect(result.steps).toHaveLength(steps.length);
          expect(executed.filter((e) => e.sideEffect === 'send')).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('invoke never throws and never delivers, whatever the name, input, context or tool behaviour', async () => {
    await fc.assert(
      fc.asyncProperty(registryAndCalls, async ([specs, calls]) => {
        const { registry, executed } = build(specs);
        for (const [name, input, ctx] of calls) {
          const result = await registry.invoke(name, input, ctx);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) expect(typeof result.error).toBe('string');
        }
        expect(executed.filter((e) => e.what === 'deliver')).toEqual([]);
        const prepares = executed.filter((e) => e.what === 'prepare');
        // Every prepare came from a person's invoke: count them against the calls made as a person.
        const personSendCalls = calls.filter(([name, , ctx]) => {
          const tool = registry.get(name);
          return tool?.sideEffect === 'send' && ctx.autonomous !== true;
        });
        expect(prepares.length).toBeLessThanOrEqual(personSendCalls.length);
      }),
      { numRuns: 200 },
    );
  });
});
