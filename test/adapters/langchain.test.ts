import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { toLangChainTools } from 'graded-tools/langchain';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { longLogRegistry } from '../helpers/tools.js';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  HOSTILE_NAMES,
  ranTools,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';

/** The tool messages among `messages`, by tool call id. */
function toolMessages(messages: readonly BaseMessage[]): Map<string, ToolMessage> {
  const found = new Map<string, ToolMessage>();
  for (const message of messages)
    if (ToolMessage.isInstance(message)) found.set(message.tool_call_id, message);
  return found;
}

describe('toLangChainTools', () => {
  it('lists exactly the model list, and LangChain sends the model our schema', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const tools = toLangChainTools(registry, ctx);
      const schemas = registry.toFunctionSchemas(ctx);
      expect(tools.map((tool) => tool.name)).toEqual(schemas.map((s) => s.name));
      for (const [index, tool] of tools.entries()) {
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(tool.name);
        const sent = convertToOpenAITool(tool);
        expect(sent.function.parameters).toEqual(schemas[index]?.parameters);
        // A fresh copy every time: LangChain may annotate it without touching the registry's frozen one.
        expect(sent.function.parameters).not.toBe(schemas[index]?.parameters);
      }
    }
  });

  it('does not crash on the frozen schemas where a bare JSON Schema would (__absolute_uri__)', async () => {
    const { registry } = createDesk();
    const [fetch] = toLangChainTools(registry, DESK_CONTEXT);
    expect(Object.isFrozen(registry.toFunctionSchemas(DESK_CONTEXT)[0]?.parameters)).toBe(true);
    // bindTools of LangChain's own fake converts each schema the way provider packages do.
    expect(() =>
      new FakeListChatModel({ responses: ['ok'] }).bindTools(toLangChainTools(registry)),
    ).not.toThrow();
    const text = await fetch?.invoke({ conversationId: 'c-1001' });
    expect(JSON.parse(String(text))).toMatchObject({ customer: 'ana@example.com' });
  });

  it('a bare JSON Schema is what LangChain trips on: it crashes on a frozen one and validates a copy itself', async () => {
    const { registry } = createDesk();
    const [schema] = registry.toFunctionSchemas(DESK_CONTEXT);
    const bare = (parameters: object) =>
      new DynamicStructuredTool({
        name: 'session__fetch',
        description: 'Fetch.',
        schema: parameters,
        func: async () => 'ran',
      });
    await expect(bare(schema?.parameters ?? {}).invoke({ conversationId: 'c-1001' })).rejects.toThrow(
      /not extensible/,
    );
    await expect(
      bare(structuredClone(schema?.parameters ?? {})).invoke({ conversationId: 42 }),
    ).rejects.toThrow(/did not match expected schema/);
  });

  it('drives a real createAgent run: only the read runs, the run goes on, the model reads our words', async () => {
    const desk = createDesk();
    const model = fakeModel()
      .respondWithTools([
        { name: 'session__fetch', args: { conversationId: 'c-1001' }, id: 'read' },
        { name: 'ticket__delete_all', args: { really: true }, id: 'hallucinated' },
        { name: 'message__send', args: { conversationId: 'c-1001', text: 'hi' }, id: 'send' },
        { name: 'session__fetch', args: { conversationId: 42 }, id: 'invalid' },
      ])
      .respond(new AIMessage('Done.'));
    const agent = createAgent({ model, tools: toLangChainTools(desk.registry, DESK_CONTEXT) });
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Help Ana.' }] });

    expect(state.messages.at(-1)?.content).toBe('Done.');
    expect(model.callCount).toBe(2);
    // What the model read on its second call.
    const shown = toolMessages(model.calls[1]?.messages ?? []);
    expect(JSON.parse(String(shown.get('read')?.content))).toMatchObject({ customer: 'ana@example.com' });
    expect(shown.get('read')?.artifact).toMatchObject({ ok: true });
    const invalid = shown.get('invalid');
    expect(invalid?.status).toBe('error');
    // The exit's code and issue list, not LangChain's "did not match expected schema".
    expect(JSON.parse(String(invalid?.content))).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    expect(String(invalid?.content)).toMatch(/conversationId: must be string/);
    expect(invalid?.artifact).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    // Names the list does not have are answered by the agent's tool node, and the model reads that.
    expect(shown.get('hallucinated')?.status).toBe('error');
    expect(String(shown.get('hallucinated')?.content)).toMatch(/ticket__delete_all/);
    expect(String(shown.get('send')?.content)).toMatch(/message__send.*not a valid tool/s);
    expect(ranTools(desk.events)).toEqual(['session.fetch']);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('answers every hostile name to the model and runs none of them', async () => {
    const desk = createDesk();
    const names = HOSTILE_NAMES.map(({ name }) => name).filter((name) => typeof name === 'string');
    const model = fakeModel()
      .respondWithTools(names.map((name, index) => ({ name, args: {}, id: `h${index}` })))
      .respond(new AIMessage('Done.'));
    const agent = createAgent({ model, tools: toLangChainTools(desk.registry, DESK_CONTEXT) });
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Go.' }] });
    expect(state.messages.at(-1)?.content).toBe('Done.');
    const shown = toolMessages(model.calls[1]?.messages ?? []);
    expect([...shown.keys()].sort()).toEqual(names.map((_, index) => `h${index}`).sort());
    for (const message of shown.values()) expect(message.status).toBe('error');
    expect(ranTools(desk.events)).toEqual([]);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it("works in LangGraph.js's ToolNode: results and refusals as tool messages", async () => {
    const desk = createDesk();
    const node = new ToolNode(toLangChainTools(desk.registry, DESK_CONTEXT));
    const message = new AIMessage({
      content: '',
      tool_calls: [
        { name: 'session__fetch', args: { conversationId: 'c-1002' }, id: 'read', type: 'tool_call' },
        { name: 'session__fetch', args: { conversationId: 'nope' }, id: 'missing', type: 'tool_call' },
      ],
    });
    const { messages } = (await node.invoke({ messages: [message] })) as { messages: ToolMessage[] };
    const shown = toolMessages(messages);
    expect(JSON.parse(String(shown.get('read')?.content))).toMatchObject({ customer: 'li@example.com' });
    expect(shown.get('missing')?.status).toBe('error');
    expect(JSON.parse(String(shown.get('missing')?.content))).toMatchObject({
      error: { code: 'RUN_FAILED' },
    });
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('cuts long results to maxResultChars', async () => {
    const registry = longLogRegistry();
    const [log] = toLangChainTools(registry, {}, { maxResultChars: 300 });
    const text = String(await log?.invoke({}));
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/truncated/);
  });
});
