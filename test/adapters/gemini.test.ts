import { type Content, GoogleGenAI, type Part } from '@google/genai';
import fc from 'fast-check';
import { defineTool, ToolRegistry } from 'graded-tools';
import {
  answerGeminiFunctionCalls,
  INVALID_TOOL_NAME,
  sanitizeGeminiContent,
  toGeminiFunctionDeclarations,
  toGeminiTools,
} from 'graded-tools/gemini';
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
import { geminiRequestProblems } from './support/provider-rules.js';

const callPart = (name: unknown, args: unknown = {}, id?: unknown): Part =>
  ({ functionCall: { name, args, ...(id === undefined ? {} : { id }) } }) as Part;

const model = (parts: Part[]): Content => ({ role: 'model', parts });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('toGeminiFunctionDeclarations / toGeminiTools', () => {
  it('emit exactly the model list with parametersJsonSchema', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const declarations = toGeminiFunctionDeclarations(registry, ctx);
      expect(declarations.map((d) => d.name)).toEqual(registry.toFunctionSchemas(ctx).map((s) => s.name));
      for (const declaration of declarations) {
        expect(declaration.name).toMatch(PROVIDER_NAME_RULE);
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(declaration.name);
        expect(declaration.parametersJsonSchema).toMatchObject({ type: 'object' });
        expect(declaration.parameters).toBeUndefined();
      }
    }
    expect(toGeminiTools(registry, DESK_CONTEXT)).toEqual([
      { functionDeclarations: toGeminiFunctionDeclarations(registry, DESK_CONTEXT) },
    ]);
  });

  it('gives no tool at all when the model may call nothing', () => {
    const registry = new ToolRegistry();
    expect(toGeminiTools(registry)).toEqual([]);
  });

  it('refuses more than 512 declarations', () => {
    const registry = new ToolRegistry();
    for (let i = 0; i < 513; i += 1) {
      registry.register(
        defineTool({
          name: `bulk.t${i}`,
          description: 'Read.',
          sideEffect: 'read',
          inputSchema: { type: 'object' },
          run: () => i,
        }),
      );
    }
    expect(() => toGeminiTools(registry)).toThrow(/Gemini accepts at most 512 tools/);
  });
});

describe('answerGeminiFunctionCalls', () => {
  it('answers a legal call with { output: data }', async () => {
    const { registry } = createDesk();
    const [part] = await answerGeminiFunctionCalls(
      registry,
      model([{ text: 'Looking.' }, callPart('session__fetch', { conversationId: 'c-1002' }, 'fc-1')]),
      DESK_CONTEXT,
    );
    expect(part).toEqual({
      functionResponse: {
        id: 'fc-1',
        name: 'session__fetch',
        response: {
          output: {
            conversationId: 'c-1002',
            customer: 'li@example.com',
            messages: ['How do I export my data?'],
          },
        },
      },
    });
  });

  it.each(HOSTILE_NAMES)(
    'answers a $label name with { error: UNKNOWN_TOOL }, runs nothing',
    async ({ name }) => {
      const desk = createDesk();
      const content = model([callPart(name, { conversationId: 'c-1001', text: 'hi' })]);
      const parts = await answerGeminiFunctionCalls(desk.registry, content, DESK_CONTEXT);
      const response = parts[0]?.functionResponse?.response as { error?: { code: string; message: string } };
      expect(response.error?.code).toBe('UNKNOWN_TOOL');
      expect(response.error?.message).toMatch(/Available tools: session__fetch\.$/);
      expect(parts[0]?.functionResponse?.name).toMatch(PROVIDER_NAME_RULE);
      const replay = sanitizeGeminiContent(content);
      expect(geminiRequestProblems({ contents: [replay, { role: 'user', parts }] })).toEqual([]);
      expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    },
  );

  it('accepts response.functionCalls too, and keeps calls without ids without ids', async () => {
    const { registry } = createDesk();
    const parts = await answerGeminiFunctionCalls(
      registry,
      [
        { name: 'session__fetch', args: { conversationId: 'c-1001' } },
        { name: 'session__fetch', args: { conversationId: 9 } },
      ],
      DESK_CONTEXT,
    );
    expect(parts.map((part) => part.functionResponse?.id)).toEqual([undefined, undefined]);
    expect(parts[0]?.functionResponse?.response).toMatchObject({ output: { customer: 'ana@example.com' } });
    expect(parts[1]?.functionResponse?.response).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('makes repeated ids unique in the answer and the replay alike', async () => {
    const { registry } = createDesk();
    const content = model([
      callPart('session__fetch', { conversationId: 'c-1001' }, 'x'),
      callPart('session__fetch', { conversationId: 'c-1002' }, 'x'),
      { thoughtSignature: 'sig', text: 'thinking' } as Part,
      callPart('a.b', 'not-an-object', 'y'),
    ]);
    const parts = await answerGeminiFunctionCalls(registry, content, DESK_CONTEXT);
    const replay = sanitizeGeminiContent(content);
    expect(parts.map((part) => part.functionResponse?.id)).toEqual(['x', 'call_gt_1', 'y']);
    expect(replay.parts?.map((part) => part.functionCall?.id)).toEqual(['x', 'call_gt_1', undefined, 'y']);
    expect(replay.parts?.[2]).toEqual({ thoughtSignature: 'sig', text: 'thinking' });
    expect(replay.parts?.[3]?.functionCall).toEqual({ name: INVALID_TOOL_NAME, args: {}, id: 'y' });
    expect(geminiRequestProblems({ contents: [replay, { role: 'user', parts }] })).toEqual([]);
  });

  it('answers hundreds of calls in order, running at most maxCallsPerTurn', async () => {
    const desk = createDesk();
    const calls = Array.from({ length: 300 }, (_, i) => ({
      id: `fc-${i}`,
      name: i % 5 === 0 ? 'message__send' : 'session__fetch',
      args: { conversationId: 'c-1002' },
    }));
    const parts = await answerGeminiFunctionCalls(desk.registry, calls, DESK_CONTEXT);
    expect(parts.map((part) => part.functionResponse?.id)).toEqual(calls.map((call) => call.id));
    const codes = parts.map(
      (part) => (part.functionResponse?.response?.error as { code?: string } | undefined)?.code,
    );
    expect(codes.slice(0, 128)).toEqual(
      calls.slice(0, 128).map((_, i) => (i % 5 === 0 ? 'UNKNOWN_TOOL' : undefined)),
    );
    expect(codes.slice(128).every((code) => code === 'TOO_MANY_CALLS')).toBe(true);
    expect(desk.events).toHaveLength(128);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('sends a cut result as text under output', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'big.read',
        description: 'Big.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'z'.repeat(3_000),
      }),
    );
    const [part] = await answerGeminiFunctionCalls(
      registry,
      [{ name: 'big__read', args: {} }],
      {},
      { maxResultChars: 500 },
    );
    const output = String(part?.functionResponse?.response?.output);
    expect(output.length).toBeLessThanOrEqual(500);
    expect(output).toMatch(/truncated: \d+ more characters\]$/);
  });

  it('keeps responses and replay consistent for any calls a model can send (property)', async () => {
    const name = fc.oneof(
      fc.constantFrom('session__fetch', 'ticket__submit', 'message__send', ''),
      fc.string({ maxLength: 70 }),
    );
    const id = fc.oneof(
      fc.constantFrom('a', 'call_gt_0'),
      fc.string({ maxLength: 6 }),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, fc.jsonValue(), id), { maxLength: 12 }), async (raw) => {
        const desk = createDesk();
        const content = model(raw.map(([n, a, i]) => callPart(n, a, i)));
        const parts = await answerGeminiFunctionCalls(desk.registry, content, DESK_CONTEXT);
        const replay = sanitizeGeminiContent(content);
        expect(parts).toHaveLength(raw.length);
        expect(geminiRequestProblems({ contents: [replay, { role: 'user', parts }] })).toEqual([]);
        expect(assertNothingWrittenOrSent(desk)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('generateContent round trip with the official client (httpOptions.baseUrl)', () => {
  it('sends only legal read declarations and accepts the follow-up with a response per call', async () => {
    const desk = createDesk();
    const calls = [
      callPart('session__fetch', { conversationId: 'c-1001' }),
      ...HOSTILE_NAMES.map(({ name }) => callPart(name, { conversationId: 'c-1001' })),
    ];
    const reply = (parts: Part[]) => ({
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    });
    server = await startLoopbackServer((request, index) => {
      const problems = geminiRequestProblems(request.body);
      if (problems.length > 0)
        return {
          status: 400,
          body: { error: { code: 400, message: problems.join('; '), status: 'INVALID_ARGUMENT' } },
        };
      return { body: index === 0 ? reply(calls) : reply([{ text: 'Done.' }]) };
    });
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.url } });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Help Ana.' }] }];
    const tools = toGeminiTools(desk.registry, DESK_CONTEXT);
    let final = '';
    for (let turn = 0; turn < 4; turn += 1) {
      const response = await ai.models.generateContent({ model: 'test-model', contents, config: { tools } });
      const content = response.candidates?.[0]?.content;
      if (content === undefined) break;
      const parts = await answerGeminiFunctionCalls(desk.registry, content, DESK_CONTEXT);
      if (parts.length === 0) {
        final = response.text ?? '';
        break;
      }
      contents.push(sanitizeGeminiContent(content), { role: 'user', parts });
    }
    expect(final).toBe('Done.');
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.path).toMatch(/\/models\/test-model:generateContent$/);
      expect(request.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name)).toEqual([
        'session__fetch',
      ]);
    }
    const responses = server.requests[1]?.body.contents[2].parts as {
      functionResponse: { response: Record<string, unknown> };
    }[];
    expect(responses).toHaveLength(calls.length);
    expect(responses[0]?.functionResponse.response).toMatchObject({
      output: { customer: 'ana@example.com' },
    });
    expect(responses.slice(1).every((part) => 'error' in part.functionResponse.response)).toBe(true);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});
