import fc from 'fast-check';
import {
  type Confirmation,
  type InvokeResult,
  type Rule,
  type RuleCall,
  runPlan,
  type SideEffect,
  type ToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { describe, expect, it } from 'vitest';

// Random registries with random rules, contexts and calls: rules only ever tighten (issue 17).
const T0 = Date.parse('2030-01-01T12:00:00.000Z');
const FLAGS = ['kb', 'finance'];
const SCOPES = ['desk', 'crm'];
const PEOPLE = ['p0', 'p1', 'p2', 'p3', 'p4'];
/** Who holds `finance`: the approvers' flags are fixed, so a delivered send can be checked against them. */
const FLAGS_OF: Readonly<Record<string, Record<string, boolean>>> = {
  p0: { finance: true },
  p1: { finance: true },
  p2: { finance: true },
  p3: {},
  p4: { kb: true },
};

type When = 'always' | 'cel-true' | 'cel-false' | 'cel-input' | 'fn-input' | 'fn-random' | 'fn-throws';
type Effect =
  | { kind: 'deny' }
  | { kind: 'limit'; calls: number; by: 'actor' | 'scope' | 'tool' | 'global' }
  | { kind: 'confirm' }
  | { kind: 'approvals'; approvals: number; finance: boolean };

interface RuleSpec {
  when: When;
  effect: Effect;
  shadow: boolean;
}

interface Spec {
  name: string;
  sideEffect: SideEffect;
  featureFlag: string | undefined;
  scopes: string[] | undefined;
  rules: RuleSpec[];
}

const ruleArb: fc.Arbitrary<RuleSpec> = fc.record({
  when: fc.constantFrom<When>(
    'always',
    'cel-true',
    'cel-false',
    'cel-input',
    'fn-input',
    'fn-random',
    'fn-throws',
  ),
  effect: fc.oneof(
    fc.constant<Effect>({ kind: 'deny' }),
    fc.record({
      kind: fc.constant('limit' as const),
      calls: fc.integer({ min: 1, max: 3 }),
      by: fc.constantFrom('actor' as const, 'scope' as const, 'tool' as const, 'global' as const),
    }),
    fc.constant<Effect>({ kind: 'confirm' }),
    fc.record({
      kind: fc.constant('approvals' as const),
      approvals: fc.integer({ min: 1, max: 3 }),
      finance: fc.boolean(),
    }),
  ),
  shadow: fc.boolean(),
});

const NAMES = ['kb.search', 'crm.fetch', 'ticket.submit', 'refund.submit', 'message.send', 'payment.send'];
const specsArb: fc.Arbitrary<Spec[]> = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.record({
          name: fc.constant(name),
          sideEffect: fc.constantFrom<SideEffect>('read', 'write', 'send'),
          featureFlag: fc.option(fc.constantFrom(...FLAGS), { nil: undefined }),
          scopes: fc.option(fc.subarray(SCOPES, { minLength: 1 }), { nil: undefined }),
          rules: fc.array(ruleArb, { maxLength: 4 }),
        }),
      ),
    ),
  );

/** The rule as the grade allows it: `confirm` only on a write, approvals not on a read. */
function toRule(spec: RuleSpec, grade: SideEffect, coin: () => boolean): Rule {
  const when = {
    always: undefined,
    'cel-true': 'true',
    'cel-false': 'false',
    'cel-input': '"k" in input && input.k == 1',
    'fn-input': (call: RuleCall) => call.input.k === 1,
    'fn-random': () => coin(),
    'fn-throws': () => {
      throw new Error('rule store down');
    },
  }[spec.when];
  const mode = spec.shadow ? 'shadow' : 'enforce';
  let { effect } = spec;
  if (effect.kind === 'confirm' && grade !== 'write')
    effect = grade === 'send' ? { kind: 'approvals', approvals: 2, finance: false } : { kind: 'deny' };
  if (effect.kind === 'approvals' && grade === 'read') effect = { kind: 'deny' };
  const base = { ...(when === undefined ? {} : { when }), mode } as const;
  switch (effect.kind) {
    case 'deny':
      return { ...base, deny: 'A rule refuses this.' };
    case 'limit':
      return { ...base, limit: { calls: effect.calls, per: 'day', by: effect.by } };
    case 'confirm':
      return { ...base, confirm: true };
    case 'approvals':
      return {
        ...base,
        approvals: effect.approvals,
        ...(effect.finance ? { approverFlags: ['finance'] } : {}),
      };
  }
}

type What = 'run' | 'prepare' | 'deliver';

/** A registry of the specs, with or without their rules, recording everything that runs and who asked. */
function build(
  specs: Spec[],
  options: { withRules: boolean; coins?: boolean[]; requireDifferentApprover?: boolean },
) {
  const executed: { name: string; sideEffect: SideEffect; what: What; during: string }[] = [];
  const delivered: { confirmationId: string; approvedBy: string }[] = [];
  let during = 'setup';
  let flip = 0;
  const coins = options.coins ?? [true, false];
  const coin = () => coins[flip++ % coins.length] ?? false;
  const registry = new ToolRegistry({
    now: () => T0,
    requireDifferentApprover: options.requireDifferentApprover === true,
  });
  for (const spec of specs) {
    const record = (what: What) =>
      executed.push({ name: spec.name, sideEffect: spec.sideEffect, what, during });
    const common = {
      name: spec.name,
      description: 'Random tool.',
      inputSchema: {
        type: 'object',
        properties: { k: { type: 'integer' }, text: { type: 'string' } },
        additionalProperties: false,
      },
      ...(spec.featureFlag === undefined ? {} : { featureFlag: spec.featureFlag }),
      ...(spec.scopes === undefined ? {} : { scopes: spec.scopes }),
      ...(options.withRules ? { rules: spec.rules.map((r) => toRule(r, spec.sideEffect, coin)) } : {}),
    };
    const definition: ToolDefinition =
      spec.sideEffect === 'send'
        ? {
            ...common,
            sideEffect: 'send',
            payloadSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
            editable: ['text'],
            prepare: (input: { text?: string }) => {
              record('prepare');
              return { text: input.text ?? '' };
            },
            deliver: (_payload: unknown, approval: { confirmationId: string; approvedBy: string }) => {
              record('deliver');
              delivered.push({ confirmationId: approval.confirmationId, approvedBy: approval.approvedBy });
              return 'sent';
            },
          }
        : {
            ...common,
            sideEffect: spec.sideEffect,
            run: (input: unknown) => {
              record('run');
              return { ran: spec.name, input };
            },
          };
    registry.register(definition);
  }
  const as = async <T>(caller: string, call: () => Promise<T>): Promise<T> => {
    during = caller;
    try {
      return await call();
    } finally {
      during = 'between';
    }
  };
  return { registry, executed, delivered, as };
}

type Caller = 'invoke' | 'model' | 'propose' | 'plan';
interface Call {
  caller: Caller;
  name: string;
  input: unknown;
  ctx: { scope?: string; flags?: Record<string, boolean>; actor?: string; autonomous?: boolean };
}

const inputArb = fc.oneof(
  fc.record(
    { k: fc.integer({ min: 0, max: 2 }), text: fc.constantFrom('hi', 'pay 900') },
    { requiredKeys: [] },
  ),
  fc.constant({ k: 'one' }),
  fc.constant('{"k":1}'),
  fc.constant(undefined),
);
const ctxArb: fc.Arbitrary<Call['ctx']> = fc.record(
  {
    scope: fc.oneof(
      { arbitrary: fc.constantFrom(...SCOPES), weight: 4 },
      { arbitrary: fc.constant('web'), weight: 1 },
    ),
    flags: fc.oneof(
      { arbitrary: fc.constant({ kb: true, finance: true }), weight: 3 },
      { arbitrary: fc.dictionary(fc.constantFrom(...FLAGS), fc.boolean()), weight: 1 },
    ),
    actor: fc.constantFrom(...PEOPLE),
    autonomous: fc.boolean(),
  },
  { requiredKeys: ['scope'] },
);
const callsArb = (specs: Spec[]) =>
  fc.array(
    fc.record({
      caller: fc.constantFrom<Caller>('invoke', 'model', 'propose', 'plan'),
      name: fc.oneof(
        { arbitrary: fc.constantFrom(...specs.map((s) => s.name)), weight: 6 },
        { arbitrary: fc.constantFrom(...specs.map((s) => s.name.replace('.', '__'))), weight: 2 },
        { arbitrary: fc.constant('made.up'), weight: 1 },
      ),
      input: inputArb,
      ctx: ctxArb,
    }),
    { maxLength: 12 },
  );

async function make(
  built: ReturnType<typeof build>,
  { caller, name, input, ctx }: Call,
): Promise<InvokeResult> {
  const { registry, as } = built;
  switch (caller) {
    case 'invoke':
      return as(caller, () => registry.invoke(name, input, ctx));
    case 'model':
      return as(caller, () => registry.invokeReadOnly(name, input, ctx));
    case 'propose': {
      const { autonomous: _, ...options } = ctx;
      return as(caller, () => registry.propose(name, input, options));
    }
    case 'plan': {
      const step =
        typeof input === 'object' && input !== null ? { input: input as Record<string, unknown> } : {};
      const plan = await as(caller, () =>
        runPlan({ name: 'random', steps: [{ tool: name, ...step }] }, {}, { registry, ...ctx }),
      );
      return plan.steps[0]?.result ?? { ok: false, code: 'UNKNOWN_TOOL', error: 'skipped' };
    }
  }
}

const ranWithData = (result: InvokeResult) => result.ok && result.requiresConfirm !== true;
const isWrite = (specs: Spec[], name: string) =>
  specs.some((s) => s.sideEffect === 'write' && (s.name === name || s.name.replace('.', '__') === name));

describe('rules properties', () => {
  it('nothing the model reaches runs a write or a send, and no rule turns a refusal into a success', async () => {
    await fc.assert(
      fc.asyncProperty(
        specsArb.chain((specs) =>
          fc.tuple(fc.constant(specs), callsArb(specs), fc.array(fc.boolean(), { minLength: 1 })),
        ),
        async ([specs, calls, coins]) => {
          const ruled = build(specs, { withRules: true, coins });
          const plain = build(specs, { withRules: false });
          for (const call of calls) {
            const withRules = await make(ruled, call);
            const without = await make(plain, call);
            expect(typeof withRules.ok).toBe('boolean');
            // A proposal of a write exists only through a rule that sends it to a person.
            if (call.caller === 'propose' && isWrite(specs, call.name)) {
              expect(ranWithData(withRules)).toBe(false);
              continue;
            }
            if (!without.ok) expect(withRules).toMatchObject({ ok: false });
            if (ranWithData(withRules)) expect(withRules).toEqual(without);
            if (withRules.ok && withRules.requiresConfirm === true) expect(without.ok).toBe(true);
            if (call.caller === 'model')
              expect(withRules.ok && withRules.requiresConfirm === true).toBe(false);
          }
          for (const { executed } of [ruled, plain]) {
            expect(executed.filter((e) => e.during === 'model' && e.sideEffect !== 'read')).toEqual([]);
            expect(executed.filter((e) => e.what === 'deliver')).toEqual([]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  type Action =
    | { kind: 'ask'; tool: number; actor: string; text: string; k: number }
    | { kind: 'confirm'; which: number; by: string; stale: boolean; edit: string | undefined }
    | { kind: 'reject'; which: number; by: string };

  const actionArb: fc.Arbitrary<Action> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('ask' as const),
        tool: fc.nat(),
        actor: fc.constantFrom(...PEOPLE),
        text: fc.constantFrom('hi', 'pay 900'),
        k: fc.integer({ min: 0, max: 2 }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('confirm' as const),
        which: fc.nat(),
        by: fc.constantFrom(...PEOPLE),
        stale: fc.boolean(),
        edit: fc.option(fc.constantFrom('edited', 'pay 90'), { nil: undefined }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('confirm' as const),
        which: fc.nat({ max: 2 }),
        by: fc.constantFrom(...PEOPLE),
        stale: fc.constant(false),
        edit: fc.constant(undefined),
      }),
      weight: 5,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('reject' as const),
        which: fc.nat(),
        by: fc.constantFrom(...PEOPLE),
      }),
      weight: 1,
    },
  );

  /** The people whose approvals count for the payload that was delivered, read from the history alone. */
  function approversOf(confirmation: Confirmation): Set<string> {
    let approvers = new Set<string>();
    for (const entry of confirmation.history) {
      if (entry.edit !== undefined) approvers = new Set();
      if ((entry.approval !== undefined || entry.status === 'delivering') && entry.by !== undefined)
        approvers.add(entry.by);
    }
    return approvers;
  }

  it('every delivered send has max(1, approvals) different approvers other than the asker, holding the flags asked', async () => {
    // Mostly approvals rules, so that many sends need several people; some deny, limit, throw or shadow.
    const sendRuleArb: fc.Arbitrary<RuleSpec> = fc.oneof(
      {
        arbitrary: fc.record({
          when: fc.constantFrom<When>('always', 'always', 'cel-input', 'fn-input', 'fn-random'),
          effect: fc.record({
            kind: fc.constant('approvals' as const),
            approvals: fc.integer({ min: 2, max: 3 }),
            finance: fc.boolean(),
          }),
          shadow: fc.constantFrom(false, false, false, true),
        }),
        weight: 4,
      },
      { arbitrary: ruleArb, weight: 1 },
    );
    const sendsArb = fc
      .uniqueArray(fc.constantFrom('message.send', 'payment.send'), { minLength: 1, maxLength: 2 })
      .chain((names) =>
        fc.tuple(
          ...names.map((name) =>
            fc.record({
              name: fc.constant(name),
              sideEffect: fc.constant<SideEffect>('send'),
              featureFlag: fc.constant(undefined),
              scopes: fc.constant(undefined),
              rules: fc.array(sendRuleArb, { minLength: 1, maxLength: 3 }),
            }),
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        sendsArb,
        fc.array(actionArb, { minLength: 10, maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 1 }),
        async (specs, actions, coins) => {
          const built = build(specs, { withRules: true, coins, requireDifferentApprover: true });
          const { registry, delivered } = built;
          const asked: { id: string; digest: string }[] = [];
          for (const action of actions) {
            if (action.kind === 'ask') {
              const spec = specs[action.tool % specs.length];
              if (spec === undefined) continue;
              const result = await registry.invoke(
                spec.name,
                { text: action.text, k: action.k },
                { actor: action.actor },
              );
              if (result.ok && result.requiresConfirm)
                asked.push({ id: result.confirmationId, digest: result.digest });
              continue;
            }
            // Mostly the latest confirmations, so that several people reach the same one.
            const target = asked[asked.length - 1 - (action.which % Math.max(1, asked.length))];
            if (target === undefined) continue;
            if (action.kind === 'reject') {
              await registry.reject(target.id, { rejectedBy: action.by });
              continue;
            }
            const found = await registry.confirmations.get(target.id);
            const digest = action.stale || !found.ok ? target.digest : found.confirmation.digest;
            await registry.confirm(target.id, {
              approvedBy: action.by,
              digest,
              flags: FLAGS_OF[action.by] ?? {},
              ...(action.edit === undefined ? {} : { payload: { text: action.edit } }),
            });
          }
          const listed = await registry.confirmations.list({ limit: 100 });
          if (!listed.ok) throw new Error(listed.error);
          const sent = listed.confirmations.filter((c) => c.status === 'delivered');
          expect(sent.length).toBe(delivered.length);
          expect(new Set(delivered.map((d) => d.confirmationId)).size).toBe(delivered.length);
          for (const confirmation of sent) {
            const approvers = approversOf(confirmation);
            const needed = Math.max(1, confirmation.requires?.approvals ?? 1);
            expect(approvers.size).toBeGreaterThanOrEqual(needed);
            expect(confirmation.actor).toBeDefined();
            expect(approvers.has(confirmation.actor ?? '')).toBe(false);
            for (const person of approvers)
              for (const flag of confirmation.requires?.approverFlags ?? [])
                expect(FLAGS_OF[person]?.[flag]).toBe(true);
            // The confirmation's own list agrees when several approvals were asked.
            if (confirmation.requires !== undefined && confirmation.requires.approvals > 1)
              expect(new Set((confirmation.approvals ?? []).map((a) => a.by))).toEqual(approvers);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
