import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import { type BridgeRefusal, serveNode } from '../../http/node-fetch-bridge.js';
import type { NodeListenerRequest, NodeListenerResponse } from '../../http/node-shapes.js';
import type { ToolRegistry } from '../../registry.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import { hostRefusal, LOOPBACK_HOSTS } from '../mcp/host-check.js';
import type { McpHttpServer } from '../mcp/mcp-http-server.js';
import { listenMcpHttp } from '../mcp/node-http.js';
import type { McpHttpOptions, ServeMcpHttpOptions } from '../mcp/options.js';
import { buildMcpServer, type McpContext } from './server.js';

export type { NodeHttpServer, NodeListenerRequest, NodeListenerResponse } from '../../http/node-shapes.js';
export type { McpHttpServer } from '../mcp/mcp-http-server.js';
export type { McpHttpOptions, ServeMcpHttpOptions } from '../mcp/options.js';

/** A Fetch handler for MCP: pass `authInfo` from your own authentication. */
export type McpFetchHandler = (
  request: Request,
  options?: { readonly authInfo?: AuthInfo },
) => Promise<Response>;

function refusal(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

/**
 * A Fetch handler (`(Request) => Promise<Response>`, for Hono, Bun, Deno, Workers) serving the MCP
 * server through SDK v2's `createMcpHandler`: a fresh server per request, so no session state is kept
 * and `maxCallsPerTurn` bounds the `tools/call`s of one request; `concurrency` bounds tool runs across
 * all of them. Both protocol eras are served: 2026-07-28 requests and, statelessly, 2025-era ones.
 * Requests whose `Host` or `Origin` is not allowed answer 403 before anything is parsed.
 * Authentication is yours: pass `{ authInfo }` and derive the context from `ctx.http?.authInfo`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { createMcpFetchHandler } from 'graded-tools/mcp-server';
 *
 * const handle = createMcpFetchHandler(new ToolRegistry(), { scope: 'desk' });
 * const response = await handle(new Request('http://localhost/mcp', { method: 'GET' }));
 * console.log(response.status); // 405: streams and sessions are not served
 * ```
 */
export function createMcpFetchHandler<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: McpHttpOptions = {},
): McpFetchHandler {
  const policy = {
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS,
    allowedOrigins: options.allowedOrigins ?? [],
  };
  // Checked now, so a wrong option fails at startup rather than on the first request.
  const { concurrency } = resolveAdapterOptions(options);
  // One limiter for every request: `concurrency` bounds tool runs across clients, not per request.
  const limit = createLimiter(concurrency);
  // A server per request: its `tools/call`s (a JSON-RPC batch) are one turn.
  const handler = createMcpHandler(
    () => buildMcpServer({ registry, ctx, options, limit, countsCalls: true }),
    options.maxRequestBodySize === undefined ? {} : { maxRequestBodySize: options.maxRequestBodySize },
  );
  return async (request, given) => {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    const refused = hostRefusal(host, request.headers.get('origin') ?? undefined, policy);
    if (refused !== undefined) return refusal(403, refused);
    return handler.fetch(request, given?.authInfo === undefined ? {} : { authInfo: given.authInfo });
  };
}

/**
 * A `node:http` request handler around `createMcpFetchHandler`. Authentication is yours: set
 * `req.auth` (an MCP `AuthInfo`) before calling it. Its request and response are declared by shape
 * (an `IncomingMessage` and a `ServerResponse` fit), so this entry's types need no `@types/node`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { ToolRegistry } from 'graded-tools';
 * import { createMcpHttpHandler } from 'graded-tools/mcp-server';
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
): (req: NodeListenerRequest & { auth?: AuthInfo }, res: NodeListenerResponse) => Promise<void> {
  const handle = createMcpFetchHandler(registry, ctx, options);
  // Node's http server is the only caller: what it passes is an IncomingMessage and a ServerResponse.
  return (req, res) =>
    serveNode((request) => handle(request, req.auth === undefined ? {} : { authInfo: req.auth }), {
      refusal: bridgeRefusal,
    })(req as IncomingMessage, res as ServerResponse);
}

/** The bridge's own answers, as the JSON-RPC errors SDK v1's handler gives for the same requests. */
function bridgeRefusal(why: BridgeRefusal): Response {
  if (why === 'host') return refusal(403, 'Host header not allowed');
  if (why === 'target') return refusal(400, 'Bad request.');
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null },
    { status: 500 },
  );
}

/**
 * Starts a `node:http` server with `createMcpHttpHandler` on `path`, bound to loopback unless told
 * otherwise. When bound elsewhere, `host` is added to the allowed `Host` names.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { serveMcpHttp } from 'graded-tools/mcp-server';
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
