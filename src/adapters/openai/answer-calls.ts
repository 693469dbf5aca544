import type { JsonSchema } from '../../json-schema.js';
import { formatMessage } from '../../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { failure } from '../../result.js';
import { isRecord } from '../../util/is-record.js';
import { answerTurn, type PreparedArguments } from '../core/answer-turn.js';
import { type CallIdRule, PRINTABLE_ID_RULE, type RawCall } from '../core/call-plan.js';
import { type ResolvedAdapterOptions, resolveAdapterOptions } from '../core/options.js';
import { replyLocale } from '../core/reply-locale.js';
import { errorJson } from '../core/tool-reply.js';
import { stripStrictNulls } from './strip-nulls.js';
import type { OpenAIAdapterOptions } from './tool-list.js';

/** Generated call ids start `call_gt_` so they are easy to tell from the provider's own. */
export const ID_RULE: CallIdRule = { ...PRINTABLE_ID_RULE, prefix: 'call_gt_' };

/** One call read from Chat Completions or Responses, not yet trusted. */
export interface ReadCall extends RawCall {
  readonly kind: 'function' | 'custom';
  readonly args: unknown;
}

/** A Chat Completions tool call (function or custom), read without trusting its shape. */
export function readChatCall(call: unknown): ReadCall {
  if (!isRecord(call)) return { kind: 'function', id: undefined, name: undefined, args: undefined };
  if (call.type === 'custom' && isRecord(call.custom)) {
    return { kind: 'custom', id: call.id, name: call.custom.name, args: call.custom.input };
  }
  const fn = isRecord(call.function) ? call.function : {};
  return { kind: 'function', id: call.id, name: fn.name, args: fn.arguments };
}

/** The tool calls of an assistant message, or of a bare list of calls. */
export function chatCallsOf(source: unknown): ReadCall[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.tool_calls : undefined;
  return Array.isArray(list) ? list.map(readChatCall) : [];
}

/** A Responses `function_call` item as a call. */
export function readResponsesCall(item: Record<string, unknown>): ReadCall {
  return { kind: 'function', id: item.call_id, name: item.name, args: item.arguments };
}

/** The items of a Response (its `output`) or of a bare list. */
export function responsesItemsOf(source: unknown): unknown[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.output : undefined;
  return Array.isArray(list) ? list : [];
}

/** True for a Responses `function_call` item. */
export function isFunctionCallItem(item: unknown): item is Record<string, unknown> {
  return isRecord(item) && item.type === 'function_call';
}

/** Arguments as the replayed message carries them: a JSON object string, `{}` if the model's was not. */
export function replayArguments(args: unknown): string {
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

/** The arguments of one call: strict-mode nulls stripped when its tool is listed strict. */
function prepareArguments<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C>,
  args: unknown,
  name: string,
  strictParameters: ReadonlyMap<string, JsonSchema> | undefined,
): PreparedArguments {
  const parameters = strictParameters?.get(name);
  if (parameters === undefined) return { args };
  const stripped = stripStrictNulls(args, parameters);
  if ('args' in stripped) return stripped;
  // The registry's own wording for arguments nested too deep, so the model reads one message.
  const detail = `it is nested deeper than ${stripped.tooDeep} levels`;
  const message = formatMessage('INVALID_ARGUMENTS', { tool: name, detail }, replyLocale(registry, ctx));
  return { refused: failure('INVALID_ARGUMENTS', message) };
}

/**
 * Runs the calls through the model's exit (stripping strict-mode nulls when `strict`) and returns,
 * per call and in order, the id it is answered under and the text the model sees.
 */
export async function answerOpenAICalls<C>(
  registry: ToolRegistry<C>,
  calls: readonly ReadCall[],
  ctx: InvokeContext<C>,
  options: OpenAIAdapterOptions,
): Promise<{ id: string; content: string }[]> {
  const resolved: ResolvedAdapterOptions = resolveAdapterOptions(options);
  const strictParameters =
    options.strict === true
      ? new Map(registry.toFunctionSchemas(ctx).map((schema) => [schema.name, schema.parameters]))
      : undefined;
  const answered = await answerTurn({
    registry,
    calls,
    rule: ID_RULE,
    ctx,
    options: resolved,
    argumentsOf: (call, name) => prepareArguments(registry, ctx, call.args, name, strictParameters),
  });
  return answered.map(({ id, reply }) => ({
    id: id ?? '',
    content: reply.ok ? reply.text : errorJson(reply.code, reply.message, resolved.maxResultChars),
  }));
}
