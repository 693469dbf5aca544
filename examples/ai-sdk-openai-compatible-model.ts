// A minimal AI SDK language model over any OpenAI-compatible Chat Completions endpoint, built on the
// `openai` SDK, so examples/ai-sdk-loop.ts runs with what this repository installs. In an app, use
// `@ai-sdk/openai` or `@ai-sdk/openai-compatible` instead: they also stream and map every option.
import type { LanguageModel } from 'ai';
import type OpenAI from 'openai';

/** The AI SDK's v3 model interface, taken from `ai`'s own `LanguageModel` type. */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toolOutputText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === 'text' || output.type === 'error-text') return String(output.value);
  if (output.type === 'execution-denied') return `Denied: ${output.reason ?? 'no reason given'}`;
  return JSON.stringify(output.value ?? null);
}

function toChatMessages(prompt: CallOptions['prompt']): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user':
        messages.push({
          role: 'user',
          content: message.content.map((part) => (part.type === 'text' ? part.text : '[file]')).join('\n'),
        });
        break;
      case 'assistant': {
        const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        const calls = message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [
                {
                  id: part.toolCallId,
                  type: 'function' as const,
                  function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) },
                },
              ]
            : [],
        );
        messages.push({
          role: 'assistant',
          content: text || null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type === 'tool-result')
            messages.push({
              role: 'tool',
              tool_call_id: part.toolCallId,
              content: toolOutputText(part.output),
            });
        }
        break;
    }
  }
  return messages;
}

const FINISH: Record<string, GenerateResult['finishReason']['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
};

/** An AI SDK model that sends each step as one (non-streaming) Chat Completions request. */
export function openAICompatibleModel(client: OpenAI, modelId: string): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'openai-compatible',
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const tools = (options.tools ?? []).flatMap((tool) =>
        tool.type === 'function'
          ? [
              {
                type: 'function' as const,
                function: {
                  name: tool.name,
                  description: tool.description ?? '',
                  parameters: tool.inputSchema as Record<string, unknown>,
                },
              },
            ]
          : [],
      );
      const completion = await client.chat.completions.create(
        { model: modelId, messages: toChatMessages(options.prompt), ...(tools.length > 0 ? { tools } : {}) },
        options.abortSignal === undefined ? {} : { signal: options.abortSignal },
      );
      const choice = completion.choices[0];
      const content: GenerateResult['content'] = [];
      if (choice?.message.content) content.push({ type: 'text', text: choice.message.content });
      for (const call of choice?.message.tool_calls ?? []) {
        if (call.type === 'function')
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: call.function.arguments,
          });
      }
      const raw = choice?.finish_reason ?? undefined;
      return {
        content,
        finishReason: { unified: (raw && FINISH[raw]) || 'other', raw },
        usage: {
          inputTokens: {
            total: completion.usage?.prompt_tokens,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: completion.usage?.completion_tokens, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
    doStream() {
      throw new Error('This example model does not stream; use generateText, or @ai-sdk/openai-compatible.');
    },
  };
}
