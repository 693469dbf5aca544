import type Anthropic from '@anthropic-ai/sdk';
import type { ToolRegistry } from 'graded-tools';
import { answerAnthropicToolUses, sanitizeAnthropicContent, toAnthropicTools } from 'graded-tools/anthropic';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry;
declare const reply: Anthropic.Message;

describe('graded-tools/anthropic types', () => {
  it('emits tools the SDK takes in its own request params', () => {
    expectTypeOf(toAnthropicTools(registry)).toExtend<Anthropic.Tool[]>();
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [],
      tools: toAnthropicTools(registry, { scope: 'desk' }),
    };
    expectTypeOf(params).toBeObject();
  });

  it('returns content the SDK takes back', async () => {
    const messages: Anthropic.MessageParam[] = [
      { role: 'assistant', content: sanitizeAnthropicContent(reply.content) },
      { role: 'user', content: await answerAnthropicToolUses(registry, reply) },
    ];
    expectTypeOf(await answerAnthropicToolUses(registry, reply.content)).toEqualTypeOf<
      Anthropic.ToolResultBlockParam[]
    >();
    expectTypeOf(messages).toBeArray();
  });
});
