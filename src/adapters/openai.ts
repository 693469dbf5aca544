import type OpenAI from 'openai';
import type { FunctionSchema } from '../function-schema.js';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import type { JsonSchema } from '../tool.js';
import { toOpenAIStrictSchema } from './openai/strict-schema.js';
import { stripStrictNulls } from './openai/strip-nulls.js';
import { type CallIdRule, PRINTABLE_ID_RULE, planCalls, type RawCall } from './shared/call-plan.js';
import { isRecord } from './shared/json-schema-walk.js';
import { type AdapterOptions, type ResolvedAdapterOptions, resolveAdapterOptions } from './shared/options.js';
import { runModelCalls } from './shared/run-calls.js';
import { internalName, modelTools, refuseRootKeywords } from './shared/tool-list.js';
import { errorJson, toToolReply } from './shared/tool-reply.js';

export { OPENAI_STRICT_UNSUPPORTED_KEYWORDS, toOpenAIStrictSchema } from './openai/strict-schema.js';
export { INVALID_TOOL_NAME } from './shared/call-plan.js';
export type { AdapterOptions } from './shared/options.js';

type ChatTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type ChatToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type ChatToolMessage = OpenAI.Chat.Completions.ChatCompletionToolMessageParam;
type ChatAssistantMessage = OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessage;
type ResponsesTool = OpenAI.Responses.FunctionTool;
type FunctionCallOutput = OpenAI.Responses.ResponseInputItem.FunctionCallOutput;
type ResponseInputItem = OpenAI.Responses.ResponseInputItem;
type ResponseOutputItem = OpenAI.Responses.ResponseOutputItem;

/** Options for the OpenAI adapter: pass the same ones to the list and to the answer functions. */
export interface OpenAIAdapterOptions extends AdapterOptions {
  /**
   * Send tools with `strict: true` and their schemas converted to OpenAI's strict subset (default
   * false). The answer functions then strip the `null`s strict mode makes the model send for
   * optional properties.
   */
  readonly strict?: boolean;
}

/** The most tools OpenAI accepts in one request. */
export const OPENAI_MAX_TOOLS = 128;

/** What OpenAI refuses at the root of a function's parameters, strict or not. */
const ROOT_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'enum', 'const', 'not'] as const;

/** Generated call ids start `call_gt_` so they are easy to tell from the provider's own. */
const ID_RULE: CallIdRule = { ...PRINTABLE_ID_RULE, prefix: 'call_gt_' };

const strictCache = new WeakMap<object, JsonSchema>();

function parametersFor<C>(registry: ToolRegistry<C>, schema: FunctionSchema, strict: boolean): JsonSchema {
  refuseRootKeywords(registry, schema, ROOT_KEYWORDS, 'OpenAI');
  if (!strict) return schema.parameters;
  // The registry hands out the same frozen schema object until the tool changes: convert it once.
  let converted = strictCache.get(schema.parameters);
  if (converted === undefined) {
    converted = toOpenAIStrictSchema(schema.parameters, internalName(registry, schema.name));
    strictCache.set(schema.parameters, converted);
  }
  return converted;
}

function listFor<C>(registry: ToolRegistry<C>, ctx: InvokeContext<C>, options: OpenAIAdapterOptions) {
  resolveAdapterOptions(options);
  const strict = options.strict === true;
  return modelTools(registry, ctx, 'OpenAI', OPENAI_MAX_TOOLS).map((schema) => ({
    schema,
    parameters: parametersFor(registry, schema, strict),
    strict,
  }));
}

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
  return listFor(registry, ctx, options).map(({ schema, parameters, strict }) => ({
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
 * The model's tools for the Responses API, as `{ type: 'function', name, description, parameters,
 * strict }`. Same list, same checks as `toChatCompletionTools`; `strict` is always set explicitly
 * because the Responses API would otherwise assume it.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { ToolRegistry } from 'graded-tools';
 * import { answerResponsesFunctionCalls, sanitizeResponsesOutput, toResponsesTools } from 'graded-tools/openai';
 *
 * const registry = new ToolRegistry();
 * const client = new OpenAI();
 * const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Hi' }];
 * for (let turn = 0; turn < 8; turn += 1) {
 *   const response = await client.responses.create({ model: 'gpt-4.1-mini', input, tools: toResponsesTools(registry) });
 *   const outputs = await answerResponsesFunctionCalls(registry, response.output);
 *   if (outputs.length === 0) break;
 *   input.push(...sanitizeResponsesOutput(response.output), ...outputs);
 * }
 * ```
 */
export function toResponsesTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: OpenAIAdapterOptions = {},
): ResponsesTool[] {
  return listFor(registry, ctx, options).map(({ schema, parameters, strict }) => ({
    type: 'function',
    name: schema.name,
    description: schema.description,
    parameters,
    strict,
  }));
}

interface ReadCall extends RawCall {
  readonly kind: 'function' | 'custom';
  readonly args: unknown;
}

function readChatCall(call: unknown): ReadCall {
  if (!isRecord(call)) return { kind: 'function', id: undefined, name: undefined, args: undefined };
  if (call.type === 'custom' && isRecord(call.custom)) {
    return { kind: 'custom', id: call.id, name: call.custom.name, args: call.custom.input };
  }
  const fn = isRecord(call.function) ? call.function : {};
  return { kind: 'function', id: call.id, name: fn.name, args: fn.arguments };
}

function chatCallsOf(source: unknown): ReadCall[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.tool_calls : undefined;
  return Array.isArray(list) ? list.map(readChatCall) : [];
}

function readResponsesCall(item: Record<string, unknown>): ReadCall {
  return { kind: 'function', id: item.call_id, name: item.name, args: item.arguments };
}

function responsesItemsOf(source: unknown): unknown[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.output : undefined;
  return Array.isArray(list) ? list : [];
}

function isFunctionCallItem(item: unknown): item is Record<string, unknown> {
  return isRecord(item) && item.type === 'function_call';
}

/** Arguments as the replayed message carries them: a JSON object string, `{}` if the model's was not. */
function replayArguments(args: unknown): string {
  if (typeof args === 'string') {
    if (args.trim() === '') return '{}';
    try {
      return isRecord(JSON.parse(args)) ? args : '{}';
    } catch {
      return '{}';
    }
  }
  if (!isRecord(args)) return '{}';
  try {
    return JSON.stringify(args) ?? '{}';
  } catch {
    return '{}';
  }
}

async function answerCalls<C>(
  registry: ToolRegistry<C>,
  calls: readonly ReadCall[],
  ctx: InvokeContext<C>,
  options: OpenAIAdapterOptions,
): Promise<{ id: string; content: string }[]> {
  const resolved: ResolvedAdapterOptions = resolveAdapterOptions(options);
  const plan = planCalls(calls, ID_RULE);
  const strictParameters =
    options.strict === true
      ? new Map(registry.toFunctionSchemas(ctx).map((schema) => [schema.name, schema.parameters]))
      : undefined;
  const results = await runModelCalls(
    registry,
    plan.map(({ name }, index) => {
      const args = calls[index]?.args;
      const parameters = strictParameters?.get(name);
      return { name, args: parameters === undefined ? args : stripStrictNulls(args, parameters) };
    }),
    ctx,
    resolved,
  );
  return results.map((result, index) => {
    const { name, id } = plan[index] ?? { name: '', id: undefined };
    const reply = toToolReply(result, name, resolved.maxResultChars, ctx.locale);
    return {
      id: id ?? '',
      content: reply.ok ? reply.text : errorJson(reply.code, reply.message, resolved.maxResultChars),
    };
  });
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
  const answers = await answerCalls(registry, chatCallsOf(message), ctx, options);
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

/**
 * Runs the `function_call` items of a Responses API output through the model's exit and returns one
 * `function_call_output` item per call, in order. Give it `response.output` (or the response, or
 * any list of input/output items; other item types are ignored). Same guarantees as
 * `answerChatToolCalls`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { answerResponsesFunctionCalls } from 'graded-tools/openai';
 *
 * const registry = new ToolRegistry();
 * const outputs = await answerResponsesFunctionCalls(registry, [
 *   { type: 'function_call', call_id: 'call_1', name: 'kb__search', arguments: '{"query":"refund"}' },
 * ]);
 * console.log(outputs[0]?.output); // {"error":{"code":"UNKNOWN_TOOL", …}}
 * ```
 */
export async function answerResponsesFunctionCalls<C>(
  registry: ToolRegistry<C>,
  output: readonly unknown[] | { readonly output?: readonly unknown[] | null | undefined } | null | undefined,
  ctx: InvokeContext<C> = {},
  options: OpenAIAdapterOptions = {},
): Promise<FunctionCallOutput[]> {
  const calls = responsesItemsOf(output).filter(isFunctionCallItem).map(readResponsesCall);
  const answers = await answerCalls(registry, calls, ctx, options);
  return answers.map(({ id, content }) => ({ type: 'function_call_output', call_id: id, output: content }));
}

/**
 * The Responses output items to put back into `input` when you keep the conversation yourself
 * (rather than `previous_response_id`): `function_call` items get legal names, unique `call_id`s (the
 * ones `answerResponsesFunctionCalls` answers) and JSON-object arguments; every other item (messages,
 * reasoning) is passed through unchanged.
 *
 * @example
 * ```ts
 * import { sanitizeResponsesOutput } from 'graded-tools/openai';
 *
 * const items = sanitizeResponsesOutput([
 *   { type: 'function_call', call_id: 'c1', name: '', arguments: '{}' },
 *   { type: 'function_call', call_id: 'c1', name: 'kb__search', arguments: '{}' },
 * ]);
 * // names: 'invalid_tool_name', 'kb__search'; call ids: 'c1', 'call_gt_1'
 * console.log(items);
 * ```
 */
export function sanitizeResponsesOutput(
  items: readonly (ResponseOutputItem | ResponseInputItem)[],
): ResponseInputItem[] {
  const list: readonly unknown[] = Array.isArray(items) ? items : [];
  const calls = list.filter(isFunctionCallItem);
  const plan = planCalls(calls.map(readResponsesCall), ID_RULE);
  let next = 0;
  // Output items are valid input items on the wire; the SDK's types only differ in optional details.
  return list.map((item) => {
    if (!isFunctionCallItem(item)) return item as ResponseInputItem;
    const { name, id } = plan[next] ?? { name: '', id: undefined };
    next += 1;
    return {
      ...item,
      call_id: id ?? '',
      name,
      arguments: replayArguments(item.arguments),
    } as ResponseInputItem;
  });
}
