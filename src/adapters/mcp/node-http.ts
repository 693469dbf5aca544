import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOPBACK_HOSTS } from './host-check.js';
import type { McpHttpServer } from './mcp-http-server.js';
import type { ServeMcpHttpOptions } from './options.js';

/** Answers a JSON-RPC error with `status`, or just ends a response already under way. */
export function refuse(
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

/** The first value of a request header. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Listens with the handler `makeHandler` builds on `path`, bound to loopback unless told otherwise.
 * When bound elsewhere, `host` is added to the allowed `Host` names. Both SDKs' `serveMcpHttp`.
 */
export async function listenMcpHttp(
  options: ServeMcpHttpOptions,
  makeHandler: (allowedHosts: readonly string[] | 'any') => NodeHandler,
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const allowedHosts =
    options.allowedHosts ??
    (LOOPBACK_HOSTS.includes(bracketed) || host === '::1' ? LOOPBACK_HOSTS : [...LOOPBACK_HOSTS, bracketed]);
  const handle = makeHandler(allowedHosts);
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
