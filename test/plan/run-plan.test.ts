import { definePlan, type InvokeResult, runPlan, type StepRecord, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

function setup() {
  const fetch = {
    calls: [] as unknown[],
  };
  const registry = new ToolRegistry()
    .register({
      name: 'session.fetch',
      description: 'Fetch a conversation.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      run: (input: { id: string }) => {
        fetch.calls.push(input);
        if (input.id === 'missing') throw new Error('no such conversation');
        return { id: input.id, question: 'How do I get a refund?' };
      },
    })
    .register(readTool('kb.search').tool);
  const submit = writeTool('ticket.submit');
  const send = sendTool('message.send');
  registry.register(submit.tool).register(send.tool);
  return { registry, fetch, submit, send };
}

const dataOf = (result: InvokeResult | undefined) =>
  result?.ok && !result.requiresConfirm ? result.data : undefined;

const whatIsAsked = definePlan<{ conversationId?: string }>({
  name: 'what-is-asked',
  steps: [
    {
      tool: 'session.fetch',
      buildInput: ({ seed }) => (seed.conversationId ? { id: seed.conversationId } : undefined),
    },
    {
      tool: 'kb__search',
      buildInput: ({ byTool }) => {
        const session = dataOf(byTool['session.fetch']) as { question: string } | undefined;
        return session ? { query: session.question } : undefined;
      },
    },
  ],
});

describe('runPlan', () => {
  it('chains results through byTool and bySeq', async () => {
    const { registry } = setup();
    const result = await runPlan(whatIsAsked, { conversationId: 'c-1' }, { registry });
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => [s.seq, s.tool, s.status])).toEqual([
      [0, 'session.fetch', 'ok'],
      [1, 'kb.search', 'ok'],
    ]);
    expect(dataOf(result.byTool['kb.search'])).toEqual({ hits: ['How do I get a refund?'] });
    expect(result.bySeq[1]).toBe(result.byTool['kb.search']);
    expect(result.stoppedAt).toBeUndefined();
  });

  it('skips the whole chain when the seed lacks data, and is still ok', async () => {
    const { registry, fetch } = setup();
    const result = await runPlan(whatIsAsked, {}, { registry });
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.status)).toEqual(['skipped', 'skipped']);
    expect(result.bySeq).toEqual([undefined, undefined]);
    expect(fetch.calls).toEqual([]);
  });

  it('goes on after a failed step unless stopIf says so, and ok is false', async () => {
    const { registry } = setup();
    const plan = definePlan({
      name: 'p',
      steps: [
        { tool: 'session.fetch', input: { id: 'missing' } },
        { tool: 'kb.search', input: { query: 'refund' } },
      ],
    });
    const result = await runPlan(plan, {}, { registry });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'ok']);
    expect(result.steps[0]?.result).toMatchObject({ code: 'RUN_FAILED' });
  });

  it('stops early at stopIf and reports where; ok stays true when nothing failed', async () => {
    const { registry } = setup();
    const plan = definePlan({
      name: 'p',
      steps: [
        { tool: 'kb.search', input: { query: 'a' }, stopIf: (result) => result.ok },
        { tool: 'kb.search', input: { query: 'b' } },
      ],
    });
    const result = await runPlan(plan, {}, { registry });
    expect(result).toMatchObject({ ok: true, stoppedAt: 0 });
    expect(result.steps).toHaveLength(1);
    const failing = definePlan({
      name: 'p',
      steps: [
        { tool: 'session.fetch', input: { id: 'missing' }, stopIf: (r) => !r.ok },
        { tool: 'kb.search', input: { query: 'b' } },
      ],
    });
    await expect(runPlan(failing, {}, { registry })).resolves.toMatchObject({ ok: false, stoppedAt: 0 });
  });

  it('runs write steps and refuses send steps with requiresConfirm, preparing nothing', async () => {
    const { registry, submit, send } = setup();
    const plan = definePlan({
      name: 'p',
      steps: [
        { tool: 'ticket.submit', input: { summary: 'refund' } },
        { tool: 'message.send', input: { text: 'hi' } },
        { tool: 'message__send', input: { text: 'hi' } },
      ],
    });
    const result = await runPlan(plan, {}, { registry });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(['ok', 'failed', 'failed']);
    expect(result.steps[1]?.result).toMatchObject({ code: 'SEND_REQUIRES_CONFIRM', requiresConfirm: true });
    expect(submit.calls).toHaveLength(1);
    expect(send.prepared).toEqual([]);
    expect(send.delivered).toEqual([]);
  });

  it('turns a throwing buildInput or stopIf into that step’s failure', async () => {
    const { registry } = setup();
    const plan = definePlan({
      name: 'p',
      steps: [
        {
          tool: 'kb.search',
          buildInput: () => {
            throw new Error('bad seed');
          },
        },
        {
          tool: 'kb.search',
          input: { query: 'a' },
          stopIf: () => {
            throw 'bad stop';
          },
        },
        { tool: 'kb.search', input: { query: 'b' } },
      ],
    });
    const result = await runPlan(plan, {}, { registry });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'failed', 'ok']);
    expect(result.steps[0]?.result).toMatchObject({
      code: 'RUN_FAILED',
      error: expect.stringContaining('buildInput threw: bad seed'),
    });
    expect(result.steps[1]?.result).toMatchObject({
      code: 'RUN_FAILED',
      error: expect.stringContaining('stopIf threw: bad stop'),
    });
  });

  it('reports an unknown tool step as a failure, passes gates from the context, calls onStep', async () => {
    const { registry } = setup();
    registry.register(readTool('kb.secret', { featureFlag: 'secret' }).tool);
    const seen: StepRecord[] = [];
    const plan = definePlan({
      name: 'p',
      steps: [
        { tool: 'ticket.close', input: {} },
        { tool: 'kb.secret', input: { query: 'x' } },
      ],
    });
    const refused = await runPlan(plan, {}, { registry, onStep: (step) => seen.push(step) });
    expect(refused.steps.map((s) => s.result && !s.result.ok && s.result.code)).toEqual([
      'UNKNOWN_TOOL',
      'FLAG_NOT_GRANTED',
    ]);
    expect(seen).toHaveLength(2);
    const granted = await runPlan(
      plan,
      {},
      {
        registry,
        flags: { secret: true },
        onStep: () => {
          throw new Error('progress UI crashed');
        },
      },
    );
    expect(granted.steps[1]?.status).toBe('ok');
  });

  it('stops when the signal aborts and says so', async () => {
    const registry = new ToolRegistry().register({
      name: 'slow.read',
      description: 'Slow.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    const plan = definePlan({ name: 'p', steps: [{ tool: 'slow.read' }, { tool: 'slow.read' }] });
    const result = await runPlan(plan, {}, { registry, signal: controller.signal });
    expect(result).toMatchObject({ ok: false, aborted: true });
    expect(result.steps).toHaveLength(1);
    await expect(runPlan(plan, {}, { registry, signal: AbortSignal.abort() })).resolves.toMatchObject({
      aborted: true,
      steps: [],
    });
  });

  it('uses the process-wide registry when none is given', async () => {
    const { getDefaultRegistry } = await import('graded-tools');
    getDefaultRegistry().register(readTool('global.read').tool, { replace: true });
    const result = await runPlan({ name: 'p', steps: [{ tool: 'global.read', input: { query: 'x' } }] }, {});
    expect(result).toMatchObject({ ok: true });
    getDefaultRegistry().unregister('global.read');
  });
});

describe('runPlan with a hostile context', () => {
  const plan = definePlan({
    name: 'two-reads',
    steps: [
      { tool: 'kb.search', input: { query: 'a' } },
      { tool: 'kb.search', input: { query: 'b' } },
    ],
  });

  it('treats a null context as an empty one and never throws', async () => {
    const { tool, calls } = readTool('kb.search');
    const registry = new ToolRegistry().register(tool);
    const hostile = null as unknown as Parameters<typeof runPlan>[2];
    // null has no registry: the default registry is used, which lacks the tool. It must resolve.
    const result = await runPlan(plan, {}, hostile);
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.result?.ok === false && s.result.code)).toEqual([
      'UNKNOWN_TOOL',
      'UNKNOWN_TOOL',
    ]);
    expect(calls).toHaveLength(0);
    expect((await runPlan(plan, {}, { registry })).ok).toBe(true);
  });

  it('refuses every step with INVALID_OPTION when the context cannot be read, running nothing', async () => {
    const { tool, calls } = readTool('kb.search', { scopes: ['desk'] });
    const registry = new ToolRegistry().register(tool);
    const ctx = {
      registry,
      get scope(): string {
        throw new Error('boom');
      },
    };
    const result = await runPlan(plan, {}, ctx);
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.result?.ok === false && s.result.code)).toEqual([
      'INVALID_OPTION',
      'INVALID_OPTION',
    ]);
    expect(calls).toHaveLength(0);
  });

  it('reads the context once: a scope getter cannot answer differently for each step', async () => {
    const { tool, calls } = readTool('kb.search', { scopes: ['desk'] });
    const registry = new ToolRegistry().register(tool);
    let reads = 0;
    const ctx = {
      registry,
      get scope(): string {
        reads += 1;
        return reads === 1 ? 'elsewhere' : 'desk';
      },
    };
    const result = await runPlan(plan, {}, ctx);
    expect(result.steps.map((s) => s.result?.ok === false && s.result.code)).toEqual([
      'SCOPE_MISMATCH',
      'SCOPE_MISMATCH',
    ]);
    expect(calls).toHaveLength(0);
    expect(reads).toBe(1);
  });
});
