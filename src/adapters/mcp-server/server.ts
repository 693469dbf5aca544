import { Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../../registry.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import { type McpServerOptions, serverIdentity } from '../mcp/options.js';
import { createToolHandlers, type McpContextFrom, type McpServerSetup } from '../mcp/tool-handlers.js';

export type { McpServerOptions } from '../mcp/options.js';

/**
 * The context for MCP calls: one fixed `InvokeContext`, or a function that derives it per request
 * from the SDK's `ServerContext` (`ctx.http?.authInfo` set by your HTTP auth, `ctx.sessionId`).
 * `tools/list` and `tools/call` of the same request use the same context, so the list and the exit
 * always agree.
 */
export type McpContext<AppContext = unknown> = McpContextFrom<AppContext, ServerContext>;

/**
 * An MCP server (SDK v2's low-level `Server`, from `@modelcontextprotocol/server`) that lists
 * exactly `registry.toFunctionSchemas(ctx)` under wire names with read-only annotations and answers
 * every `tools/call` through the model's exit — the same tools, results and refusals as
 * `graded-tools/mcp` serves with SDK v1. Connect it to any v2 transport, or hand it to `serveStdio`.
 *
 * @example
 * ```ts
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 * import { ToolRegistry } from 'graded-tools';
 * import { createMcpServer } from 'graded-tools/mcp-server';
 *
 * const registry = new ToolRegistry();
 * serveStdio(() => createMcpServer(registry, { scope: 'desk', flags: { kb: true } }));
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

/** `createMcpServer` with a given limiter, for the per-request servers of the HTTP handler. */
export function buildMcpServer<C>(setup: McpServerSetup<C, ServerContext>): Server {
  const { options } = setup;
  const handlers = createToolHandlers(setup);
  const server = new Server(...serverIdentity(options));
  server.setRequestHandler('tools/list', (_request, ctx) => handlers.listTools(ctx));
  // The SDK asks low-level handlers to project their result for the negotiated protocol era.
  server.setRequestHandler('tools/call', async (request, ctx) =>
    server.projectCallToolResult(await handlers.callTool(request.params, ctx, ctx.mcpReq.signal), undefined),
  );
  return server;
}
