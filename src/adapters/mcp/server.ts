import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../../registry.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import { type McpServerOptions, serverIdentity } from './options.js';
import { createToolHandlers, type McpContextFrom, type McpServerSetup } from './tool-handlers.js';

export type { McpServerOptions } from './options.js';

/** What the MCP SDK hands a request handler: the client's cancellation signal, auth info, session id. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The context for MCP calls: one fixed `InvokeContext`, or a function that derives it per request
 * (from `extra.authInfo` set by your HTTP auth, or `extra.sessionId`). `tools/list` and `tools/call`
 * of the same request use the same context, so the list and the exit always agree.
 */
export type McpContext<AppContext = unknown> = McpContextFrom<AppContext, McpRequestExtra>;

/**
 * An MCP server (the official SDK v1's `Server`, from `@modelcontextprotocol/sdk`) that lists exactly
 * `registry.toFunctionSchemas(ctx)` — under wire names, with `annotations: { title, readOnlyHint: true,
 * destructiveHint: false, idempotentHint: true, openWorldHint }` (`openWorldHint` from the tool's
 * `openWorld`) — and answers every `tools/call` through the model's exit. Refusals, unknown names and
 * bad input are `isError: true` results with the registry's message, never protocol errors: to the
 * model they are mistakes to fix, not crashes. At most `concurrency` calls run at once; a client's
 * cancellation aborts its call. Connect it to any transport (`StdioServerTransport`,
 * `InMemoryTransport`, Streamable HTTP). For SDK v2 (`@modelcontextprotocol/server`) use
 * `graded-tools/mcp-server`.
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

/** `createMcpServer` with a given limiter, for the stateless HTTP handler (one server per request). */
export function buildMcpServer<C>(setup: McpServerSetup<C, McpRequestExtra>): Server {
  const { options } = setup;
  const server = new Server(...serverIdentity(options));
  installToolHandlers(server, setup);
  return server;
}

/** Answers `tools/list` and `tools/call` on an SDK v1 `Server` (its own, or an `McpServer`'s). */
export function installToolHandlers<C>(server: Server, setup: McpServerSetup<C, McpRequestExtra>): void {
  const handlers = createToolHandlers(setup);
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => handlers.listTools(extra));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    handlers.callTool(request.params, extra, extra.signal),
  );
}
