import type { ToolRegistry } from 'graded-tools';
import {
  answerChatToolCalls,
  answerResponsesFunctionCalls,
  sanitizeChatAssistantMessage,
  sanitizeResponsesOutput,
  toChatCompletionTools,
  toResponsesTools,
} from 'graded-tools/openai';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ userId: string }>;
declare const completion: OpenAI.Chat.Completions.ChatCompletion;
declare const response: OpenAI.Responses.Response;

describe('graded-tools/openai types', () => {
  it('emits tools the SDK takes in its own request params', () => {
    expectTypeOf(toChatCompletionTools(registry)).toExtend<OpenAI.Chat.Completions.ChatCompletionTool[]>();
    const chat: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-4.1-mini',
      messages: [],
      tools: toChatCompletionTools(registry, { scope: 'desk' }, { strict: true }),
    };
    const responses: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: 'gpt-4.1-mini',
      input: [],
      tools: toResponsesTools(registry),
    };
    expectTypeOf(chat).toBeObject();
    expectTypeOf(responses).toBeObject();
  });

  it('returns messages and items the SDK takes back', async () => {
    const message = completion.choices[0]!.message;
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      sanitizeChatAssistantMessage(message),
      ...(await answerChatToolCalls(registry, message, { context: { userId: 'u1' } })),
    ];
    const input: OpenAI.Responses.ResponseInput = [
      ...sanitizeResponsesOutput(response.output),
      ...(await answerResponsesFunctionCalls(registry, response.output)),
      ...(await answerResponsesFunctionCalls(registry, response)),
    ];
    expectTypeOf(messages).toBeArray();
    expectTypeOf(input).toBeArray();
  });

  it('checks the context against the registry', () => {
    // @ts-expect-error flags are booleans
    toChatCompletionTools(registry, { flags: { kb: 'yes' } });
    // @ts-expect-error the app context is the registry's
    toChatCompletionTools(registry, { context: { userId: 1 } });
    // @ts-expect-error strict is a boolean
    toResponsesTools(registry, {}, { strict: 'yes' });
  });
});
