import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { answerChatToolCalls } from 'graded-tools/openai';
import { type OpenTelemetryOptions, openTelemetry } from 'graded-tools/opentelemetry';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  contextManager.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  const finished = spans();
  expect(finished).toHaveLength(1);
  return finished[0] as ReadableSpan;
};
const named = (name: string) => spans().filter((span) => span.name === name);
const eventNames = (span: ReadableSpan) => span.events.map((event) => event.name);

function deskRegistry(options: Omit<OpenTelemetryOptions, 'tracerProvider'> = {}) {
  const delivered: unknown[] = [];
  const sender = sendTool('message.send', {
    deliver: (payload: unknown) => {
      delivered.push(payload);
      // The tool's own spans nest inside the confirm's.
      trace.getTracer('app').startActiveSpan('smtp.send', (span) => span.end());
      return { sent: payload };
    },
  });
  const registry = new ToolRegistry({ telemetry: openTelemetry({ ...options, tracerProvider: provider }) })
    .register(
      readTool('kb.search', {
        run: (input: { query: string }) =>
          trace.getTracer('app').startActiveSpan('db.query', (span) => {
            span.end();
            return { hits: [input.query] };
          }),
      }).tool,
    )
    .register(readTool('crm.lookup', { featureFlag: 'crm' }).tool)
    .register(writeTool('ticket.submit').tool)
    .register(sender.tool);
  return { registry, delivered };
}

describe('graded-tools/opentelemetry', () => {
  beforeAll(() => {
    // The app's own tracer goes to the same provider, as it would with a registered SDK.
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(() => trace.disable());

  it('takes gen_ai.tool.call.id from the provider’s call id when an adapter answers the call', async () => {
    const { registry } = deskRegistry();
    await answerChatToolCalls(registry, [
      { id: 'call_abc', type: 'function', function: { name: 'kb__search', arguments: '{"query":"refund"}' } },
      { id: 'call_def', type: 'function', function: { name: 'ticket__submit', arguments: '{}' } },
    ]);
    const ids = named('execute_tool kb.search').map((span) => span.attributes['gen_ai.tool.call.id']);
    expect(ids).toEqual(['call_abc']);
    const hidden = spans().filter((span) => span.attributes['gen_ai.tool.call.id'] === 'call_def');
    expect(hidden).toHaveLength(1);
    expect(hidden[0]?.attributes['error.type']).toBe('UNKNOWN_TOOL');
  });

  it('traces a model-exit read as an execute_tool span, with the tool’s own spans inside it', async () => {
    const { registry } = deskRegistry();
    const result = await registry.invokeReadOnly('kb__search', '{"query":"refunds"}', {
      scope: 'desk',
      callId: 'call_7',
    });
    expect(result).toEqual({ ok: true, data: { hits: ['refunds'] } });

    const [call] = named('execute_tool kb.search');
    const [query] = named('db.query');
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'kb.search',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Read kb.search.',
      'gen_ai.tool.call.id': 'call_7',
      'graded_tools.grade': 'read',
      'graded_tools.caller': 'model',
    });
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    expect(query?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(query?.spanContext().traceId).toBe(call?.spanContext().traceId);
  });

  it('nests under the span the caller has active (the agent’s turn)', async () => {
    const { registry } = deskRegistry();
    await trace.getTracer('app').startActiveSpan('invoke_agent desk', async (turn) => {
      await registry.invokeReadOnly('kb__search', { query: 'x' });
      turn.end();
    });
    const [turn] = named('invoke_agent desk');
    const [call] = named('execute_tool kb.search');
    expect(call?.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId);
  });

  it('says why a call was refused: error.type, the real refusal and an error status', async () => {
    const { registry } = deskRegistry();
    const result = await registry.invoke('crm.lookup', { query: 'ana' }, { scope: 'desk' });
    expect(result).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
    const span = only();
    expect(span.name).toBe('execute_tool crm.lookup');
    expect(span.attributes).toMatchObject({
      'error.type': 'FLAG_NOT_GRANTED',
      'graded_tools.refusal': 'FLAG_NOT_GRANTED',
      'graded_tools.caller': 'person',
      'graded_tools.grade': 'read',
    });
    // Without recordArguments the status says the code: a message may quote the input.
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'FLAG_NOT_GRANTED' });
  });

  it('records the real reason behind the UNKNOWN_TOOL the model is told for a hidden tool', async () => {
    const { registry, delivered } = deskRegistry();
    const hidden = await registry.invokeReadOnly('message__send', { text: 'hi' });
    expect(hidden).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    const span = only();
    expect(span.name).toBe('execute_tool message.send');
    expect(span.attributes).toMatchObject({
      'gen_ai.tool.name': 'message.send',
      'error.type': 'UNKNOWN_TOOL',
      'graded_tools.refusal': 'NOT_READ_ONLY',
      'graded_tools.grade': 'send',
      'graded_tools.caller': 'model',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(delivered).toEqual([]);

    exporter.reset();
    await registry.invokeReadOnly('crm__lookup', { query: 'ana' });
    expect(only().attributes).toMatchObject({
      'error.type': 'UNKNOWN_TOOL',
      'graded_tools.refusal': 'FLAG_NOT_GRANTED',
    });

    exporter.reset();
    await registry.invokeReadOnly('made__up', {}, { callId: 'call_9' });
    const madeUp = only();
    expect(madeUp.name).toBe('execute_tool made__up');
    expect(madeUp.attributes).toMatchObject({
      'gen_ai.tool.name': 'made__up',
      'gen_ai.tool.call.id': 'call_9',
      'error.type': 'UNKNOWN_TOOL',
      'graded_tools.refusal': 'UNKNOWN_TOOL',
    });
    expect(madeUp.attributes).not.toHaveProperty('graded_tools.grade');
  });

  it('marks failures that are not refusals with error.type only', async () => {
    const registry = new ToolRegistry({ telemetry: openTelemetry({ tracerProvider: provider }) }).register(
      readTool('kb.broken', {
        run: () => {
          throw new Error('index offline');
        },
      }).tool,
    );
    const invalid = await registry.invokeReadOnly('kb__broken', { query: 7 });
    expect(invalid).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    const failed = await registry.invokeReadOnly('kb__broken', { query: 'x' });
    expect(failed).toMatchObject({ ok: false, code: 'RUN_FAILED' });
    const [first, second] = spans();
    expect(first?.attributes['error.type']).toBe('INVALID_INPUT');
    expect(second?.attributes['error.type']).toBe('RUN_FAILED');
    expect(second?.status.message).toBe('RUN_FAILED');
    for (const span of spans()) expect(span.attributes).not.toHaveProperty('graded_tools.refusal');
  });

  it('follows a send: the ask with its confirmation id, then the confirm as its own span with its steps', async () => {
    const { registry, delivered } = deskRegistry();
    const asked = await registry.invoke('message.send', { text: 'Refunded.' }, { actor: 'agent-7' });
    if (!(asked.ok && asked.requiresConfirm)) throw new Error('expected a confirmation');

    const ask = only();
    expect(ask.name).toBe('execute_tool message.send');
    expect(ask.attributes).toMatchObject({
      'graded_tools.grade': 'send',
      'graded_tools.caller': 'person',
      'graded_tools.confirmation.id': asked.confirmationId,
      'graded_tools.confirmation.status': 'pending',
    });
    expect(ask.status.code).toBe(SpanStatusCode.UNSET);
    expect(ask.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'graded_tools.confirmation.created',
        {
          'graded_tools.confirmation.id': asked.confirmationId,
          'graded_tools.confirmation.by': 'agent-7',
          'graded_tools.confirmation.decision': 'created',
        },
      ],
    ]);

    exporter.reset();
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent.ok).toBe(true);
    expect(delivered).toHaveLength(1);
    const [confirm] = named('execute_tool message.send');
    const [smtp] = named('smtp.send');
    expect(confirm?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'message.send',
      'graded_tools.caller': 'person',
      'graded_tools.grade': 'send',
      'graded_tools.confirmation.step': 'confirm',
      'graded_tools.confirmation.id': asked.confirmationId,
      'graded_tools.confirmation.status': 'delivered',
      'graded_tools.confirmation.decision': 'confirmed',
      'graded_tools.confirmation.held': false,
      'graded_tools.confirmation.cancelled': false,
      'graded_tools.confirmation.escalated': false,
    });
    // No names on the span: who decided is on its step events only (ids, as before).
    expect(confirm?.attributes['graded_tools.confirmation.approvals']).toBeUndefined();
    expect(confirm && eventNames(confirm)).toEqual([
      'graded_tools.confirmation.confirmed',
      'graded_tools.confirmation.delivered',
    ]);
    expect(smtp?.parentSpanContext?.spanId).toBe(confirm?.spanContext().spanId);

    // A second confirm is refused: an error span, and no step happened.
    exporter.reset();
    const again = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    expect(again).toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
    const refused = only();
    expect(refused.attributes).toMatchObject({
      'error.type': 'ALREADY_DECIDED',
      'graded_tools.confirmation.status': 'delivered',
      'graded_tools.confirmation.decision': 'refused',
    });
    expect(refused.events).toEqual([]);
    expect(delivered).toHaveLength(1);
  });

  it('traces a reject as its own span, with the rejected step', async () => {
    const { registry, delivered } = deskRegistry();
    const asked = await registry.invoke('message.send', { text: 'Wrong.' });
    if (!(asked.ok && asked.requiresConfirm)) throw new Error('expected a confirmation');
    exporter.reset();
    const rejected = await registry.reject(asked.confirmationId, { rejectedBy: 'lead-2', reason: 'No.' });
    expect(rejected.ok).toBe(true);
    const span = only();
    expect(span.name).toBe('reject message.send');
    expect(span.attributes).toMatchObject({
      'graded_tools.confirmation.step': 'reject',
      'graded_tools.confirmation.status': 'rejected',
    });
    expect(span.attributes).not.toHaveProperty('gen_ai.operation.name');
    expect(eventNames(span)).toEqual(['graded_tools.confirmation.rejected']);
    expect(delivered).toEqual([]);

    exporter.reset();
    await registry.confirm('no-such-confirmation', { approvedBy: 'lead-2' });
    expect(only().attributes).toMatchObject({
      'error.type': 'CONFIRMATION_NOT_FOUND',
      'graded_tools.confirmation.id': 'no-such-confirmation',
    });
  });

  it('keeps arguments and results out of spans unless the app opts in', async () => {
    const quiet = deskRegistry();
    await quiet.registry.invokeReadOnly('kb__search', '{"query":"ana@example.com"}');
    const asked = await quiet.registry.invoke('message.send', { text: 'secret' });
    if (!(asked.ok && asked.requiresConfirm)) throw new Error('expected a confirmation');
    await quiet.registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' });
    for (const span of spans()) {
      expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
      expect(span.attributes).not.toHaveProperty('gen_ai.tool.call.result');
      expect(JSON.stringify(span.attributes)).not.toMatch(/ana@example\.com|secret/);
    }

    exporter.reset();
    const loud = deskRegistry({ recordArguments: true, recordResults: true });
    await loud.registry.invokeReadOnly('kb__search', '{"query":"ana@example.com"}');
    await loud.registry.invokeReadOnly('kb__search', { query: 'as object' });
    const [raw, object] = named('execute_tool kb.search');
    expect(raw?.attributes['gen_ai.tool.call.arguments']).toBe('{"query":"ana@example.com"}');
    expect(raw?.attributes['gen_ai.tool.call.result']).toBe('{"hits":["ana@example.com"]}');
    expect(object?.attributes['gen_ai.tool.call.arguments']).toBe('{"query":"as object"}');

    exporter.reset();
    const sending = await loud.registry.invoke('message.send', { text: 'hello' });
    if (!(sending.ok && sending.requiresConfirm)) throw new Error('expected a confirmation');
    await loud.registry.confirm(sending.confirmationId, { approvedBy: 'lead-2' });
    const [ask, confirm] = named('execute_tool message.send');
    expect(ask?.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"hello"}');
    expect(confirm?.attributes['gen_ai.tool.call.arguments']).toBe('{"draft":{"text":"hello"}}');
    expect(confirm?.attributes['gen_ai.tool.call.result']).toBe('{"sent":{"draft":{"text":"hello"}}}');
  });
});

describe('a sampled-out call', () => {
  it('records nothing, but carries its trace so what the tool traces is sampled out with it', async () => {
    const dropping = new TracerProvider({
      sampler: new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    trace.setGlobalTracerProvider(provider);
    try {
      const registry = new ToolRegistry({ telemetry: openTelemetry({ tracerProvider: dropping }) }).register(
        readTool('kb.search', {
          run: () =>
            // The app's provider samples by parent: a child of a dropped span is dropped too.
            trace.getTracer('app').startActiveSpan('db.query', (span) => {
              const recording = span.isRecording();
              span.end();
              return { recording };
            }),
        }).tool,
      );
      expect(await registry.invokeReadOnly('kb__search', { query: 'x' })).toEqual({
        ok: true,
        data: { recording: false },
      });
    } finally {
      trace.disable();
    }
    expect(spans()).toEqual([]);
  });
});

describe('graded-tools/opentelemetry and bundles (#25)', () => {
  beforeAll(() => trace.setGlobalTracerProvider(provider));
  afterAll(() => trace.disable());

  it("each step's span of a bundle decision names the bundle and the step's place", async () => {
    const { registry } = deskRegistry();
    const bundle = await registry.proposeBundle(
      [
        { tool: 'message.send', input: { text: 'first' } },
        { tool: 'message.send', input: { text: 'second' } },
      ],
      { actor: 'agent-7' },
    );
    if (!bundle.ok) throw new Error(bundle.error);
    exporter.reset();
    const decided = await registry.confirmBundle(bundle.bundleId, {
      approvedBy: 'lead-2',
      digest: bundle.digest,
    });
    expect(decided.ok).toBe(true);
    const steps = named('execute_tool message.send').filter(
      (span) => span.attributes['graded_tools.bundle.id'] !== undefined,
    );
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(new Set(steps.map((span) => span.attributes['graded_tools.bundle.id']))).toEqual(
      new Set([bundle.bundleId]),
    );
    expect(new Set(steps.map((span) => span.attributes['graded_tools.bundle.step']))).toEqual(
      new Set([0, 1]),
    );
  });
});

describe('without a tracer provider, or with a broken telemetry object', () => {
  it('answers every call exactly as an untraced registry does', async () => {
    const traced = new ToolRegistry({ telemetry: openTelemetry() }).register(readTool().tool);
    const plain = new ToolRegistry().register(readTool().tool);
    for (const [name, args] of [
      ['kb__search', '{"query":"a"}'],
      ['kb__search', '{"query":1}'],
      ['nope', '{}'],
    ] as const) {
      expect(await traced.invokeReadOnly(name, args)).toEqual(await plain.invokeReadOnly(name, args));
    }
    expect(spans()).toEqual([]);
  });

  it('starts tracing once an SDK registers a provider globally, even after it was created', async () => {
    const registry = new ToolRegistry({ telemetry: openTelemetry() }).register(readTool().tool);
    await registry.invokeReadOnly('kb__search', { query: 'before' });
    expect(spans()).toEqual([]);
    trace.setGlobalTracerProvider(provider);
    try {
      await registry.invokeReadOnly('kb__search', { query: 'after' });
    } finally {
      trace.disable();
    }
    expect(only().name).toBe('execute_tool kb.search');
  });

  it('never lets a telemetry object that throws change a call', async () => {
    const boom = () => {
      throw new Error('exporter down');
    };
    const brokenSpan = { within: boom, end: boom };
    const sender = sendTool();
    for (const telemetry of [
      { startToolSpan: boom, startConfirmationSpan: boom, recordConfirmation: boom },
      { startToolSpan: () => brokenSpan, startConfirmationSpan: () => brokenSpan, recordConfirmation: boom },
    ]) {
      const registry = new ToolRegistry({ telemetry }).register(readTool().tool).register(sender.tool);
      expect(await registry.invokeReadOnly('kb__search', { query: 'a' })).toMatchObject({ ok: true });
      const asked = await registry.invoke('message.send', { text: 'x' });
      if (!(asked.ok && asked.requiresConfirm))
        throw new Error(`expected a confirmation: ${JSON.stringify(asked)}`);
      expect(await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2' })).toMatchObject({
        ok: true,
      });
    }
    expect(sender.delivered).toHaveLength(2);
  });

  it('refuses a telemetry option that is not one, at construction', () => {
    expect(() => new ToolRegistry({ telemetry: {} as never })).toThrow(ToolDefinitionError);
  });
});

describe('openTelemetry without recordArguments: no input text in a span', () => {
  it('keeps the JSON parse error (which quotes the arguments) out of the status, attributes and events', async () => {
    const { registry } = deskRegistry();
    await answerChatToolCalls(registry, [
      { id: 'call_pw', type: 'function', function: { name: 'kb__search', arguments: '{"pw": hunter2!}' } },
    ]);
    const finished = spans();
    expect(finished.length).toBeGreaterThan(0);
    for (const span of finished) {
      expect(
        JSON.stringify({ status: span.status, attributes: span.attributes, events: span.events }),
      ).not.toContain('hunter2');
    }
    const failed = finished.find((span) => span.status.code === SpanStatusCode.ERROR);
    expect(failed?.attributes['error.type']).toBeDefined();
    expect(failed?.status.message).toBe(failed?.attributes['error.type']);
  });

  it('says the whole message when recordArguments is on', async () => {
    const { registry } = deskRegistry({ recordArguments: true });
    await answerChatToolCalls(registry, [
      { id: 'call_pw', type: 'function', function: { name: 'kb__search', arguments: '{"pw": hunter2!}' } },
    ]);
    const failed = spans().find((span) => span.status.code === SpanStatusCode.ERROR);
    expect(failed?.status.message).toContain('hunter2');
  });
});
