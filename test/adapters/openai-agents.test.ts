import { Agent, ModelBehaviorError, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { ToolRegistry } from 'graded-tools';
import { toAgentsTools } from 'graded-tools/openai-agents';
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

/** What the model was handed back for each call id in one request's input. */
function shownOutputs(model: ScriptedModel, index: number): Map<string, string> {
  const shown = new Map<string, string>();
  const input = model.calls[index]?.request.input;
  for (const item of Array.isArray(input) ? input : []) {
    if (item.type !== 'function_call_result') continue;
    const output = item.output;
    shown.set(
      item.callId,
      typeof output === 'string' ? output : 'text' in output ? String(output.text) : JSON.stringify(output),
    );
  }
  return shown;
}

describe('toAgentsTools', () => {
  it('lists exactly the model list, strict, with no approval flag of the SDK', async () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const tools = toAgentsTools(registry, ctx);
      expect(tools.map((tool) => tool.name)).toEqual(registry.toFunctionSchemas(ctx).map((s) => s.name));
      for (const tool of tools) {
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(tool.name);
        expect(tool.strict).toBe(true);
        expect(tool.parameters.additionalProperties).toBe(false);
        expect(await tool.needsApproval(undefined as never, {} as never, 'call')).toBe(false);
      }
    }
    const [search] = toAgentsTools(registry, { flags: { kb: true } }).filter((t) => t.name === 'kb__search');
    expect(search?.parameters).toMatchObject({
      required: ['query', 'limit'],
      properties: { limit: { type: ['integer', 'null'] } },
    });
    expect(toAgentsTools(registry, {}, { strict: false })[0]?.strict).toBe(false);
  });

  it('drives a real run: only the read runs, the run goes on, the model reads our words', async () => {
    const desk = createDesk();
    const model = new ScriptedModel([
      [
        functionCall('session__fetch', { conversationId: 'c-1001' }, { callId: 'read' }),
        functionCall('ticket__delete_all', { really: true }, { callId: 'hallucinated' }),
        functionCall('message__send', { conversationId: 'c-1001', text: 'hi' }, { callId: 'send' }),
        functionCall('session__fetch', { conversationId: 42 }, { callId: 'invalid' }),
      ],
      [assistantMessage('Done.')],
    ]);
    const agent = new Agent({ name: 'Desk', model, tools: toAgentsTools(desk.registry, DESK_CONTEXT) });
    const result = await run(agent, 'Help Ana.', { toolNotFoundBehavior: 'return_error_to_model' });

    expect(result.finalOutput).toBe('Done.');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]?.request.tools.map((tool) => tool.name)).toEqual(['session__fetch']);
    const shown = shownOutputs(model, 1);
    expect(JSON.parse(shown.get('read') ?? '')).toMatchObject({ customer: 'ana@example.com' });
    // The exit's own code and issue list, not the SDK's generic "An error occurred".
    expect(JSON.parse(shown.get('invalid') ?? '')).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    expect(shown.get('invalid')).toMatch(/conversationId/);
    // Names the list does not have are answered by the SDK, and the model reads that too.
    expect(shown.get('hallucinated')).toMatch(/ticket__delete_all/);
    expect(shown.get('send')).toMatch(/message__send/);
    expect(ranTools(desk.events)).toEqual(['session.fetch']);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('answers every hostile name to the model and runs none of them', async () => {
    const desk = createDesk();
    const names = HOSTILE_NAMES.map(({ name }) => name).filter((name) => typeof name === 'string');
    const model = new ScriptedModel([
      names.map((name, index) => functionCall(name, {}, { callId: `h${index}` })),
      [assistantMessage('Done.')],
    ]);
    const agent = new Agent({ name: 'Desk', model, tools: toAgentsTools(desk.registry, DESK_CONTEXT) });
    const result = await run(agent, 'Go.', { toolNotFoundBehavior: 'return_error_to_model' });
    expect(result.finalOutput).toBe('Done.');
    expect([...shownOutputs(model, 1).keys()].sort()).toEqual(names.map((_, index) => `h${index}`).sort());
    expect(ranTools(desk.events)).toEqual([]);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('refuses at list time a schema strict mode cannot express, and lists it with strict: false', () => {
    const registry = new ToolRegistry().register({
      name: 'tags.read',
      description: 'Read tags.',
      sideEffect: 'read',
      inputSchema: { type: 'object', patternProperties: { '^t': { type: 'string' } } },
      run: () => [],
    });
    expect(() => toAgentsTools(registry)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_SCHEMA' }));
    expect(toAgentsTools(registry, {}, { strict: false }).map((tool) => [tool.name, tool.strict])).toEqual([
      ['tags__read', false],
    ]);
  });

  it('without toolNotFoundBehavior the SDK ends the run on a hallucinated name, before any tool runs', async () => {
    const desk = createDesk();
    const model = new ScriptedModel([
      [
        functionCall('session__fetch', { conversationId: 'c-1001' }, { callId: 'read' }),
        functionCall('message__send', { conversationId: 'c-1001', text: 'hi' }, { callId: 'send' }),
      ],
    ]);
    const agent = new Agent({ name: 'Desk', model, tools: toAgentsTools(desk.registry, DESK_CONTEXT) });
    await expect(run(agent, 'Help Ana.')).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('strips the nulls strict mode makes the model send, so the tool schema sees the input as meant', async () => {
    const desk = createDesk();
    const ctx = { flags: { kb: true } };
    const model = new ScriptedModel([
      [functionCall('kb__search', '{"query":"refund","limit":null}', { callId: 'search' })],
      [assistantMessage('Found it.')],
    ]);
    const agent = new Agent({ name: 'Desk', model, tools: toAgentsTools(desk.registry, ctx) });
    const result = await run(agent, 'Refund?', { toolNotFoundBehavior: 'return_error_to_model' });
    expect(result.finalOutput).toBe('Found it.');
    const articles = JSON.parse(shownOutputs(model, 1).get('search') ?? '') as { id: string }[];
    expect(articles.map((article) => article.id)).toEqual(['kb-1']);
  });

  it('cuts long results to maxResultChars and refuses a bad option at list time', async () => {
    const registry = longLogRegistry();
    const model = new ScriptedModel([
      [functionCall('log__read', {}, { callId: 'log' })],
      [assistantMessage('ok')],
    ]);
    const agent = new Agent({
      name: 'Log',
      model,
      tools: toAgentsTools(registry, {}, { maxResultChars: 300 }),
    });
    await run(agent, 'Read.');
    const text = shownOutputs(model, 1).get('log') ?? '';
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/truncated/);
    expect(() => toAgentsTools(registry, {}, { concurrency: 0 })).toThrow(/concurrency/);
  });
});
