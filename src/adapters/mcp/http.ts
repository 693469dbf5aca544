import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolRegistry } from '../../registry.js';
import { createLimiter } from '../core/limit-concurrency.js';
import { resolveAdapterOptions } from '../core/options.js';
import { hostRefusal, LOOPBACK_HOSTS } from './host-check.js';
import { buildMcpServer, type McpContext, type McpServerOptions } from './server.js';

/** Options for serving MCP over Streamable HTTP. */
export interface McpHttpOptions extends McpServerOptions {
  /**
   * Hostnames (without port) the `Host` header may name (default: `localhost`, `127.0.0.1`, `[::1]`).
   * Add your public name when deployed; `'any'` only behind a proxy that checks it. This is the
   * DNS-rebinding defence the MCP spec asks local servers for.
   */
  readonly allowedHosts?: readonly string[] | 'any';
  /** Exact browser origins allowed besides those on an allowed host (default none). */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body read, in bytes (default 4 MiB, the SDK's). */
  readonly maxRequestBodySize?: number;
}

function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

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

/** A running MCP HTTP server. */
export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The underlying `node:http` server. */
  readonly server: HttpServer;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

/** Where and how `serveMcpHttp` listens. */
export interface ServeMcpHttpOptions extends McpHttpOptions {
  /** Port (default 0: any free port; read it from `url`). */
  readonly port?: number;
  /** Interface to bind (default `127.0.0.1`: this machine only). */
  readonly host?: string;
  /** The endpoint path (default `/mcp`); other paths answer 404. */
  readonly path?: string;
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
export async function serveMcpHttp<C>(
  registry: ToolRegistry<C>,
  ctx: McpContext<C> = {},
  options: ServeMcpHttpOptions = {},
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const allowedHosts =
    options.allowedHosts ??
    (LOOPBACK_HOSTS.includes(bracketed) || host === '::1' ? LOOPBACK_HOSTS : [...LOOPBACK_HOSTS, bracketed]);
  const handle = createMcpHttpHandler(registry, ctx, { ...options, allowedHosts });
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === path || url.startsWith(`${path}?`)) void handle(req, res);
    else refuse(res, 404, 'Not found.');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${bracketed}:${port}${path}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
