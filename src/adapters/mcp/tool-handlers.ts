import type { InvokeContext, ToolRegistry } from '../../registry.js';
import type { ReadOnlyResult } from '../../result.js';
import { answerCall } from '../core/answer-call.js';
import type { Limiter } from '../core/limit-concurrency.js';
import { modelTools } from '../core/list-tools.js';
import { resolveAdapterOptions } from '../core/options.js';
import { replyLocale } from '../core/reply-locale.js';
import { toToolReply } from '../core/tool-reply.js';
import { CallSignals } from './call-signals.js';
import type { McpServerOptions } from './options.js';
import { type McpToolListing, toMcpTool } from './tool-listing.js';

/** Shared by every server, so the per-request servers of the HTTP handlers reuse one pool too. */
const callSignals = new CallSignals();

/**
 * One fixed `InvokeContext`, or a function that derives it per request from what the SDK hands a
 * request handler (`Extra`: v1's `RequestHandlerExtra`, v2's `ServerContext`).
 */
export type McpContextFrom<AppContext, Extra> =
  | InvokeContext<AppContext>
  | ((extra: Extra) => InvokeContext<AppContext> | Promise<InvokeContext<AppContext>>);

/** What `createToolHandlers` needs: the registry, the context, the options and how calls are bounded. */
export interface McpServerSetup<C, Extra> {
  readonly registry: ToolRegistry<C>;
  readonly ctx: McpContextFrom<C, Extra>;
  readonly options: McpServerOptions;
  /** Bounds tool runs: per server, or across every request of an HTTP handler. */
  readonly limit: Limiter;
  /** True when the server lives for one HTTP request: its calls are one turn, `maxCallsPerTurn` applies. */
  readonly countsCalls: boolean;
}

/** A `tools/call` result, the same shape in SDK v1 and v2. */
export interface McpCallResult {
  content: { type: 'text'; text: string }[];
  isError?: true;
  [key: string]: unknown;
}

/** The two MCP request handlers, free of any SDK: each SDK's server file only wires them in. */
export interface McpToolHandlers<Extra> {
  listTools(extra: Extra): Promise<{ tools: McpToolListing[] }>;
  /** `signal` is the request's cancellation signal, wherever the SDK keeps it. */
  callTool(
    params: { readonly name: string; readonly arguments?: Record<string, unknown> | undefined },
    extra: Extra,
    signal: AbortSignal,
  ): Promise<McpCallResult>;
}

/**
 * `tools/list` lists exactly `registry.toFunctionSchemas(ctx)` under wire names; `tools/call` answers
 * through the model's exit. Refusals, unknown names and bad input are `isError: true` results with
 * the registry's message, never protocol errors: to the model they are mistakes to fix, not crashes.
 */
export function createToolHandlers<C, Extra>(setup: McpServerSetup<C, Extra>): McpToolHandlers<Extra> {
  const { registry, ctx, options, limit } = setup;
  const resolved = resolveAdapterOptions(options);
  // A fixed context is used as is: no await on every call for it.
  const contextFor = (extra: Extra): InvokeContext<C> | Promise<InvokeContext<C>> =>
    typeof ctx === 'function' ? ctx(extra) : ctx;
  let calls = 0;

  return {
    async listTools(extra) {
      const invokeContext = await contextFor(extra);
      const schemas = modelTools(registry, invokeContext, 'MCP', Number.POSITIVE_INFINITY);
      return { tools: schemas.map((schema) => toMcpTool(registry, schema)) };
    },

    async callTool({ name, arguments: args }, extra, signal) {
      // Counted before anything awaits, so a batch is counted in the order it was sent.
      const position = setup.countsCalls ? calls++ : undefined;
      const given = contextFor(extra);
      const invokeContext = given instanceof Promise ? await given : given;
      const callSignal = callSignals.follow(signal, invokeContext.signal);
      let result: ReadOnlyResult;
      try {
        result = await answerCall({
          registry,
          name,
          args: args ?? {},
          ctx: { ...invokeContext, signal: callSignal.signal },
          options: resolved,
          limit,
          position,
        });
      } finally {
        callSignal.release();
      }
      const shown = () => registry.get(name)?.wireName ?? '';
      const reply = toToolReply(result, shown, resolved.maxResultChars, replyLocale(registry, invokeContext));
      return reply.ok
        ? { content: [{ type: 'text', text: reply.text }] }
        : { content: [{ type: 'text', text: reply.message }], isError: true };
    },
  };
}
