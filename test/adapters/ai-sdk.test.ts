import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { defineTool, type ReadOnlyResult, ToolRegistry } from 'graded-tools';
import { sanitizeAiSdkMessages, toAiSdkTools } from 'graded-tools/ai-sdk';
import { describe, expect, it } from 'vitest';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  PROVIDER_NAME_RULE,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';
import { shownResults, text, toolCalls } from './support/mock-model.js';

describe('toAiSdkTools', () => {
  it('is exactly the model list, keyed by wire name, with a null prototype', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const tools = toAiSdkTools(registry, ctx);
      expect(Object.keys(tools)).toEqual(registry.toFunctionSchemas(ctx).map((schema) => schema.name));
      expect(Object.getPrototypeOf(tools)).toBeNull();
      for (const name of Object.keys(tools)) {
        expect(name).toMatch(PROVIDER_NAME_RULE);
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(name);
      }
    }
  });

  it('runs generateText end to end: reads run, everything else comes back as an error the model sees', async () => {
    const desk = createDesk();
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls([
          ['c1', 'session__fetch', '{"conversationId":"c-1001"}'],
          ['c2', 'kb__search', '{"query":"refund"}'],
          ['c3', 'ticket__submit', '{"conversationId":"c-1001","summary":"refund"}'],
          ['c4', 'message__send', '{"conversationId":"c-1001","text":"hi"}'],
          ['c5', 'constructor', '{}'],
          ['c6', '__proto__', '{}'],
          ['c7', 'session__fetch', '{"conversationId":'],
          ['c8', 'session__fetch', '{"conversationId":42}'],
          ['c9', 'kb search', '{}'],
          ['c10', '', '{}'],
        ]),
        text('Done.'),
      ],
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools(desk.registry, DESK_CONTEXT),
      stopWhen: stepCountIs(4),
      prompt: 'Help Ana.',
    });
    expect(result.text).toBe('Done.');
    expect(model.doGenerateCalls).toHaveLength(2);
    for (const call of model.doGenerateCalls) {
      expect(call.tools?.map((tool) => tool.name)).toEqual(['session__fetch']);
    }
    const shown = shownResults(model.doGenerateCalls[1]);
    expect(shown.get('c1')).toEqual({
      type: 'json',
      value: { conversationId: 'c-1001', customer: 'ana@example.com', messages: expect.any(Array) },
    });
    for (const id of ['c2', 'c3', 'c4', 'c5', 'c6', 'c9', 'c10']) {
      expect(shown.get(id)?.type).toBe('error-text');
      // The AI SDK's own NoSuchToolError: it lists the set, which holds the model's tools only.
      expect(String(shown.get(id)?.value)).toMatch(/unavailable tool .*Available tools: session__fetch\.$/);
    }
    expect(shown.get('c7')?.type).toBe('error-text');
    expect(shown.get('c8')).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/does not match its schema/),
    });
    const firstStep = result.steps[0];
    const okResult = firstStep?.toolResults.find((toolResult) => toolResult.toolCallId === 'c1');
    expect(okResult?.output).toMatchObject({ ok: true, data: { customer: 'ana@example.com' } });
    const failed = firstStep?.toolResults.find((toolResult) => toolResult.toolCallId === 'c8');
    expect(failed?.output).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    expect(desk.events.map((event) => event.tool).sort()).toEqual(['session.fetch', 'session.fetch']);
  });

  it('with sanitizeAiSdkMessages in prepareStep, replays repeated ids and illegal names legally', async () => {
    const desk = createDesk();
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls([
          ['dup', 'session__fetch', '{"conversationId":"c-1001"}'],
          ['dup', 'session__fetch', '{"conversationId":"c-1002"}'],
          ['odd', 'kb search!', '{}'],
          ['bad', 'session__fetch', '{"conversationId":'],
        ]),
        text('Done.'),
      ],
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools(desk.registry, DESK_CONTEXT),
      prepareStep: ({ messages }) => ({ messages: sanitizeAiSdkMessages(messages) }),
      stopWhen: stepCountIs(4),
      prompt: 'Go.',
    });
    expect(result.text).toBe('Done.');
    const prompt = model.doGenerateCalls[1]?.prompt ?? [];
    const calls = prompt.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'tool-call') : [],
    );
    expect(calls.map((call) => [call.toolCallId, call.toolName])).toEqual([
      ['dup', 'session__fetch'],
      ['call_gt_1', 'session__fetch'],
      ['odd', 'invalid_tool_name'],
      ['bad', 'session__fetch'],
    ]);
    expect(calls[3]?.input).toEqual({});
    const shown = shownResults(model.doGenerateCalls[1]);
    expect([...shown.keys()]).toEqual(['dup', 'call_gt_1', 'odd', 'bad']);
    expect(shown.get('dup')).toMatchObject({ value: { customer: 'ana@example.com' } });
    expect(shown.get('call_gt_1')).toMatchObject({ value: { customer: 'li@example.com' } });
    for (const name of calls.map((call) => call.toolName)) expect(name).toMatch(PROVIDER_NAME_RULE);
    expect(sanitizeAiSdkMessages(sanitizeAiSdkMessages(result.response.messages))).toEqual(
      sanitizeAiSdkMessages(result.response.messages),
    );
  });

  it('sanitizeAiSdkMessages keeps each result with its own call when one id is reused for two tools', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'same',
            toolName: 'session__fetch',
            input: { conversationId: 'c-1' },
          },
          { type: 'tool-call', toolCallId: 'same', toolName: 'kb__search', input: { query: 'refund' } },
        ],
      },
      {
        role: 'tool',
        content: [
          // The results come back in the other order: each must still find its own call.
          {
            type: 'tool-result',
            toolCallId: 'same',
            toolName: 'kb__search',
            output: { type: 'text', value: 'kb' },
          },
          {
            type: 'tool-result',
            toolCallId: 'same',
            toolName: 'session__fetch',
            output: { type: 'text', value: 'session' },
          },
        ],
      },
    ];
    const pairs = (list: ModelMessage[]) => {
      const calls = new Map<string, string>();
      const results: [name: string, call: string | undefined, output: unknown][] = [];
      for (const message of list) {
        if (typeof message.content === 'string') continue;
        for (const part of message.content) {
          if (part.type === 'tool-call') calls.set(part.toolCallId, part.toolName);
          if (part.type === 'tool-result')
            results.push([part.toolName, calls.get(part.toolCallId), part.output]);
        }
      }
      return { calls, results };
    };
    const sanitized = sanitizeAiSdkMessages(messages);
    const { calls, results } = pairs(sanitized);
    expect(calls.size).toBe(2);
    expect(results).toEqual([
      ['kb__search', 'kb__search', { type: 'text', value: 'kb' }],
      ['session__fetch', 'session__fetch', { type: 'text', value: 'session' }],
    ]);
    expect(sanitizeAiSdkMessages(sanitized)).toEqual(sanitized);
  });

  it('bounds concurrency and answers calls past maxCallsPerTurn in one step without running them', async () => {
    let inFlight = 0;
    let most = 0;
    let runs = 0;
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'slow.read',
        description: 'Waits a tick.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: async () => {
          runs += 1;
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight -= 1;
          return runs;
        },
      }),
    );
    const calls = Array.from({ length: 200 }, (_, i): [string, string, string] => [
      `c${i}`,
      'slow__read',
      '{}',
    ]);
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(calls), text('ok')] });
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry, {}, { concurrency: 2, maxCallsPerTurn: 20 }),
      stopWhen: stepCountIs(3),
      prompt: 'Go.',
    });
    expect(most).toBe(2);
    expect(runs).toBe(20);
    const outputs =
      result.steps[0]?.toolResults.map((toolResult) => toolResult.output as ReadOnlyResult) ?? [];
    expect(outputs.filter((output) => !output.ok && output.code === 'TOO_MANY_CALLS')).toHaveLength(180);
    expect(shownResults(model.doGenerateCalls[1]).size).toBe(200);
  });

  it('cuts long results for the model but keeps them whole for the app', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'big.read',
        description: 'Big.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'q'.repeat(4_000),
      }),
    );
    const model = new MockLanguageModelV3({
      doGenerate: [toolCalls([['c1', 'big__read', '{}']]), text('ok')],
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools(registry, {}, { maxResultChars: 300 }),
      stopWhen: stepCountIs(3),
      prompt: 'Go.',
    });
    const shown = shownResults(model.doGenerateCalls[1]).get('c1');
    expect(shown?.type).toBe('text');
    expect(String(shown?.value).length).toBeLessThanOrEqual(300);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ ok: true, data: 'q'.repeat(4_000) });
  });

  it('passes the AI SDK abort signal to the tool', async () => {
    const seen: AbortSignal[] = [];
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'wait.read',
        description: 'Waits for abort.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: (_input, ctx) =>
          new Promise((resolve) => {
            seen.push(ctx.signal);
            ctx.signal.addEventListener('abort', () => resolve('stopped'));
          }),
      }),
    );
    const tools = toAiSdkTools(registry);
    const controller = new AbortController();
    const running = tools.wait__read?.execute?.(
      {},
      { toolCallId: 'c1', messages: [], abortSignal: controller.signal },
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await running).toMatchObject({ ok: false, code: 'ABORTED' });
    expect(seen[0]?.aborted).toBe(true);
  });
});
