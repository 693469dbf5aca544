import type OpenAI from 'openai';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { planCalls } from '../core/call-plan.js';
import {
  answerOpenAICalls,
  ID_RULE,
  isFunctionCallItem,
  readResponsesCall,
  replayArguments,
  responsesItemsOf,
} from './answer-calls.js';
import { type OpenAIAdapterOptions, openAITools } from './tool-list.js';

type ResponsesTool = OpenAI.Responses.FunctionTool;
type FunctionCallOutput = OpenAI.Responses.ResponseInputItem.FunctionCallOutput;
type ResponseInputItem = OpenAI.Responses.ResponseInputItem;
type ResponseOutputItem = OpenAI.Responses.ResponseOutputItem;

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
  return openAITools(registry, ctx, options).map(({ schema, parameters, strict }) => ({
    type: 'function',
    name: schema.name,
    description: schema.description,
    parameters,
    strict,
  }));
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
  const answers = await answerOpenAICalls(registry, calls, ctx, options);
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
