import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import type { ReadOnlyResult } from '../../result.js';
import type { FunctionSchema } from '../../tools/function-schema.js';
import { PACKAGE_VERSION } from '../../util/package-version.js';
import { answerCall } from '../core/answer-call.js';
import { createLimiter, type Limiter } from '../core/limit-concurrency.js';
import { modelTools } from '../core/list-tools.js';
import { type AdapterOptions, resolveAdapterOptions } from '../core/options.js';
import { replyLocale } from '../core/reply-locale.js';
import { toToolReply } from '../core/tool-reply.js';
import { CallSignals } from './call-signals.js';

/** Shared by every server, so the per-request servers of the HTTP handler reuse one pool too. */
const callSignals = new CallSignals();

/** What the MCP SDK hands a request handler: the client's cancellation signal, auth info, session id. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The context for MCP calls: one fixed `InvokeContext`, or a function that derives it per request
 * (from `extra.authInfo` set by your HTTP auth, or `extra.sessionId`). `tools/list` and `tools/call`
 * of the same request use the same context, so the list and the exit always agree.
 */
export type McpContext<AppContext = unknown> =
  | InvokeContext<AppContext>
  | ((extra: McpRequestExtra) => InvokeContext<AppContext> | Promise<InvokeContext<AppContext>>);

/**
 * Options for the MCP server. `maxCallsPerTurn` bounds the `tools/call`s of one Streamable HTTP request
 * (a JSON-RPC batch); over stdio or in memory every call is a request of its own.
 */
export interface McpServerOptions extends AdapterOptions {
  /** `serverInfo.name` (default `'graded-tools'`). */
  readonly name?: string;
  /** `serverInfo.version` (default: this package's version). */
  readonly version?: string;
  /** `instructions` sent to the client at initialization. */
  readonly instructions?: string;
}

/**
 * An MCP server (the official SDK's `Server`) that lists exactly `registry.toFunctionSchemas(ctx)` —
 * under wire names, with `annotations: { title, readOnlyHint: true, destructiveHint: false,
 * idempotentHint: true, openWorldHint }` (`openWorldHint` from the tool's `openWorld`) — and answers
 * every `tools/call` through the model's exit. Refusals, unknown names and bad input are `isError:
 * true` results with the registry's message, never protocol errors: to the model they are mistakes to
 * fix, not crashes. At most `concurrency` calls run at once; a client's cancellation aborts its call.
 * Connect it to any transport (`StdioServerTransport`, `InMemoryTransport`, Streamable HTTP).
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { ToolRegistry } from 'graded-tools';
 * import { createMcpServer } from 'graded-tools/mcp';
 *
 * const registry = new ToolRegistry();
 * const server = createMcpServer(registry, { scope: 'desk', flags: { kb: true } });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: McpServerOptions = {},
): Server {
  const limit = createLimiter(resolveAdapterOptions(options).concurrency);
  return buildMcpServer({ registry, ctx, options, limit, countsCalls: false });
}

/** What `buildMcpServer` needs: the registry, the context, the options and how calls are bounded. */
export interface McpServerSetup<C> {
  readonly registry: ToolRegistry<C>;
  readonly ctx: McpContext<C>;
  readonly options: McpServerOptions;
  /** Bounds tool runs: per server, or across every request of an HTTP handler. */
  readonly limit: Limiter;
  /** True when the server lives for one HTTP request: its calls are one turn, `maxCallsPerTurn` applies. */
  readonly countsCalls: boolean;
}

/** The MCP listing of one model tool: its wire name, title, schema and read-only annotations. */
function toMcpTool<C>(registry: ToolRegistry<C>, schema: FunctionSchema): Tool {
  const info = registry.get(schema.name);
  const title = info?.title ?? schema.name;
  const given = info?.inputSchema.$schema;
  const dialect = typeof given === 'string' ? given : undefined;
  return {
    name: schema.name,
    title,
    description: schema.description,
    // The registry refuses a root that is not `type: 'object'`, which is what MCP requires. The model's
    // list drops `$schema` (some providers reject it); MCP clients read it to pick the dialect
    // (SEP-1613), so the tool's own one is put back.
    inputSchema: (dialect === undefined
      ? schema.parameters
      : { $schema: dialect, ...schema.parameters }) as Tool['inputSchema'],
    annotations: {
      title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: info?.openWorld ?? false,
    },
  };
}

/** `createMcpServer` with a given limiter, for the stateless HTTP handler (one server per request). */
export function buildMcpServer<C>(setup: McpServerSetup<C>): Server {
  const { registry, ctx, options, limit } = setup;
  const resolved = resolveAdapterOptions(options);
  // A fixed context is used as is: no await on every call for it.
  const contextFor = (extra: McpRequestExtra): InvokeContext<C> | Promise<InvokeContext<C>> =>
    typeof ctx === 'function' ? ctx(extra) : ctx;
  let calls = 0;

  const server = new Server(
    { name: options.name ?? 'graded-tools', version: options.version ?? PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const invokeContext = await contextFor(extra);
    const schemas = modelTools(registry, invokeContext, 'MCP', Number.POSITIVE_INFINITY);
    return { tools: schemas.map((schema) => toMcpTool(registry, schema)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    // Counted before anything awaits, so a batch is counted in the order it was sent.
    const position = setup.countsCalls ? calls++ : undefined;
    const given = contextFor(extra);
    const invokeContext = given instanceof Promise ? await given : given;
    const { name, arguments: args } = request.params;
    const callSignal = callSignals.follow(extra.signal, invokeContext.signal);
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
  });

  return server;
}
