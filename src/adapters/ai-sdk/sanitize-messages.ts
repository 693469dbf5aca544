import type { ModelMessage } from 'ai';
import { isRecord } from '../../util/is-record.js';
import { type CallIdRule, PRINTABLE_ID_RULE, planCalls } from '../core/call-plan.js';

const ID_RULE: CallIdRule = { ...PRINTABLE_ID_RULE, prefix: 'call_gt_' };

type Part = Record<string, unknown>;

function isClientToolCall(part: unknown): part is Part {
  return isRecord(part) && part.type === 'tool-call' && part.providerExecuted !== true;
}

/**
 * The messages of an AI SDK conversation, safe to send to a provider again. The AI SDK keeps the
 * history itself and replays the model's tool calls as the model made them: a name the provider
 * rejects, or two calls under one id, would make the next request fail. This fixes each assistant
 * turn the way the other adapters do — illegal names become `invalid_tool_name`, missing or repeated
 * ids become unique, non-object input becomes `{}` — and renames the matching tool results: each
 * result follows the call with its id and its tool name (else the next call under that id), in order.
 * Pure and idempotent: run it on every step from `prepareStep`.
 *
 * @example
 * ```ts
 * import { generateText, type LanguageModel, stepCountIs } from 'ai';
 * import { ToolRegistry } from 'graded-tools';
 * import { sanitizeAiSdkMessages, toAiSdkTools } from 'graded-tools/ai-sdk';
 *
 * declare const model: LanguageModel;
 * const registry = new ToolRegistry();
 * await generateText({
 *   model,
 *   tools: toAiSdkTools(registry),
 *   prepareStep: ({ messages }) => ({ messages: sanitizeAiSdkMessages(messages) }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Find the refund policy.',
 * });
 * ```
 */
export function sanitizeAiSdkMessages(messages: readonly ModelMessage[]): ModelMessage[] {
  // Result parts are matched to calls by the model's id and tool name, in order: the n-th result for
  // id X and tool T answers the n-th call to T that used X. The name matters because a provider may
  // reuse one id for two different tools.
  let renames = new Map<string, { given: unknown; id: string; name: string }[]>();
  return messages.map((message): ModelMessage => {
    if (!isRecord(message) || !Array.isArray(message.content)) return message;
    if (message.role === 'assistant') {
      const content: unknown[] = message.content;
      const calls = content.filter(isClientToolCall);
      if (calls.length === 0) return message;
      const plan = planCalls(
        calls.map((call) => ({ id: call.toolCallId, name: call.toolName })),
        ID_RULE,
      );
      renames = new Map();
      let next = 0;
      const sanitized = content.map((part) => {
        if (!isClientToolCall(part)) return part;
        const { id = '', name } = plan[next] ?? { name: '' };
        next += 1;
        const key = String(part.toolCallId);
        renames.set(key, [...(renames.get(key) ?? []), { given: part.toolName, id, name }]);
        return { ...part, toolCallId: id, toolName: name, input: isRecord(part.input) ? part.input : {} };
      });
      return { ...message, content: sanitized } as ModelMessage;
    }
    if (message.role === 'tool') {
      const content: unknown[] = message.content;
      const sanitized = content.map((part) => {
        if (!isRecord(part) || part.type !== 'tool-result') return part;
        const pending = renames.get(String(part.toolCallId)) ?? [];
        // Its own tool's call under that id first; else, as before, the next call under that id.
        const own = pending.findIndex((call) => call.given === part.toolName);
        const renamed = pending.splice(own === -1 ? 0 : own, 1)[0];
        return renamed === undefined ? part : { ...part, toolCallId: renamed.id, toolName: renamed.name };
      });
      return { ...message, content: sanitized } as ModelMessage;
    }
    return message;
  });
}
