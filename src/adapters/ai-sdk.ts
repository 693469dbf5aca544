import { jsonSchema, type Tool, type ToolSet, tool } from 'ai';
import type { Locale } from '../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import type { ReadOnlyResult } from '../result.js';
import { combineSignals } from '../util/combine-signals.js';
import { isRecord } from '../util/is-record.js';
import { answerCall } from './core/answer-call.js';
import { createLimiter } from './core/limit-concurrency.js';
import { modelTools } from './core/list-tools.js';
import { type AdapterOptions, type ResolvedAdapterOptions, resolveAdapterOptions } from './core/options.js';
import { replyLocale } from './core/reply-locale.js';
import { toToolReply } from './core/tool-reply.js';

export { sanitizeAiSdkMessages } from './ai-sdk/sanitize-messages.js';
export type { AdapterOptions } from './core/options.js';

/** Options for the AI SDK adapter. */
export type AiSdkAdapterOptions = AdapterOptions;

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/** What the model sees for a result: JSON for data, cut text past the limit, `error-text` for a failure. */
function modelOutput(
  output: unknown,
  tool: string,
  options: ResolvedAdapterOptions,
  locale: Locale | undefined,
): ToolResultOutput {
  // Outputs restored from storage (UI messages) may not be results of this version: fall back to JSON.
  if (!isRecord(output) || typeof output.ok !== 'boolean') {
    return { type: 'text', value: JSON.stringify(output ?? null) ?? 'null' };
  }
  const reply = toToolReply(output as unknown as ReadOnlyResult, tool, options.maxResultChars, locale);
  if (!reply.ok) return { type: 'error-text', value: reply.message };
  return reply.truncated
    ? { type: 'text', value: reply.text }
    : { type: 'json', value: JSON.parse(reply.text) };
}

/**
 * The model's tools as a Vercel AI SDK `ToolSet` for `generateText` / `streamText`: exactly
 * `registry.toFunctionSchemas(ctx)`, each `tool({ description, inputSchema: jsonSchema(…), execute })`.
 * `execute` puts the call through the model's exit and returns its result (`{ ok: true, data }` or
 * `{ ok: false, code, error }`) instead of throwing, so the app sees the code in `toolResults`;
 * `toModelOutput` shows the model the data as JSON (cut past `maxResultChars`) or the message as
 * `error-text`, which providers with an error channel mark as a failed call. Input validation is the
 * exit's (the JSON schema has no validator here), so schema-failing input reaches the model as a
 * fixable `INVALID_INPUT`. Names the set does not have and unparseable arguments are answered by the
 * AI SDK itself (`NoSuchToolError`, `InvalidToolInputError`) and never reach a tool. The set has a
 * null prototype, so a model calling `constructor` or `__proto__` finds nothing.
 *
 * At most `concurrency` calls of this set run at once; within one step, calls past `maxCallsPerTurn`
 * are answered `TOO_MANY_CALLS` without running. The AI SDK replays the model's calls itself: pass
 * `prepareStep: ({ messages }) => ({ messages: sanitizeAiSdkMessages(messages) })` so an illegal name
 * or a repeated call id from the model cannot make the provider refuse the next step.
 *
 * @example
 * ```ts
 * import { generateText, type LanguageModel, stepCountIs } from 'ai';
 * import { ToolRegistry } from 'graded-tools';
 * import { toAiSdkTools } from 'graded-tools/ai-sdk';
 *
 * declare const model: LanguageModel; // e.g. openai('gpt-4.1-mini') from @ai-sdk/openai
 * const registry = new ToolRegistry();
 * const result = await generateText({
 *   model,
 *   tools: toAiSdkTools(registry, { scope: 'desk' }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Find the refund policy.',
 * });
 * console.log(result.text);
 * ```
 */
export function toAiSdkTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: AiSdkAdapterOptions = {},
): ToolSet {
  const resolved = resolveAdapterOptions(options);
  const limit = createLimiter(resolved.concurrency);
  // The AI SDK hands every call of one step the same `messages` array: count calls per step by it.
  const callsPerStep = new WeakMap<object, number>();
  const tools: ToolSet = Object.create(null);
  for (const schema of modelTools(registry, ctx, 'The AI SDK', Number.POSITIVE_INFINITY)) {
    const name = schema.name;
    const title = registry.get(name)?.title;
    tools[name] = tool<unknown, ReadOnlyResult>({
      description: schema.description,
      ...(title === undefined ? {} : { title }),
      // A mutable copy: provider packages may adjust the schema they send; the registry's stays frozen.
      inputSchema: jsonSchema(structuredClone(schema.parameters) as JsonSchemaInput),
      execute: (input, { abortSignal, messages, toolCallId }) => {
        let position: number | undefined;
        if (typeof messages === 'object' && messages !== null) {
          position = callsPerStep.get(messages) ?? 0;
          callsPerStep.set(messages, position + 1);
        }
        const signal = combineSignals(ctx.signal, abortSignal);
        const callContext = signal === undefined ? ctx : { ...ctx, signal };
        return answerCall({
          registry,
          name,
          args: input,
          ctx: callContext,
          options: resolved,
          limit,
          position,
          callId: toolCallId,
        });
      },
      toModelOutput: ({ output }) => modelOutput(output, name, resolved, replyLocale(registry, ctx)),
    });
  }
  return tools;
}
