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
import { formatMessage } from '../../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { failure, type ReadOnlyResult } from '../../result.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { combineSignals } from '../shared/combine-signals.js';
import { createLimiter, type Limiter } from '../shared/limit-concurrency.js';
import { type AdapterOptions, resolveAdapterOptions } from '../shared/options.js';
import { PACKAGE_VERSION } from '../shared/package-version.js';
import { replyLocale } from '../shared/reply-locale.js';
import { modelTools } from '../shared/tool-list.js';
import { toToolReply } from '../shared/tool-reply.js';

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

/** Options for the MCP server. `maxCallsPerTurn` does not apply: MCP sends one call per request. */
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
  return buildMcpServer(registry, ctx, options, createLimiter(resolveAdapterOptions(options).concurrency));
}

/**
 * `createMcpServer` with a given limiter, so the stateless HTTP handler can bound tool runs across
 * all requests rather than per request.
 */
export function buildMcpServer<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C>,
  options: McpServerOptions,
  limit: Limiter,
): Server {
  const resolved = resolveAdapterOptions(options);
  const contextFor = async (extra: McpRequestExtra): Promise<InvokeContext<C>> =>
    typeof ctx === 'function' ? await ctx(extra) : ctx;

  const server = new Server(
    { name: options.name ?? 'graded-tools', version: options.version ?? PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const invokeContext = await contextFor(extra);
    const tools = modelTools(registry, invokeContext, 'MCP', Number.POSITIVE_INFINITY).map((schema): Tool => {
      const info = registry.get(schema.name);
      const title = info?.title ?? schema.name;
      return {
        name: schema.name,
        title,
        description: schema.description,
        // The registry refuses a root that is not `type: 'object'`, which is what MCP requires.
        inputSchema: schema.parameters as Tool['inputSchema'],
        annotations: {
          title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: info?.openWorld ?? false,
        },
      };
    });
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const invokeContext = await contextFor(extra);
    const signal = combineSignals(invokeContext.signal, extra.signal);
    const callContext = signal === undefined ? invokeContext : { ...invokeContext, signal };
    const { name, arguments: args } = request.params;
    const result = await limit(async (): Promise<ReadOnlyResult> => {
      try {
        return await registry.invokeReadOnly(name, args ?? {}, callContext);
      } catch (error) {
        const detail = describeThrown(error);
        return failure(
          'RUN_FAILED',
          formatMessage('RUN_FAILED', { detail }, replyLocale(registry, invokeContext)),
        );
      }
    });
    const shown = registry.get(name)?.wireName ?? '';
    const reply = toToolReply(result, shown, resolved.maxResultChars, replyLocale(registry, invokeContext));
    return reply.ok
      ? { content: [{ type: 'text', text: reply.text }] }
      : { content: [{ type: 'text', text: reply.message }], isError: true };
  });

  return server;
}
