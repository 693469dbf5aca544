import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { defineTool, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import {
  answerAnthropicToolUses,
  INVALID_TOOL_NAME,
  sanitizeAnthropicContent,
  toAnthropicTools,
} from 'graded-tools/anthropic';
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
import { anthropicRequestProblems } from './support/provider-rules.js';

type Block = Anthropic.Messages.ContentBlockParam;

const use = (id: unknown, name: unknown, input: unknown = {}): Block =>
  ({ type: 'tool_use', id, name, input }) as Block;

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('toAnthropicTools', () => {
  it('emits exactly the model list as { name, description, input_schema }', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const tools = toAnthropicTools(registry, ctx);
      expect(tools.map((tool) => tool.name)).toEqual(
        registry.toFunctionSchemas(ctx).map((schema) => schema.name),
      );
      for (const tool of tools) {
        expect(tool.name).toMatch(PROVIDER_NAME_RULE);
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(tool.name);
        expect(tool.input_schema.type).toBe('object');
      }
    }
  });

  it.each(['anyOf', 'oneOf', 'allOf'])('refuses a root `%s`, which the API rejects', (keyword) => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'crm.lookup',
        description: 'Look up.',
        sideEffect: 'read',
        inputSchema: { type: 'object', [keyword]: [{ required: ['id'] }] },
        run: () => null,
      }),
    );
    expect(() => toAnthropicTools(registry)).toThrow(ToolDefinitionError);
    expect(() => toAnthropicTools(registry)).toThrow(`Anthropic rejects \`${keyword}\` at the root`);
  });
});

describe('answerAnthropicToolUses', () => {
  it('answers a legal use with the JSON of its data and no error flag', async () => {
    const { registry } = createDesk();
    const [result] = await answerAnthropicToolUses(
      registry,
      {
        content: [
          { type: 'text', text: 'Let me look.', citations: null },
          use('toolu_1', 'session__fetch', { conversationId: 'c-1002' }),
        ],
      },
      DESK_CONTEXT,
    );
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: JSON.stringify({
        conversationId: 'c-1002',
        customer: 'li@example.com',
        messages: ['How do I export my data?'],
      }),
    });
  });

  it.each(HOSTILE_NAMES)(
    'marks a $label name is_error with the registry message, runs nothing',
    async ({ name }) => {
      const desk = createDesk();
      const content = [use('toolu_1', name, { conversationId: 'c-1001', text: 'hi' })];
      const [result] = await answerAnthropicToolUses(desk.registry, content, DESK_CONTEXT);
      expect(result?.is_error).toBe(true);
      expect(String(result?.content)).toMatch(/^There is no tool named .*Available tools: session__fetch\.$/);
      const replay = sanitizeAnthropicContent(content);
      expect(
        anthropicRequestProblems({
          messages: [
            { role: 'assistant', content: replay },
            { role: 'user', content: [result] },
          ],
        }),
      ).toEqual([]);
      expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    },
  );

  it('marks schema-failing and non-object input is_error, keeps order, fixes ids', async () => {
    const { registry } = createDesk();
    const content = [
      use('same', 'session__fetch', { conversationId: 1 }),
      use('same', 'session__fetch', 'not an object'),
      use('bad id!', 'session__fetch', { conversationId: 'c-1001' }),
      use(undefined, 'kb search', {}),
    ];
    const results = await answerAnthropicToolUses(registry, content, DESK_CONTEXT);
    const replay = sanitizeAnthropicContent(content);
    expect(Array.isArray(replay)).toBe(true);
    const replayIds = (replay as { id?: string }[]).map((block) => block.id);
    expect(results.map((result) => result.tool_use_id)).toEqual(replayIds);
    expect(replayIds).toEqual(['same', 'toolu_gt_1', 'toolu_gt_2', 'toolu_gt_3']);
    expect(results.map((result) => result.is_error === true)).toEqual([true, true, false, true]);
    expect(String(results[0]?.content)).toMatch(/does not match its schema/);
    expect(String(results[1]?.content)).toMatch(/must be a JSON object/);
    expect((replay as { name?: string; input?: unknown }[])[3]).toMatchObject({
      name: INVALID_TOOL_NAME,
      input: {},
    });
    expect((replay as { input?: unknown }[])[1]?.input).toEqual({});
  });

  it('keeps every other block, thinking signatures included, untouched', () => {
    const thinking = { type: 'thinking', thinking: 'Hmm.', signature: 'sig-abc' } as const;
    const replay = sanitizeAnthropicContent([thinking, use('t1', 'kb__search')]);
    expect((replay as unknown[])[0]).toBe(thinking);
    expect(sanitizeAnthropicContent('plain text')).toBe('plain text');
  });

  it('answers hundreds of uses in order, running at most maxCallsPerTurn', async () => {
    const desk = createDesk();
    const content = Array.from({ length: 250 }, (_, i) =>
      use(`toolu_${i}`, 'session__fetch', { conversationId: 'c-1001' }),
    );
    const results = await answerAnthropicToolUses(desk.registry, content, DESK_CONTEXT, {
      maxCallsPerTurn: 100,
    });
    expect(results.map((result) => result.tool_use_id)).toEqual(
      content.map((block) => (block as { id: string }).id),
    );
    expect(results.filter((result) => result.is_error)).toHaveLength(150);
    expect(String(results[100]?.content)).toMatch(/only the first 100 were run/);
    expect(desk.events).toHaveLength(100);
  });

  it('keeps results and replay consistent for any uses a model can send (property)', async () => {
    const name = fc.oneof(
      fc.constantFrom('session__fetch', 'ticket__submit', 'message__send', ''),
      fc.string({ maxLength: 70 }),
    );
    const id = fc.oneof(
      fc.constantFrom('a', 'toolu_gt_0', ''),
      fc.string({ maxLength: 8 }),
      fc.constant(undefined),
    );
    const input = fc.oneof(fc.constant({ conversationId: 'c-1001' }), fc.jsonValue());
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(id, name, input), { maxLength: 12 }), async (raw) => {
        const desk = createDesk();
        const content = raw.map(([i, n, a]) => use(i, n, a));
        const results = await answerAnthropicToolUses(desk.registry, content, DESK_CONTEXT);
        const replay = sanitizeAnthropicContent(content);
        expect(results).toHaveLength(raw.length);
        const messages =
          raw.length === 0
            ? []
            : [
                { role: 'assistant', content: replay },
                { role: 'user', content: results },
              ];
        expect(anthropicRequestProblems({ messages })).toEqual([]);
        expect(assertNothingWrittenOrSent(desk)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('Messages API round trip with the official client', () => {
  it('sends only legal read tools and accepts the follow-up with a tool_result per tool_use', async () => {
    const desk = createDesk();
    const uses = [
      use('toolu_ok', 'session__fetch', { conversationId: 'c-1001' }),
      ...HOSTILE_NAMES.map(({ name }, i) => use(`toolu_h${i}`, name, { conversationId: 'c-1001' })),
      use('toolu_ok', 'session__fetch', { conversationId: 'c-1002' }),
      use('toolu_bad', 'session__fetch', { conversationId: ['x'] }),
    ];
    const reply = (content: unknown[], stop: string) => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'test-model',
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    server = await startLoopbackServer((request, index) => {
      const problems = anthropicRequestProblems(request.body);
      if (problems.length > 0)
        return {
          status: 400,
          body: { type: 'error', error: { type: 'invalid_request_error', message: problems.join('; ') } },
        };
      return index === 0
        ? { body: reply([{ type: 'text', text: 'Looking.' }, ...uses], 'tool_use') }
        : { body: reply([{ type: 'text', text: 'Done.' }], 'end_turn') };
    });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Help Ana.' }];
    const tools = toAnthropicTools(desk.registry, DESK_CONTEXT);
    let final = '';
    for (let turn = 0; turn < 4; turn += 1) {
      const message = await client.messages.create({ model: 'test-model', max_tokens: 100, messages, tools });
      messages.push({ role: 'assistant', content: sanitizeAnthropicContent(message.content) });
      const results = await answerAnthropicToolUses(desk.registry, message, DESK_CONTEXT);
      if (results.length === 0) {
        final = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        break;
      }
      messages.push({ role: 'user', content: results });
    }
    expect(final).toBe('Done.');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/messages');
      expect(request.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['session__fetch']);
      expect(anthropicRequestProblems(request.body)).toEqual([]);
    }
    const results = server.requests[1]?.body.messages[2].content as { is_error?: boolean; content: string }[];
    expect(results).toHaveLength(uses.length);
    expect(results.map((result) => result.is_error === true)).toEqual([
      false,
      ...HOSTILE_NAMES.map(() => true),
      false,
      true,
    ]);
    expect(JSON.parse(results[0]?.content ?? '')).toMatchObject({ customer: 'ana@example.com' });
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});
