import { generateText, stepCountIs, type ToolSet } from 'ai-v7';
import { MockLanguageModelV3 } from 'ai-v7/test';
import { toAiSdkTools } from 'graded-tools/ai-sdk';
import { describe, expect, it, vi } from 'vitest';
import { assertNothingWrittenOrSent, createDesk, DESK_CONTEXT } from './support/hostile-calls.js';
import { shownResults, text, toolCalls } from './support/mock-model.js';

// The same adapter under the AI SDK's current major: every `ai` import in this file's graph — the
// adapter's `tool` and `jsonSchema` included — is ai@7 (installed as the alias ai-v7).
vi.mock('ai', async () => await import('ai-v7'));

describe('toAiSdkTools with ai 7', () => {
  it('runs generateText end to end: the read runs, the rest come back as errors the model reads', async () => {
    const ai = await import('ai');
    expect(ai.generateText).toBe(generateText);
    const desk = createDesk();
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls([
          ['c1', 'session__fetch', '{"conversationId":"c-1001"}'],
          ['c2', 'ticket__submit', '{"conversationId":"c-1001","summary":"refund"}'],
          ['c3', 'message__send', '{"conversationId":"c-1001","text":"hi"}'],
          ['c4', 'session__fetch', '{"conversationId":42}'],
        ]),
        text('Done.'),
      ],
    });
    const result = await generateText({
      model,
      // Typed against the ai 6 the repository builds with; at run time every part is ai 7.
      tools: toAiSdkTools(desk.registry, DESK_CONTEXT) as unknown as ToolSet,
      stopWhen: stepCountIs(4),
      prompt: 'Help Ana.',
    });
    expect(result.text).toBe('Done.');
    expect(model.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toEqual(['session__fetch']);
    // ai 7's own copy of the provider types: the same shape, a different declaration.
    const shown = shownResults(model.doGenerateCalls[1] as unknown as Parameters<typeof shownResults>[0]);
    expect(shown.get('c1')).toMatchObject({ type: 'json', value: { customer: 'ana@example.com' } });
    for (const id of ['c2', 'c3']) {
      expect(shown.get(id)?.type).toBe('error-text');
      expect(String(shown.get(id)?.value)).toMatch(/unavailable tool .*Available tools: session__fetch\.$/);
    }
    expect(shown.get('c4')).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/does not match its schema/),
    });
    // ai 7 reports the hallucinated names as tool errors of its own (no code of ours depends on its
    // error names, which v7 prefixes with AI_); nothing of ours ran for them.
    const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
    expect(errors.map((part) => (part.type === 'tool-error' ? part.toolCallId : '')).sort()).toEqual([
      'c2',
      'c3',
    ]);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});
