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

// Issue 7: hostile contexts (getters and proxies that answer differently on each read, null
// prototypes, non-string scopes and flags, non-boolean autonomous) and hostile definitions changed
// after register. Contexts are built from printable descriptions so a counterexample reads plainly.

type ScopeToken =
  | 'desk'
  | 'crm'
  | 'web'
  | 'other'
  | 'desk\u0000kb'
  | 'num-1'
  | 'array-desk'
  | 'object-desk'
  | 'none';
type AutoToken = 'true' | 'false' | 'none' | "'true'" | '1' | '0' | "'false'" | '{}';
type FlagsToken = readonly (readonly [string, 'true' | 'false' | "'true'" | '1'])[];
type CtxKind =
  | 'plain'
  | 'null-proto'
  | 'getters'
  | 'proxy'
  | 'flags-proxy'
  | 'null'
  | 'undefined'
  | 'throwing';
type SignalToken = 'none' | 'live' | 'aborted' | 'plain-object' | 'string';

interface CtxDesc {
  readonly kind: CtxKind;
  readonly scopes: readonly ScopeToken[];
  readonly flags: readonly FlagsToken[];
  readonly autonomous: readonly AutoToken[];
  readonly signal: SignalToken;
  /** A proxy throws on every read after this many. */
  readonly throwAfter: number | undefined;
}

const scopeValue = (token: ScopeToken): unknown =>
  token === 'num-1'
    ? 1
    : token === 'array-desk'
      ? ['desk']
      : token === 'object-desk'
        ? { toString: () => 'desk' }
        : token === 'none'
          ? undefined
          : token;
const AUTONOMOUS: Readonly<Record<AutoToken, unknown>> = {
  true: true,
  false: false,
  none: undefined,
  "'true'": 'true',
  '1': 1,
  '0': 0,
  "'false'": 'false',
  '{}': {},
};
const autoValue = (token: AutoToken): unknown => AUTONOMOUS[token];
const flagValue = (token: FlagsToken[number][1]): unknown =>
  ({ true: true, false: false, "'true'": 'true', 1: 1 })[token];
// Object.fromEntries makes `__proto__` an own key, as JSON.parse would.
const flagsValue = (token: FlagsToken) => Object.fromEntries(token.map(([k, v]) => [k, flagValue(v)]));
const signalValue = (token: SignalToken): unknown =>
  token === 'live'
    ? new AbortController().signal
    : token === 'aborted'
      ? AbortSignal.abort()
      : token === 'plain-object'
        ? { aborted: false }
        : token === 'string'
          ? 'abort'
          : undefined;

/** What a context might answer, over every read: the gates may pass only on these. */
interface Possible {
  readonly scopes: ReadonlySet<string>;
  readonly flags: ReadonlySet<string>;
  readonly person: boolean;
}

function possibleOf(desc: CtxDesc): Possible {
  if (desc.kind === 'null' || desc.kind === 'undefined')
    return { scopes: new Set(), flags: new Set(), person: true };
  if (desc.kind === 'throwing') return { scopes: new Set(), flags: new Set(), person: false };
  // A plain or null-prototype context answers its first value every time.
  const many = desc.kind === 'getters' || desc.kind === 'proxy';
  const scopes = many ? desc.scopes : desc.scopes.slice(0, 1);
  const flags = many || desc.kind === 'flags-proxy' ? desc.flags : desc.flags.slice(0, 1);
  const autonomous = many ? desc.autonomous : desc.autonomous.slice(0, 1);
  return {
    scopes: new Set(scopes.map(scopeValue).filter((s): s is string => typeof s === 'string')),
    flags: new Set(flags.flatMap((f) => f.filter(([, v]) => v === 'true').map(([k]) => k))),
    person: autonomous.some((a) => a === 'false' || a === 'none'),
  };
}

/** Answers the next value of `values` on every read, round and round. */
const cycling = <T>(values: readonly T[]) => {
  let i = 0;
  return (): T => values[i++ % values.length] as T;
};

function flagsProxy(tokens: readonly FlagsToken[]): object {
  const next = cycling(tokens.map(flagsValue));
  return new Proxy(
    {},
    {
      get: (_, key) => (next() as Record<PropertyKey, unknown>)[key as string],
      has: (_, key) => Object.hasOwn(next(), key),
      ownKeys: () => Object.keys(next()),
      getOwnPropertyDescriptor: (_, key) => {
        const flags = next() as Record<PropertyKey, unknown>;
        return Object.hasOwn(flags, key)
          ? { value: flags[key as string], writable: true, enumerable: true, configurable: true }
          : undefined;
      },
    },
  );
}

function makeCtx(desc: CtxDesc): unknown {
  const scope = cycling(desc.scopes.map(scopeValue));
  const flags = cycling(desc.flags.map(flagsValue));
  const autonomous = cycling(desc.autonomous.map(autoValue));
  const signal = signalValue(desc.signal);
  const first = () => ({
    scope: scopeValue(desc.scopes[0] ?? 'none'),
    flags: flagsValue(desc.flags[0] ?? []),
    autonomous: autoValue(desc.autonomous[0] ?? 'none'),
    ...(signal === undefined ? {} : { signal }),
  });
  switch (desc.kind) {
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'plain':
      return first();
    case 'null-proto':
      return Object.assign(Object.create(null), first());
    case 'flags-proxy':
      return { ...first(), flags: flagsProxy(desc.flags) };
    case 'getters':
      return {
        get scope() {
          return scope();
        },
        get flags() {
          return flags();
        },
        get autonomous() {
          return autonomous();
        },
        signal,
      };
    case 'throwing':
      return new Proxy(
        {},
        {
          get: () => {
            throw new Error('hostile context');
          },
          has: () => {
            throw new Error('hostile context');
          },
          ownKeys: () => {
            throw new Error('hostile context');
          },
        },
      );
    case 'proxy': {
      let reads = 0;
      const answer = (key: PropertyKey): unknown => {
        reads += 1;
        if (desc.throwAfter !== undefined && reads > desc.throwAfter) throw new Error('hostile proxy');
        if (key === 'scope') return scope();
        if (key === 'flags') return flags();
        if (key === 'autonomous') return autonomous();
        if (key === 'signal') return signal;
        return undefined;
      };
      const keys = ['scope', 'flags', 'autonomous', 'signal'];
      return new Proxy(
        {},
        {
          get: (_, key) => answer(key),
          has: (_, key) => keys.includes(key as string),
          ownKeys: () => keys,
          getOwnPropertyDescriptor: (_, key) =>
            keys.includes(key as string)
              ? { value: answer(key), writable: true, enumerable: true, configurable: true }
              : undefined,
        },
      );
    }
  }
}

const scopeToken: fc.Arbitrary<ScopeToken> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<ScopeToken>('desk', 'crm', 'web') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<ScopeToken>(
      'other',
      'desk\u0000kb',
      'num-1',
      'array-desk',
      'object-desk',
      'none',
    ),
  },
);
const autoToken = fc.constantFrom<AutoToken>('true', 'false', 'none', "'true'", '1', '0', "'false'", '{}');
const flagsToken: fc.Arbitrary<FlagsToken> = fc.array(
  fc.tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...FLAGS) },
      { weight: 1, arbitrary: fc.constantFrom('other', '__proto__', 'constructor', 'kb\u0000mail') },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('true' as const) },
      { weight: 1, arbitrary: fc.constantFrom('false' as const, "'true'" as const, '1' as const) },
    ),
  ),
  { maxLength: 4 },
);
const ctxDescArb: fc.Arbitrary<CtxDesc> = fc.record({
  kind: fc.constantFrom<CtxKind>(
    'plain',
    'null-proto',
    'getters',
    'proxy',
    'flags-proxy',
    'null',
    'undefined',
    'throwing',
  ),
  scopes: fc.array(scopeToken, { minLength: 1, maxLength: 3 }),
  flags: fc.array(flagsToken, { minLength: 1, maxLength: 3 }),
  autonomous: fc.array(autoToken, { minLength: 1, maxLength: 3 }),
  signal: fc.constantFrom<SignalToken>('none', 'none', 'live', 'aborted', 'plain-object', 'string'),
  throwAfter: fc.option(fc.nat({ max: 6 }), { nil: undefined }),
});

// Gates on about half the tools, so that calls pass them often enough to test what runs.
const hostileSpecArb: fc.Arbitrary<Spec> = fc.record({
  name: fc.tuple(segment, segment).map(([a, b]) => `${a}.${b}`),
  sideEffect: fc.constantFrom<SideEffect>('read', 'write', 'send'),
  featureFlag: fc.option(fc.constantFrom(...FLAGS), { nil: undefined, freq: 1 }),
  scopes: fc.option(fc.subarray(SCOPES, { minLength: 1 }), { nil: undefined, freq: 1 }),
  behaviour: fc.constantFrom('value', 'async'),
});

type Mutation =
  | 'grade:read'
  | 'grade:write'
  | 'grade:send'
  | 'swap-run'
  | 'swap-prepare'
  | 'swap-deliver'
  | 'delete-functions'
  | 'drop-gates'
  | 'widen-scopes'
  | 'change-flag'
  | 'info-grade'
  | 'info-gates';
const mutationArb = fc.constantFrom<Mutation>(
  'grade:read',
  'grade:write',
  'grade:send',
  'swap-run',
  'swap-prepare',
  'swap-deliver',
  'delete-functions',
  'drop-gates',
  'widen-scopes',
  'change-flag',
  'info-grade',
  'info-gates',
);

type Action =
  | {
      readonly kind: 'invoke' | 'model';
      readonly name: string;
      readonly input: unknown;
      readonly ctx: CtxDesc;
    }
  | { readonly kind: 'list' | 'report' | 'functions'; readonly ctx: CtxDesc }
  | { readonly kind: 'get'; readonly name: string }
  | { readonly kind: 'mutate'; readonly tool: number; readonly mutation: Mutation }
  | {
      readonly kind: 'confirm';
      readonly pick: number;
      readonly digest: boolean;
      readonly options: 'plain' | 'null' | 'empty' | 'throwing';
    }
  | { readonly kind: 'reject'; readonly pick: number };

const actionArb = (specs: readonly Spec[]): fc.Arbitrary<Action> => {
  const name = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...specs.map((s) => s.name), ...specs.map((s) => s.name.replace('.', '__'))),
    },
    { weight: 1, arbitrary: calledName([...specs]) },
  );
  const input = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom({}, '{}') },
    { weight: 1, arbitrary: fc.oneof(fc.object(), fc.string()) },
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('invoke' as const), name, input, ctx: ctxDescArb }),
    },
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('model' as const), name, input, ctx: ctxDescArb }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constantFrom('list' as const, 'report' as const, 'functions' as const),
        ctx: ctxDescArb,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('get' as const), name }) },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('mutate' as const), tool: fc.nat(), mutation: mutationArb }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('confirm' as const),
        pick: fc.nat(),
        digest: fc.boolean(),
        options: fc.constantFrom(
          'plain' as const,
          'plain' as const,
          'null' as const,
          'empty' as const,
          'throwing' as const,
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject' as const), pick: fc.nat() }) },
  );
};

/** What ran, and during which call. */
interface Ran {
  readonly tool: string;
  readonly spec: Spec;
  readonly what: 'run' | 'prepare' | 'deliver';
  readonly original: boolean;
  readonly during: Action | undefined;
  readonly confirmationId: string | undefined;
}

/** Each spec becomes a tool graded and gated as the spec says; every function logs what ran. */
function buildHostile(specs: readonly Spec[]) {
  const ran: Ran[] = [];
  let during: Action | undefined;
  let confirmingId: string | undefined;
  const registry = new ToolRegistry({ defaultTimeoutMs: 50, onEvent: () => {} });
  const registered = new Map<string, { spec: Spec; definition: Record<string, unknown> }>();
  const log = (spec: Spec, what: Ran['what'], original: boolean) => {
    ran.push({ tool: spec.name, spec, what, original, during, confirmationId: confirmingId });
  };
  const fn = (spec: Spec, what: Ran['what'], original: boolean) => () => {
    log(spec, what, original);
    return spec.behaviour === 'async' ? Promise.resolve({ ok: 1 }) : { value: 1 };
  };
  for (const spec of specs) {
    const common = {
      name: spec.name,
      description: 'Random tool.',
      inputSchema: { type: 'object' },
      ...(spec.featureFlag === undefined ? {} : { featureFlag: spec.featureFlag }),
      ...(spec.scopes === undefined ? {} : { scopes: [...spec.scopes] }),
    };
    const definition: Record<string, unknown> =
      spec.sideEffect === 'send'
        ? {
            ...common,
            sideEffect: 'send',
            prepare: fn(spec, 'prepare', true),
            deliver: fn(spec, 'deliver', true),
          }
        : { ...common, sideEffect: spec.sideEffect, run: fn(spec, 'run', true) };
    registry.register(definition as unknown as ToolDefinition, { replace: true });
    registered.set(spec.name, { spec, definition });
  }
  const mutate = (index: number, mutation: Mutation) => {
    const entries = [...registered.values()];
    const target = entries[index % entries.length];
    if (target === undefined) return;
    const { spec, definition } = target;
    const attempt = (change: () => void) => {
      try {
        change();
      } catch {
        // A frozen snapshot refuses the change: as good as ignoring it.
      }
    };
    switch (mutation) {
      case 'grade:read':
      case 'grade:write':
      case 'grade:send':
        definition.sideEffect = mutation.slice('grade:'.length);
        return;
      case 'swap-run':
      case 'swap-prepare':
      case 'swap-deliver': {
        const what = mutation.slice('swap-'.length) as Ran['what'];
        definition[what] = fn(spec, what, false);
        return;
      }
      case 'delete-functions':
        delete definition.run;
        delete definition.prepare;
        delete definition.deliver;
        return;
      case 'drop-gates':
        delete definition.scopes;
        delete definition.featureFlag;
        return;
      case 'widen-scopes':
        if (Array.isArray(definition.scopes)) definition.scopes.push(...SCOPES, 'other');
        return;
      case 'change-flag':
        definition.featureFlag = 'other';
        return;
      case 'info-grade':
        attempt(() => {
          (registry.get(spec.name) as unknown as Record<string, unknown>).sideEffect = 'read';
        });
        return;
      case 'info-gates':
        for (const info of registry.list()) {
          attempt(() => {
            (info as unknown as Record<string, unknown>).featureFlag = undefined;
          });
          attempt(() => {
            (info as unknown as Record<string, unknown>).scopes = undefined;
          });
        }
        return;
    }
  };
  const setDuring = (action: Action | undefined, id?: string) => {
    during = action;
    confirmingId = id;
  };
  return { registry, ran, registered, mutate, setDuring };
}

/** Whether the gates, at register-time values, could pass under anything `possible` might answer. */
const gatesMayPass = (spec: Spec, possible: Possible) =>
  (spec.featureFlag === undefined || possible.flags.has(spec.featureFlag)) &&
  (spec.scopes === undefined || spec.scopes.some((s) => possible.scopes.has(s)));

describe('safety properties under hostile contexts and definitions changed after register (issue 7)', () => {
  it('the model runs only registered read tools whose gates passed, deliver waits for a person, nothing throws', async () => {
    const scenario = fc
      .array(hostileSpecArb, { minLength: 1, maxLength: 6 })
      .chain((specs) =>
        fc.tuple(fc.constant(specs), fc.array(actionArb(specs), { minLength: 1, maxLength: 14 })),
      );
    await fc.assert(
      fc.asyncProperty(scenario, async ([specs, actions]) => {
        const { registry, ran, registered, mutate, setDuring } = buildHostile(specs);
        const threw: string[] = [];
        const problems: string[] = [];
        const asked: { id: string; digest: string }[] = [];
        const confirmed = new Map<string, number>();
        const attempt = async <T>(what: string, call: () => T | Promise<T>): Promise<T | undefined> => {
          try {
            return await call();
          } catch (error) {
            threw.push(`${what}: ${String(error)}`);
            return undefined;
          }
        };
        for (const action of actions) {
          const startedAt = ran.length;
          switch (action.kind) {
            case 'invoke': {
              setDuring(action);
              const result = await attempt('invoke', () =>
                registry.invoke(action.name, action.input, makeCtx(action.ctx) as never),
              );
              if (result?.ok && result.requiresConfirm)
                asked.push({ id: result.confirmationId, digest: result.digest });
              break;
            }
            case 'model': {
              setDuring(action);
              const result = await attempt('invokeReadOnly', () =>
                registry.invokeReadOnly(action.name, action.input, makeCtx(action.ctx) as never),
              );
              if (result !== undefined && ('requiresConfirm' in result || 'confirmationId' in result))
                problems.push(`the model was handed a confirmation: ${JSON.stringify(result)}`);
              break;
            }
            case 'functions': {
              setDuring(action);
              const listed = await attempt('toFunctionSchemas', () =>
                registry.toFunctionSchemas(makeCtx(action.ctx) as never),
              );
              const possible = possibleOf(action.ctx);
              for (const { name } of listed ?? []) {
                const spec = [...registered.values()].find(
                  (r) => r.definition.name === name.replace('__', '.'),
                )?.spec;
                if (spec === undefined || spec.sideEffect !== 'read' || !gatesMayPass(spec, possible))
                  problems.push(`the model was shown ${name} under ${JSON.stringify(action.ctx)}`);
              }
              break;
            }
            case 'list':
              setDuring(action);
              await attempt('list', () => registry.list(makeCtx(action.ctx) as never));
              break;
            case 'report':
              setDuring(action);
              await attempt('accessReport', () => registry.accessReport(makeCtx(action.ctx) as never));
              break;
            case 'get':
              setDuring(action);
              await attempt('get', () => registry.get(action.name));
              break;
            case 'mutate':
              setDuring(action);
              mutate(action.tool, action.mutation);
              break;
            case 'confirm': {
              const pending = asked[action.pick % Math.max(asked.length, 1)];
              const id = pending?.id ?? 'no-such-confirmation';
              setDuring(action, id);
              const options =
                action.options === 'null'
                  ? null
                  : action.options === 'empty'
                    ? {}
                    : action.options === 'throwing'
                      ? {
                          approvedBy: 'alice',
                          get scope(): string {
                            throw new Error('hostile option');
                          },
                        }
                      : {
                          approvedBy: 'alice',
                          flags: { kb: true, mail: true, beta: true },
                          ...(action.digest && pending !== undefined ? { digest: pending.digest } : {}),
                        };
              const result = await attempt('confirm', () => registry.confirm(id, options as never));
              if (result?.ok) confirmed.set(id, (confirmed.get(id) ?? 0) + 1);
              break;
            }
            case 'reject': {
              const id = asked[action.pick % Math.max(asked.length, 1)]?.id ?? 'no-such-confirmation';
              setDuring(action, id);
              await attempt('reject', () => registry.reject(id, { rejectedBy: 'bob' }));
              break;
            }
          }
          setDuring(undefined);
          // Everything that ran during this action, judged against the tool as it was registered.
          for (const entry of ran.slice(startedAt)) {
            const current = registered.get(entry.tool)?.spec;
            const where = `${entry.what} of ${entry.tool} during ${JSON.stringify(entry.during)}`;
            if (!entry.original) problems.push(`a function swapped in after register ran: ${where}`);
            if (current !== entry.spec) problems.push(`a replaced tool ran: ${where}`);
            const during = entry.during;
            if (during === undefined) {
              problems.push(`something ran outside any call: ${where}`);
              continue;
            }
            if (entry.what === 'deliver') {
              if (during.kind !== 'confirm' || entry.spec.sideEffect !== 'send')
                problems.push(`deliver ran without a person's confirm: ${where}`);
              if (!asked.some((a) => a.id === entry.confirmationId))
                problems.push(`deliver ran for a confirmation no person asked for: ${where}`);
              continue;
            }
            if (during.kind === 'model') {
              if (entry.what !== 'run' || entry.spec.sideEffect !== 'read')
                problems.push(`the model's exit ran something other than a read: ${where}`);
              else if (!gatesMayPass(entry.spec, possibleOf(during.ctx)))
                problems.push(`the model's exit ran a read whose gates did not pass: ${where}`);
              continue;
            }
            if (during.kind !== 'invoke') {
              problems.push(`a tool ran outside invoke: ${where}`);
              continue;
            }
            const possible = possibleOf(during.ctx);
            if (!gatesMayPass(entry.spec, possible)) problems.push(`invoke ran past the gates: ${where}`);
            if (entry.what === 'run' && entry.spec.sideEffect === 'send')
              problems.push(`a send tool ran without a confirmation: ${where}`);
            if (entry.what === 'prepare' && (entry.spec.sideEffect !== 'send' || !possible.person))
              problems.push(`prepare ran for a caller that is not a person: ${where}`);
          }
        }
        for (const [id, times] of confirmed)
          if (times > 1) problems.push(`${id} was delivered ${times} times`);
        const delivered = ran.filter((r) => r.what === 'deliver').length;
        if (delivered > [...confirmed.values()].reduce((a, b) => a + b, 0))
          problems.push(`deliver ran ${delivered} times for fewer successful confirms`);
        expect(threw).toEqual([]);
        expect(problems).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
