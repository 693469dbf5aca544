import fc from 'fast-check';
import { defineTool, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import {
  answerChatToolCalls,
  answerResponsesFunctionCalls,
  INVALID_TOOL_NAME,
  sanitizeChatAssistantMessage,
  sanitizeResponsesOutput,
  toChatCompletionTools,
  toResponsesTools,
} from 'graded-tools/openai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  HOSTILE_NAMES,
  PROVIDER_NAME_RULE,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server.js';
import { chatRequestProblems, responsesRequestProblems } from './support/provider-rules.js';

type ChatToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessage;

const call = (id: unknown, name: unknown, args: unknown = '{}'): ChatToolCall =>
  ({ id, type: 'function', function: { name, arguments: args } }) as ChatToolCall;

const assistant = (toolCalls: ChatToolCall[]): ChatMessage => ({
  role: 'assistant',
  content: null,
  refusal: null,
  tool_calls: toolCalls,
});

function parseError(content: unknown): { code: string; message: string } {
  const parsed = JSON.parse(String(content));
  expect(parsed).toHaveProperty('error');
  return parsed.error;
}

function chatCompletion(message: Partial<ChatMessage>) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
        logprobs: null,
        message: { role: 'assistant', content: null, refusal: null, ...message },
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('toChatCompletionTools / toResponsesTools', () => {
  it('emit exactly the model list, under provider-legal names', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }, { scope: 'desk', flags: { kb: true } }]) {
      const expected = registry.toFunctionSchemas(ctx).map((schema) => schema.name);
      const chat = toChatCompletionTools(registry, ctx);
      const responses = toResponsesTools(registry, ctx);
      expect(chat.map((tool) => tool.function.name)).toEqual(expected);
      expect(responses.map((tool) => tool.name)).toEqual(expected);
      for (const name of expected) expect(name).toMatch(PROVIDER_NAME_RULE);
      expect(responses.every((tool) => tool.strict === false)).toBe(true);
      expect(chat.every((tool) => tool.function.strict === undefined)).toBe(true);
    }
    expect(
      toChatCompletionTools(registry, { scope: 'desk', flags: { kb: true } }).map((t) => t.function.name),
    ).toEqual(['session__fetch', 'kb__search']);
  });

  it('never lists a write or send tool, whatever the context (property)', () => {
    const { registry } = createDesk();
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom('desk', 'admin', '', '__proto__'), { nil: undefined }),
        fc.dictionary(fc.constantFrom('kb', 'admin', '__proto__', 'constructor'), fc.boolean()),
        (scope, flags) => {
          const ctx = scope === undefined ? { flags } : { scope, flags };
          const names = [
            ...toChatCompletionTools(registry, ctx).map((tool) => tool.function.name),
            ...toResponsesTools(registry, ctx, { strict: true }).map((tool) => tool.name),
          ];
          return names.every((name) => !WRITE_AND_SEND_WIRE_NAMES.includes(name));
        },
      ),
    );
  });

  it('refuses more than 128 tools with a clear error instead of an HTTP 400', () => {
    const registry = new ToolRegistry();
    for (let i = 0; i < 129; i += 1) {
      registry.register(
        defineTool({
          name: `bulk.tool_${i}`,
          description: 'A read tool.',
          sideEffect: 'read',
          inputSchema: { type: 'object' },
          run: () => i,
        }),
      );
    }
    expect(() => toChatCompletionTools(registry)).toThrow(ToolDefinitionError);
    expect(() => toResponsesTools(registry)).toThrow(/at most 128 tools.*129/);
    try {
      toChatCompletionTools(registry);
    } catch (error) {
      expect((error as ToolDefinitionError).code).toBe('TOO_MANY_TOOLS');
    }
    registry.unregister('bulk.tool_0');
    expect(toChatCompletionTools(registry)).toHaveLength(128);
  });

  it('refuses a root anyOf, which OpenAI rejects in every mode, naming the tool', () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'crm.lookup',
        description: 'Look up by id or email.',
        sideEffect: 'read',
        inputSchema: {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string' } },
          anyOf: [{ required: ['id'] }, { required: ['email'] }],
        },
        run: () => null,
      }),
    );
    expect(() => toChatCompletionTools(registry)).toThrow(/Tool "crm\.lookup".*`anyOf` at the root/);
  });

  it('throws INVALID_OPTION for an out-of-range option', () => {
    const { registry } = createDesk();
    expect(() => toChatCompletionTools(registry, {}, { maxResultChars: 10 })).toThrow(/maxResultChars/);
    expect(() => toResponsesTools(registry, {}, { concurrency: 0 })).toThrow(ToolDefinitionError);
  });
});

describe('answerChatToolCalls', () => {
  it('runs a legal call and sends the JSON of its data', async () => {
    const { registry } = createDesk();
    const [message] = await answerChatToolCalls(
      registry,
      assistant([call('call_1', 'session__fetch', '{"conversationId":"c-1002"}')]),
      DESK_CONTEXT,
    );
    expect(message).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: JSON.stringify({
        conversationId: 'c-1002',
        customer: 'li@example.com',
        messages: ['How do I export my data?'],
      }),
    });
  });

  it.each(HOSTILE_NAMES)(
    'answers a $label name with UNKNOWN_TOOL, runs nothing, replays a legal name',
    async ({ name }) => {
      const desk = createDesk();
      const message = assistant([
        call('call_1', name, '{"conversationId":"c-1001","text":"hi","summary":"abc"}'),
      ]);
      const [answer] = await answerChatToolCalls(desk.registry, message, DESK_CONTEXT);
      const error = parseError(answer?.content);
      expect(error.code).toBe('UNKNOWN_TOOL');
      expect(error.message).toContain('Available tools: session__fetch.');
      // The model may hear its own (legal) name again, never about a tool it may not call.
      expect(error.message.split('Available tools:')[1]).toBe(' session__fetch.');
      const replay = sanitizeChatAssistantMessage(message);
      const replayed = replay.tool_calls?.[0];
      expect(replayed?.type === 'function' && replayed.function.name).toMatch(PROVIDER_NAME_RULE);
      if (typeof name !== 'string' || !PROVIDER_NAME_RULE.test(name)) {
        expect(replayed?.type === 'function' && replayed.function.name).toBe(INVALID_TOOL_NAME);
        expect(error.message).toContain(`"${INVALID_TOOL_NAME}"`);
      }
      expect(chatRequestProblems({ messages: [replay, answer] })).toEqual([]);
      expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    },
  );

  it('answers malformed JSON and schema-failing arguments with errors the model can fix', async () => {
    const { registry } = createDesk();
    const message = assistant([
      call('a', 'session__fetch', '{"conversationId": '),
      call('b', 'session__fetch', '{"conversationId": 42}'),
      call('c', 'session__fetch', '[1,2]'),
      call('d', 'session__fetch', '{"conversationId":"c-1001","extra":true}'),
      call('e', 'session__fetch', { conversationId: 'c-1001' }),
    ]);
    const answers = await answerChatToolCalls(registry, message, DESK_CONTEXT);
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(parseError(answers[0]?.content)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(parseError(answers[0]?.content).message).toMatch(/not valid JSON/);
    expect(parseError(answers[1]?.content)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(parseError(answers[1]?.content).message).toMatch(/conversationId/);
    expect(parseError(answers[2]?.content)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(parseError(answers[3]?.content)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(String(answers[4]?.content))).toMatchObject({ conversationId: 'c-1001' });
    const replay = sanitizeChatAssistantMessage(message);
    expect(replay.tool_calls?.map((c) => c.type === 'function' && c.function.arguments)).toEqual([
      '{}',
      '{"conversationId": 42}',
      '{}',
      '{"conversationId":"c-1001","extra":true}',
      '{"conversationId":"c-1001"}',
    ]);
    expect(chatRequestProblems({ messages: [replay, ...answers] })).toEqual([]);
  });

  it('makes duplicate, missing and odd call ids unique, consistently with the replay', async () => {
    const { registry } = createDesk();
    const message = assistant([
      call('same', 'session__fetch', '{"conversationId":"c-1001"}'),
      call('same', 'session__fetch', '{"conversationId":"c-1002"}'),
      call(undefined, 'session__fetch', '{"conversationId":"c-1001"}'),
      call('', 'session__fetch'),
      call('has space', 'session__fetch'),
      call('call_gt_5', 'session__fetch'),
      call(7, 'session__fetch'),
    ]);
    const answers = await answerChatToolCalls(registry, message, DESK_CONTEXT);
    const replay = sanitizeChatAssistantMessage(message);
    const replayIds = replay.tool_calls?.map((c) => c.id);
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(replayIds);
    expect(new Set(replayIds).size).toBe(7);
    expect(replayIds?.[0]).toBe('same');
    expect(replayIds?.[5]).toBe('call_gt_5');
    expect(replayIds?.[1]).toBe('call_gt_1');
    expect(JSON.parse(String(answers[1]?.content))).toMatchObject({ conversationId: 'c-1002' });
    expect(chatRequestProblems({ messages: [replay, ...answers] })).toEqual([]);
  });

  it('answers hundreds of calls in order, one per id, running at most maxCallsPerTurn', async () => {
    const desk = createDesk();
    const calls = Array.from({ length: 300 }, (_, i) =>
      call(`call_${i}`, i % 3 === 0 ? 'ticket__submit' : 'session__fetch', '{"conversationId":"c-1001"}'),
    );
    const answers = await answerChatToolCalls(desk.registry, assistant(calls), DESK_CONTEXT);
    expect(answers.map((answer) => answer.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(
      answers
        .slice(0, 128)
        .every((answer, i) => String(answer.content).includes(i % 3 === 0 ? 'UNKNOWN_TOOL' : 'ana@')),
    ).toBe(true);
    expect(answers.slice(128).every((answer) => parseError(answer.content).code === 'TOO_MANY_CALLS')).toBe(
      true,
    );
    expect(desk.events).toHaveLength(128);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    const all = await answerChatToolCalls(desk.registry, assistant(calls), DESK_CONTEXT, {
      maxCallsPerTurn: 300,
    });
    expect(all.filter((answer) => String(answer.content).includes('TOO_MANY_CALLS'))).toHaveLength(0);
  });

  it('runs calls with at most `concurrency` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'slow.read',
        description: 'Waits a tick.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight -= 1;
          return 'ok';
        },
      }),
    );
    const calls = Array.from({ length: 20 }, (_, i) => call(`c${i}`, 'slow__read'));
    await answerChatToolCalls(registry, calls, {}, { concurrency: 3 });
    expect(most).toBe(3);
    most = 0;
    await answerChatToolCalls(registry, calls, {}, { concurrency: 1 });
    expect(most).toBe(1);
  });

  it('cuts long results at maxResultChars with a marker', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'big.read',
        description: 'Returns a lot.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'x'.repeat(5_000),
      }),
    );
    const [answer] = await answerChatToolCalls(
      registry,
      [call('c', 'big__read')],
      {},
      { maxResultChars: 1_000 },
    );
    const content = String(answer?.content);
    expect(content.length).toBeLessThanOrEqual(1_000);
    expect(content).toMatch(/…\[truncated: \d+ more characters\]$/);
    const [whole] = await answerChatToolCalls(registry, [call('c', 'big__read')]);
    expect(String(whole?.content)).toBe(JSON.stringify('x'.repeat(5_000)));
  });

  it('answers a result that is not JSON with RUN_FAILED instead of throwing', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'odd.read',
        description: 'Returns a BigInt.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => ({ big: 10n }),
      }),
    );
    const [answer] = await answerChatToolCalls(registry, [call('c', 'odd__read')]);
    expect(parseError(answer?.content)).toMatchObject({ code: 'RUN_FAILED' });
  });

  it('survives garbage where the message should be', async () => {
    const { registry } = createDesk();
    const garbage = [
      null,
      undefined,
      {},
      { tool_calls: 'x' },
      { tool_calls: [null, 3, 'x', { function: null }] },
    ];
    for (const message of garbage) {
      const answers = await answerChatToolCalls(registry, message as never, DESK_CONTEXT);
      const replay = sanitizeChatAssistantMessage(message as never);
      expect(answers.map((a) => a.tool_call_id)).toEqual(replay.tool_calls?.map((c) => c.id) ?? []);
      expect(chatRequestProblems({ messages: [replay, ...answers] })).toEqual([]);
    }
  });

  it('replays custom tool calls as custom, answered like any unknown tool', async () => {
    const { registry } = createDesk();
    const message = assistant([{ id: 'x1', type: 'custom', custom: { name: 'shell', input: 'rm -rf /' } }]);
    const [answer] = await answerChatToolCalls(registry, message, DESK_CONTEXT);
    expect(parseError(answer?.content).code).toBe('UNKNOWN_TOOL');
    expect(sanitizeChatAssistantMessage(message).tool_calls).toEqual([
      { id: 'x1', type: 'custom', custom: { name: 'shell', input: 'rm -rf /' } },
    ]);
  });

  it('keeps results and replay consistent for any calls a model can send (property)', async () => {
    const name = fc.oneof(
      fc.constantFrom('session__fetch', 'kb__search', 'ticket__submit', 'message__send', 'message.send', ''),
      fc.string({ maxLength: 70 }),
      fc.constant(undefined),
    );
    const id = fc.oneof(
      fc.constantFrom('a', 'b', 'call_gt_0', 'call_gt_1', ''),
      fc.string({ maxLength: 8 }),
      fc.constant(undefined),
    );
    const args = fc.oneof(
      fc.constantFrom('{"conversationId":"c-1001"}', '{', '', 'null', '{"conversationId":null}'),
      fc.json(),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(id, name, args), { maxLength: 12 }), async (raw) => {
        const desk = createDesk();
        const message = assistant(raw.map(([i, n, a]) => call(i, n, a)));
        const answers = await answerChatToolCalls(desk.registry, message, DESK_CONTEXT);
        const replay = sanitizeChatAssistantMessage(message);
        expect(answers).toHaveLength(raw.length);
        expect(chatRequestProblems({ messages: raw.length === 0 ? [] : [replay, ...answers] })).toEqual([]);
        expect(assertNothingWrittenOrSent(desk)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('strict mode', () => {
  it('sends strict schemas and strips the nulls it makes the model send', async () => {
    const { registry } = createDesk();
    const ctx = { flags: { kb: true } };
    const [kb] = toChatCompletionTools(registry, ctx, { strict: true }).filter(
      (t) => t.function.name === 'kb__search',
    );
    expect(kb?.function.strict).toBe(true);
    expect(kb?.function.parameters).toMatchObject({
      required: ['query', 'limit'],
      additionalProperties: false,
      properties: { limit: { type: ['integer', 'null'] } },
    });
    const message = assistant([call('s', 'kb__search', '{"query":"refund","limit":null}')]);
    const [strictAnswer] = await answerChatToolCalls(registry, message, ctx, { strict: true });
    expect(JSON.parse(String(strictAnswer?.content))).toEqual([
      expect.objectContaining({ id: 'kb-1', title: 'Refunds for duplicate charges' }),
    ]);
    const [plainAnswer] = await answerChatToolCalls(registry, message, ctx);
    expect(parseError(plainAnswer?.content).code).toBe('INVALID_INPUT');
  });

  it('answers arguments nested 20,000 deep with an error for that call, the others still answered', async () => {
    const { registry } = createDesk();
    const ctx = { flags: { kb: true } };
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const raw = `{"query":"x","limit":null,"z":${deep}}`;
    const good = '{"query":"refund","limit":null}';
    const chat = await answerChatToolCalls(
      registry,
      assistant([call('d', 'kb__search', raw), call('g', 'kb__search', good)]),
      ctx,
      { strict: true },
    );
    expect(chat.map((message) => message.tool_call_id)).toEqual(['d', 'g']);
    expect(parseError(chat[0]?.content)).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringMatching(/nested deeper than 64 levels/),
    });
    expect(JSON.parse(String(chat[1]?.content))[0]).toMatchObject({ id: 'kb-1' });
    const responses = await answerResponsesFunctionCalls(
      registry,
      [
        { type: 'function_call', call_id: 'd', name: 'kb__search', arguments: raw },
        { type: 'function_call', call_id: 'g', name: 'kb__search', arguments: good },
      ],
      ctx,
      { strict: true },
    );
    expect(parseError(responses[0]?.output).code).toBe('INVALID_ARGUMENTS');
    expect(JSON.parse(String(responses[1]?.output))[0]).toMatchObject({ id: 'kb-1' });
  });

  it('refuses a keyword strict mode lacks, naming the tool and the keyword', () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'tags.search',
        description: 'Search tags.',
        sideEffect: 'read',
        inputSchema: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
        },
        run: () => [],
      }),
    );
    expect(() => toChatCompletionTools(registry, {}, { strict: true })).toThrow(
      /Tool "tags\.search": OpenAI strict mode does not support the keyword `uniqueItems` \(at \/properties\/tags\)/,
    );
    expect(toChatCompletionTools(registry)).toHaveLength(1);
  });
});

describe('Chat Completions round trip with the official client', () => {
  it('sends only legal read tools and accepts the follow-up with results for every call', async () => {
    const desk = createDesk();
    const hostileCalls = [
      call('call_ok', 'session__fetch', '{"conversationId":"c-1001"}'),
      ...HOSTILE_NAMES.map(({ name }, i) => call(`call_h${i}`, name, '{"conversationId":"c-1001"}')),
      call('call_ok', 'session__fetch', '{"conversationId":"c-1002"}'),
      call('call_bad_json', 'session__fetch', '{"conversationId":'),
      call('call_bad_input', 'session__fetch', '{"conversationId":1}'),
    ];
    server = await startLoopbackServer((request, index) => {
      const problems = chatRequestProblems(request.body);
      if (problems.length > 0) return { status: 400, body: { error: { message: problems.join('; ') } } };
      return index === 0
        ? { body: chatCompletion({ tool_calls: hostileCalls }) }
        : { body: chatCompletion({ content: 'Done.' }) };
    });
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Help Ana.' },
    ];
    const tools = toChatCompletionTools(desk.registry, DESK_CONTEXT);
    let final = '';
    for (let turn = 0; turn < 4; turn += 1) {
      const completion = await client.chat.completions.create({ model: 'test-model', messages, tools });
      const message = completion.choices[0]?.message;
      if (message === undefined) break;
      messages.push(sanitizeChatAssistantMessage(message));
      if (!message.tool_calls?.length) {
        final = message.content ?? '';
        break;
      }
      messages.push(...(await answerChatToolCalls(desk.registry, message, DESK_CONTEXT)));
    }
    expect(final).toBe('Done.');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
        'session__fetch',
      ]);
      expect(chatRequestProblems(request.body)).toEqual([]);
    }
    const followUp = server.requests[1]?.body.messages as { role: string; content: string }[];
    const toolMessages = followUp.filter((message) => message.role === 'tool');
    expect(toolMessages).toHaveLength(hostileCalls.length);
    expect(JSON.parse(toolMessages[0]?.content ?? '')).toMatchObject({ customer: 'ana@example.com' });
    expect(JSON.parse(toolMessages.at(-3)?.content ?? '')).toMatchObject({ customer: 'li@example.com' });
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});

describe('Responses API round trip with the official client', () => {
  it('answers function_call items, replays them sanitised, and the follow-up is accepted', async () => {
    const desk = createDesk();
    const items = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'session__fetch',
        arguments: '{"conversationId":"c-1001"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: 'fc_2',
        call_id: 'call_1',
        name: 'kb.search',
        arguments: '{"query":"x"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: 'fc_3',
        call_id: 'call_3',
        name: 'message__send',
        arguments: '{"conversationId":"c-1001","text":"hi"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: 'fc_4',
        call_id: 'call_4',
        name: '',
        arguments: 'oops',
        status: 'completed',
      },
    ];
    const response = (output: unknown[]) => ({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model: 'test-model',
      status: 'completed',
      output,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
    });
    server = await startLoopbackServer((request, index) => {
      const problems = responsesRequestProblems(request.body);
      if (problems.length > 0) return { status: 400, body: { error: { message: problems.join('; ') } } };
      return index === 0
        ? { body: response(items) }
        : {
            body: response([
              {
                type: 'message',
                id: 'msg_1',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
              },
            ]),
          };
    });
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Help Ana.' }];
    const tools = toResponsesTools(desk.registry, DESK_CONTEXT);
    let text = '';
    for (let turn = 0; turn < 4; turn += 1) {
      const reply = await client.responses.create({ model: 'test-model', input, tools });
      const outputs = await answerResponsesFunctionCalls(desk.registry, reply.output, DESK_CONTEXT);
      if (outputs.length === 0) {
        text = reply.output_text;
        break;
      }
      input.push(...sanitizeResponsesOutput(reply.output), ...outputs);
    }
    expect(text).toBe('Done.');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/responses');
      expect(request.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['session__fetch']);
    }
    const sent = server.requests[1]?.body.input as {
      type?: string;
      call_id?: string;
      name?: string;
      output?: string;
    }[];
    expect(sent.find((item) => item.type === 'reasoning')).toBeDefined();
    const outputs = sent.filter((item) => item.type === 'function_call_output');
    expect(outputs.map((item) => item.call_id)).toEqual(['call_1', 'call_gt_1', 'call_3', 'call_4']);
    expect(JSON.parse(outputs[0]?.output ?? '')).toMatchObject({ customer: 'ana@example.com' });
    expect(outputs.slice(1).every((item) => parseError(item.output).code === 'UNKNOWN_TOOL')).toBe(true);
    expect(sent.filter((item) => item.type === 'function_call').map((item) => item.name)).toEqual([
      'session__fetch',
      INVALID_TOOL_NAME,
      'message__send',
      INVALID_TOOL_NAME,
    ]);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});
