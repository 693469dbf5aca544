import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolRegistry } from '../../registry.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import { hostRefusal, LOOPBACK_HOSTS } from './host-check.js';
import type { McpHttpServer } from './mcp-http-server.js';
import { header, listenMcpHttp, refuse } from './node-http.js';
import type { McpHttpOptions, ServeMcpHttpOptions } from './options.js';
import { buildMcpServer, type McpContext } from './server.js';

export type { McpHttpServer } from './mcp-http-server.js';
export type { McpHttpOptions, ServeMcpHttpOptions } from './options.js';

/**
 * A `node:http` request handler serving the MCP server over the SDK's Streamable HTTP transport, in
 * stateless mode: every POST gets a fresh server and transport, so no session state is kept and
 * nothing leaks between clients; `concurrency` bounds tool runs across all of them. GET and DELETE
 * (streams and sessions) answer 405. Requests whose `Host` or `Origin` is not allowed answer 403
 * before anything is parsed. Authentication is yours:
 * set `req.auth` (an MCP `AuthInfo`) before calling the handler and derive the context from
 * `extra.authInfo` with a context function.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { ToolRegistry } from 'graded-tools';
 * import { createMcpHttpHandler } from 'graded-tools/mcp';
 *
 * const handle = createMcpHttpHandler(new ToolRegistry(), { scope: 'desk' });
 * createServer((req, res) => {
 *   if (req.url === '/mcp') void handle(req, res);
 *   else res.writeHead(404).end();
 * }).listen(3000, '127.0.0.1');
 * ```
 */
export function createMcpHttpHandler<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: McpHttpOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const policy = {
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS,
    allowedOrigins: options.allowedOrigins ?? [],
  };
  // Checked now, so a wrong option fails at startup rather than on the first request.
  const { concurrency } = resolveAdapterOptions(options);
  // One limiter for every request: `concurrency` bounds tool runs across clients, not per request.
  const limit = createLimiter(concurrency);
  return async (req, res) => {
    const refusal = hostRefusal(header(req, 'host'), header(req, 'origin'), policy);
    if (refusal !== undefined) return refuse(res, 403, refusal);
    if (req.method !== 'POST') return refuse(res, 405, 'Method not allowed.', { allow: 'POST' });
    // One server per request: its `tools/call`s (a JSON-RPC batch) are one turn.
    const server = buildMcpServer({ registry, ctx, options, limit, countsCalls: true });
    // No `sessionIdGenerator`: stateless mode, one transport per request.
    const transport = new StreamableHTTPServerTransport({
      enableJsonResponse: true,
      ...(options.maxRequestBodySize === undefined ? {} : { maxRequestBodySize: options.maxRequestBodySize }),
    });
    res.on('close', () => {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      refuse(res, 500, 'Internal server error');
    }
  };
}

/**
 * Starts a `node:http` server with `createMcpHttpHandler` on `path`, bound to loopback unless told
 * otherwise. When bound elsewhere, `host` is added to the allowed `Host` names.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { serveMcpHttp } from 'graded-tools/mcp';
 *
 * const running = await serveMcpHttp(new ToolRegistry(), { flags: { kb: true } }, { port: 3000 });
 * console.log(`MCP on ${running.url}`);
 * await running.close();
 * ```
 */
export function serveMcpHttp<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: ServeMcpHttpOptions = {},
): Promise<McpHttpServer> {
  return listenMcpHttp(options, (allowedHosts) =>
    createMcpHttpHandler(registry, ctx, { ...options, allowedHosts }),
  );
}
