import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { toMastraTools } from 'graded-tools/mastra';
import { describe, expect, it } from 'vitest';
import { longLogRegistry } from '../helpers/tools.js';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  type Desk,
  HOSTILE_NAMES,
  ranTools,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';
import { type GenerateResult, shownResults, text, toolCalls } from './support/mock-model.js';

/** A scripted model: one result per call, in order. */
function scriptedModel(results: GenerateResult[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const result = results[next];
      next += 1;
      if (result === undefined) throw new Error('the script has no more steps');
      return result;
    },
  });
}

/** Names Mastra resolves on Object.prototype (see the test that pins its behaviour). */
const PROTOTYPE_KEYS = ['__proto__', 'constructor'];

/** A Mastra agent on the desk's model tools, with `model` scripted. */
function deskAgent(desk: Desk, model: MockLanguageModelV3): Agent {
  return new Agent({
    id: 'desk',
    name: 'Desk',
    instructions: 'Help the customer.',
    model,
    tools: toMastraTools(desk.registry, DESK_CONTEXT),
  });
}

describe('toMastraTools', () => {
  it('lists exactly the model list, keyed by wire name, with no approval flag of Mastra', () => {
    const { registry } = createDesk();
    for (const ctx of [{}, DESK_CONTEXT, { flags: { kb: true } }]) {
      const tools = toMastraTools(registry, ctx);
      expect(Object.keys(tools)).toEqual(registry.toFunctionSchemas(ctx).map((s) => s.name));
      expect(Object.getPrototypeOf(tools)).toBeNull();
      for (const [name, tool] of Object.entries(tools)) {
        expect(tool.id).toBe(name);
        expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(name);
        expect(tool.requireApproval ?? false).toBe(false);
      }
    }
  });

  it('drives a real Agent run: only the read runs, the run goes on, the model reads our words', async () => {
    const desk = createDesk();
    const model = scriptedModel([
      toolCalls([
        ['read', 'session__fetch', '{"conversationId":"c-1001"}'],
        ['hallucinated', 'ticket__delete_all', '{"really":true}'],
        ['send', 'message__send', '{"conversationId":"c-1001","text":"hi"}'],
        ['invalid', 'session__fetch', '{"conversationId":42}'],
      ]),
      text('Done.'),
    ]);
    const agent = deskAgent(desk, model);
    const result = await agent.generate('Help Ana.', { maxSteps: 4 });

    expect(result.text).toBe('Done.');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(model.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toEqual(['session__fetch']);
    const shown = shownResults(model.doGenerateCalls[1]);
    expect(JSON.parse(String(shown.get('read')?.value))).toMatchObject({ customer: 'ana@example.com' });
    const invalid = shown.get('invalid');
    expect(invalid?.type).toBe('error-text');
    expect(JSON.parse(String(invalid?.value))).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    expect(String(invalid?.value)).toMatch(/conversationId: must be string/);
    expect(String(shown.get('hallucinated')?.value)).toMatch(/ticket__delete_all/);
    expect(String(shown.get('send')?.value)).toMatch(/message__send/);
    expect(ranTools(desk.events)).toEqual(['session.fetch']);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('answers every hostile name to the model and runs none of them', async () => {
    const desk = createDesk();
    const names = HOSTILE_NAMES.map(({ name }) => name)
      .filter((name) => typeof name === 'string')
      .filter((name) => !PROTOTYPE_KEYS.includes(name));
    const model = scriptedModel([
      toolCalls(names.map((name, index): [string, string, string] => [`h${index}`, name, '{}'])),
      text('Done.'),
    ]);
    const agent = deskAgent(desk, model);
    const result = await agent.generate('Go.', { maxSteps: 4 });
    expect(result.text).toBe('Done.');
    const shown = shownResults(model.doGenerateCalls[1]);
    expect([...shown.keys()].sort()).toEqual(names.map((_, index) => `h${index}`).sort());
    for (const output of shown.values()) expect(output.type).toBe('error-text');
    expect(ranTools(desk.events)).toEqual([]);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it.each(PROTOTYPE_KEYS)(
    'a call to %s ends the run quietly in Mastra itself, and nothing runs',
    async (name) => {
      // Mastra (1.71) looks the name up on a plain object, finds Object.prototype's member and stops
      // the loop as if for a client tool: no answer reaches the model, but nothing runs and nothing throws.
      const desk = createDesk();
      const model = scriptedModel([toolCalls([['p', name, '{}']]), text('Done.')]);
      const agent = deskAgent(desk, model);
      const result = await agent.generate('Go.', { maxSteps: 4 });
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(result.text).toBe('');
      expect(desk.events).toEqual([]);
      expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    },
  );

  it('gives the app the result itself and cuts what the model reads to maxResultChars', async () => {
    const registry = longLogRegistry();
    const tool = toMastraTools(registry, {}, { maxResultChars: 300 }).log__read;
    const result = await tool?.execute?.({}, {} as never);
    expect(result).toEqual({ ok: true, data: 'x'.repeat(5_000) });
    const shown = (await tool?.toModelOutput?.(result as never)) as { type: string; value: string };
    expect(shown.type).toBe('text');
    expect(shown.value.length).toBeLessThanOrEqual(300);
    expect(shown.value).toMatch(/truncated/);
  });
});
