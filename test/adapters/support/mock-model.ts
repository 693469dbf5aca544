// Scripted results for the AI SDK's MockLanguageModelV3 (a LanguageModelV3 provider), shared by the
// adapter tests that drive a real generateText or agent loop with it.
import type { MockLanguageModelV3 } from 'ai/test';

export type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
export type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One model step that calls these tools: `[id, name, arguments as the model wrote them]`. */
export function toolCalls(calls: [id: string, name: string, input: string][]): GenerateResult {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({
      type: 'tool-call',
      toolCallId,
      toolName,
      input,
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** One model step that answers in text and stops. */
export const text = (value: string): GenerateResult => ({
  content: [{ type: 'text', text: value }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

/** The tool results the model was shown in a call, by tool call id. */
export function shownResults(call: CallOptions | undefined): Map<string, { type: string; value?: unknown }> {
  const shown = new Map<string, { type: string; value?: unknown }>();
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        shown.set(part.toolCallId, part.output as { type: string; value?: unknown });
    }
  }
  return shown;
}
