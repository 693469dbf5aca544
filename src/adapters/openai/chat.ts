import type OpenAI from 'openai';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { isRecord } from '../../util/is-record.js';
import { planCalls } from '../core/call-plan.js';
import { answerOpenAICalls, chatCallsOf, ID_RULE, replayArguments } from './answer-calls.js';
import { type OpenAIAdapterOptions, openAITools } from './tool-list.js';

type ChatTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type ChatToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type ChatToolMessage = OpenAI.Chat.Completions.ChatCompletionToolMessageParam;
type ChatAssistantMessage = OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessage;

/**
 * The model's tools for Chat Completions: exactly `registry.toFunctionSchemas(ctx)` — `read` tools
 * whose gates pass — as `{ type: 'function', function: { name, description, parameters } }`. Throws
 * `ToolDefinitionError` at list time (configuration, not model output) for more than 128 tools, a
 * root `anyOf`/`oneOf`/`allOf`/`enum`/`const`/`not`, or with `strict` a keyword strict mode lacks.
 * Schemas are frozen: copy one before changing it.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { ToolRegistry } from 'graded-tools';
 * import { answerChatToolCalls, sanitizeChatAssistantMessage, toChatCompletionTools } from 'graded-tools/openai';
 *
 * const registry = new ToolRegistry();
 * const client = new OpenAI();
 * const ctx = { scope: 'desk' };
 * const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hi' }];
 * for (let turn = 0; turn < 8; turn += 1) {
 *   const completion = await client.chat.completions.create({
 *     model: 'gpt-4.1-mini',
 *     messages,
 *     tools: toChatCompletionTools(registry, ctx),
 *   });
 *   const message = completion.choices[0]?.message;
 *   if (message === undefined) break;
 *   messages.push(sanitizeChatAssistantMessage(message));
 *   if (!message.tool_calls?.length) break;
 *   messages.push(...(await answerChatToolCalls(registry, message, ctx)));
 * }
 * ```
 */
export function toChatCompletionTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: OpenAIAdapterOptions = {},
): ChatTool[] {
  return openAITools(registry, ctx, options).map(({ schema, parameters, strict }) => ({
    type: 'function',
    function: {
      name: schema.name,
      description: schema.description,
      parameters,
      ...(strict ? { strict: true } : {}),
    },
  }));
}

/**
 * Runs the model's Chat Completions `tool_calls` through the model's exit and returns one `tool`
 * message per call, in order. Give it the assistant message (or its `tool_calls`). Unknown, hidden,
 * `write`/`send` and illegal names, malformed or schema-failing arguments all come back as
 * `{"error":{"code","message"}}` content the model can act on; successes as the JSON of the data,
 * cut at `maxResultChars`. Never throws for anything the model sent; never rejects.
 *
 * Call ids match `sanitizeChatAssistantMessage` exactly: push that message first, then these.
 *
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import { ToolRegistry } from 'graded-tools';
 * import { answerChatToolCalls, sanitizeChatAssistantMessage } from 'graded-tools/openai';
 *
 * const registry = new ToolRegistry();
 * const message: OpenAI.Chat.Completions.ChatCompletionMessage = {
 *   role: 'assistant',
 *   content: null,
 *   refusal: null,
 *   tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'kb__search', arguments: '{}' } }],
 * };
 * const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [];
 * messages.push(sanitizeChatAssistantMessage(message), ...(await answerChatToolCalls(registry, message)));
 * ```
 */
export async function answerChatToolCalls<C>(
  registry: ToolRegistry<C>,
  message:
    | { readonly tool_calls?: readonly ChatToolCall[] | null | undefined }
    | readonly ChatToolCall[]
    | null
    | undefined,
  ctx: InvokeContext<C> = {},
  options: OpenAIAdapterOptions = {},
): Promise<ChatToolMessage[]> {
  const answers = await answerOpenAICalls(registry, chatCallsOf(message), ctx, options);
  return answers.map(({ id, content }) => ({ role: 'tool', tool_call_id: id, content }));
}

/**
 * The assistant message to put back into `messages`, safe to send again: tool call names that are
 * not legal (empty, dotted, too long …) become `invalid_tool_name`, missing or repeated ids become
 * unique (the same ids `answerChatToolCalls` answers), arguments that are not a JSON object become
 * `{}`, and only request fields are kept (`tool_calls` is left out when empty, which OpenAI refuses).
 *
 * @example
 * ```ts
 * import { sanitizeChatAssistantMessage } from 'graded-tools/openai';
 *
 * const replay = sanitizeChatAssistantMessage({
 *   role: 'assistant',
 *   content: null,
 *   tool_calls: [{ id: 'a', type: 'function', function: { name: 'kb.search!', arguments: 'nope' } }],
 * });
 * // replay.tool_calls: [{ id: 'a', type: 'function', function: { name: 'invalid_tool_name', arguments: '{}' } }]
 * console.log(replay);
 * ```
 */
export function sanitizeChatAssistantMessage(
  message: ChatMessage | ChatAssistantMessage,
): ChatAssistantMessage {
  const source: Record<string, unknown> = isRecord(message) ? message : {};
  const calls = chatCallsOf(source);
  const plan = planCalls(calls, ID_RULE);
  const content = source.content;
  const replay: ChatAssistantMessage = {
    role: 'assistant',
    content:
      typeof content === 'string' || Array.isArray(content)
        ? (content as NonNullable<ChatAssistantMessage['content']>)
        : null,
  };
  if (typeof source.refusal === 'string') replay.refusal = source.refusal;
  if (typeof source.name === 'string') replay.name = source.name;
  if (isRecord(source.audio) && typeof source.audio.id === 'string') replay.audio = { id: source.audio.id };
  if (plan.length > 0) {
    replay.tool_calls = plan.map(({ name, id }, index): ChatToolCall => {
      const call = calls[index];
      const callId = id ?? '';
      return call?.kind === 'custom'
        ? {
            id: callId,
            type: 'custom',
            custom: { name, input: typeof call.args === 'string' ? call.args : '' },
          }
        : { id: callId, type: 'function', function: { name, arguments: replayArguments(call?.args) } };
    });
  }
  return replay;
}
