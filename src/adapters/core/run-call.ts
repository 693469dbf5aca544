import type { InvokeContext, ToolRegistry } from '../../registry.js';
import type { ReadOnlyResult } from '../../result.js';
import { combineSignals } from '../../util/combine-signals.js';
import { answerCall } from './answer-call.js';
import { createLimiter } from './limit-concurrency.js';
import type { ResolvedAdapterOptions } from './options.js';
import { replyLocale } from './reply-locale.js';
import { errorJson, toToolReply } from './tool-reply.js';

/** One call answered for a framework: the result for the app, the text for the model. */
export interface FrameworkAnswer {
  readonly result: ReadOnlyResult;
  /** The data as JSON (cut past `maxResultChars`), or `{"error":{"code":…,"message":…}}`. */
  readonly text: string;
}

/** Runs one framework tool call through the model's exit. Never rejects. */
export type FrameworkCallRunner = (
  name: string,
  args: unknown,
  signal?: AbortSignal | undefined,
  /** The framework's id for the call, when it has one (tracing's `gen_ai.tool.call.id`). */
  callId?: string | undefined,
) => Promise<FrameworkAnswer>;

/**
 * The one call path of the framework adapters (Agents SDK, LangChain, Mastra): a framework runs each
 * tool on its own, so every tool of one set shares this runner and its `concurrency` limit. Turns
 * are the framework's, so `maxCallsPerTurn` is not counted here; bound the run with the framework's
 * own step limit.
 */
export function createFrameworkRunner<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C>,
  options: ResolvedAdapterOptions,
): FrameworkCallRunner {
  const limit = createLimiter(options.concurrency);
  return async (name, args, signal, callId) => {
    const combined = combineSignals(ctx.signal, signal);
    const callContext = combined === undefined ? ctx : { ...ctx, signal: combined };
    const result = await answerCall({ registry, name, args, ctx: callContext, options, limit, callId });
    return { result, text: replyText(registry, ctx, options, name, result) };
  };
}

/** The text the model reads for one result: the data as JSON (cut to the limit), or the error as JSON. */
export function replyText<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C>,
  options: ResolvedAdapterOptions,
  name: string,
  result: ReadOnlyResult,
): string {
  const reply = toToolReply(result, name, options.maxResultChars, replyLocale(registry, ctx));
  return reply.ok ? reply.text : errorJson(reply.code, reply.message, options.maxResultChars);
}
