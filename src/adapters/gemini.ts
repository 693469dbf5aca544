import type { Content, FunctionCall, FunctionDeclaration, Part, Tool } from '@google/genai';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import { isRecord } from '../util/is-record.js';
import { answerTurn } from './core/answer-turn.js';
import { type CallIdRule, PRINTABLE_ID_RULE, planCalls, type RawCall } from './core/call-plan.js';
import { modelTools } from './core/list-tools.js';
import { type AdapterOptions, resolveAdapterOptions } from './core/options.js';

export { INVALID_TOOL_NAME } from './core/call-plan.js';
export type { AdapterOptions } from './core/options.js';

/** Options for the Gemini adapter. */
export type GeminiAdapterOptions = AdapterOptions;

/** The most function declarations Gemini accepts (the `@google/genai` `Tool` type says 512). */
export const GEMINI_MAX_FUNCTION_DECLARATIONS = 512;

/** Gemini may send calls without ids; those stay without one and are matched by order and name. */
const ID_RULE: CallIdRule = { ...PRINTABLE_ID_RULE, prefix: 'call_gt_', optional: true };

/**
 * The model's tools as Gemini function declarations: exactly `registry.toFunctionSchemas(ctx)` as
 * `{ name, description, parametersJsonSchema }` (plain JSON Schema, no OpenAPI conversion). Throws
 * `ToolDefinitionError` at list time for more than 512 tools. Schemas are frozen.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { toGeminiFunctionDeclarations } from 'graded-tools/gemini';
 *
 * const declarations = toGeminiFunctionDeclarations(new ToolRegistry(), { scope: 'desk' });
 * console.log(declarations.map((declaration) => declaration.name));
 * ```
 */
export function toGeminiFunctionDeclarations<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: GeminiAdapterOptions = {},
): FunctionDeclaration[] {
  resolveAdapterOptions(options);
  return modelTools(registry, ctx, 'Gemini', GEMINI_MAX_FUNCTION_DECLARATIONS).map((schema) => ({
    name: schema.name,
    description: schema.description,
    parametersJsonSchema: schema.parameters,
  }));
}

/**
 * `config.tools` for `generateContent`: one tool holding every function declaration, or an empty
 * list when the model may call nothing here (Gemini refuses a tool without declarations).
 *
 * @example
 * ```ts
 * import { type Content, GoogleGenAI } from '@google/genai';
 * import { ToolRegistry } from 'graded-tools';
 * import { answerGeminiFunctionCalls, sanitizeGeminiContent, toGeminiTools } from 'graded-tools/gemini';
 *
 * const registry = new ToolRegistry();
 * const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY ?? '' });
 * const contents: Content[] = [{ role: 'user', parts: [{ text: 'Hi' }] }];
 * for (let turn = 0; turn < 8; turn += 1) {
 *   const response = await ai.models.generateContent({
 *     model: 'gemini-2.5-flash',
 *     contents,
 *     config: { tools: toGeminiTools(registry) },
 *   });
 *   const content = response.candidates?.[0]?.content;
 *   if (content === undefined) break;
 *   const parts = await answerGeminiFunctionCalls(registry, content);
 *   if (parts.length === 0) break;
 *   contents.push(sanitizeGeminiContent(content), { role: 'user', parts });
 * }
 * ```
 */
export function toGeminiTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: GeminiAdapterOptions = {},
): Tool[] {
  const functionDeclarations = toGeminiFunctionDeclarations(registry, ctx, options);
  return functionDeclarations.length === 0 ? [] : [{ functionDeclarations }];
}

interface ReadCall extends RawCall {
  readonly args: unknown;
}

function readCall(call: unknown): ReadCall {
  return isRecord(call)
    ? { id: call.id, name: call.name, args: call.args }
    : { id: undefined, name: undefined, args: undefined };
}

/** The function calls in a model content, a list of parts, or a list of calls (`response.functionCalls`). */
function callsOf(source: unknown): ReadCall[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.parts : undefined;
  if (!Array.isArray(list)) return [];
  const calls: ReadCall[] = [];
  for (const item of list) {
    if (isRecord(item) && isRecord(item.functionCall)) calls.push(readCall(item.functionCall));
    else if (isRecord(item) && !('functionCall' in item) && ('name' in item || 'args' in item))
      calls.push(readCall(item));
  }
  return calls;
}

/**
 * Runs the model's `functionCall`s through the model's exit and returns one `functionResponse` part
 * per call, in order: `{ output: data }` for a success (the data as JSON, or the cut JSON text past
 * `maxResultChars`), `{ error: { code, message } }` for a failure — Gemini's own keys for both. Give
 * it the model's content, its parts, or `response.functionCalls`. Never throws for anything the
 * model sent; never rejects. Names and ids match `sanitizeGeminiContent`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { answerGeminiFunctionCalls } from 'graded-tools/gemini';
 *
 * const registry = new ToolRegistry();
 * const parts = await answerGeminiFunctionCalls(registry, {
 *   role: 'model',
 *   parts: [{ functionCall: { name: 'message__send', args: { text: 'hi' } } }],
 * });
 * console.log(parts[0]?.functionResponse?.response); // { error: { code: 'UNKNOWN_TOOL', … } }
 * ```
 */
export async function answerGeminiFunctionCalls<C>(
  registry: ToolRegistry<C>,
  content: Content | readonly Part[] | readonly FunctionCall[] | null | undefined,
  ctx: InvokeContext<C> = {},
  options: GeminiAdapterOptions = {},
): Promise<Part[]> {
  const resolved = resolveAdapterOptions(options);
  const calls = callsOf(content);
  const answered = await answerTurn({
    registry,
    calls,
    rule: ID_RULE,
    ctx,
    options: resolved,
    argumentsOf: (call) => ({ args: call.args }),
  });
  return answered.map(({ name, id, reply }): Part => {
    const response: Record<string, unknown> = reply.ok
      ? { output: reply.truncated ? reply.text : JSON.parse(reply.text) }
      : { error: { code: reply.code, message: reply.message } };
    return { functionResponse: { ...(id === undefined ? {} : { id }), name, response } };
  });
}

/**
 * The model's content to put back into `contents`, safe to send again: `functionCall` parts get
 * legal names (`invalid_tool_name` for an illegal one), unique ids where the model gave ids, and
 * object `args`; every other part (text, thought signatures) is kept as is.
 *
 * @example
 * ```ts
 * import { sanitizeGeminiContent } from 'graded-tools/gemini';
 *
 * const content = sanitizeGeminiContent({ role: 'model', parts: [{ functionCall: { name: 'a b', args: {} } }] });
 * console.log(content.parts?.[0]?.functionCall?.name); // 'invalid_tool_name'
 * ```
 */
export function sanitizeGeminiContent(content: Content): Content {
  const source: Record<string, unknown> = isRecord(content) ? content : {};
  const parts: readonly unknown[] = Array.isArray(source.parts) ? source.parts : [];
  const plan = planCalls(callsOf(parts), ID_RULE);
  let next = 0;
  const sanitized = parts.map((part): Part => {
    if (!isRecord(part) || !isRecord(part.functionCall)) return part as Part;
    const { name, id } = plan[next] ?? { name: '', id: undefined };
    next += 1;
    const { id: _id, ...call } = part.functionCall;
    return {
      ...part,
      functionCall: {
        ...call,
        ...(id === undefined ? {} : { id }),
        name,
        args: isRecord(call.args) ? call.args : {},
      },
    };
  });
  return { ...source, role: typeof source.role === 'string' ? source.role : 'model', parts: sanitized };
}
