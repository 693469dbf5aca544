// What a `node:http` server hands its listener, and the server itself, declared by shape: Node's own
// objects fit, and the public types of an entry that also runs on Workers need no `@types/node`.

/**
 * The request a `node:http` listener is called with, declared by shape: an `IncomingMessage` (and
 * Express's `Request`) fits, and the types need no `@types/node` (a Worker has none).
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * import type { NodeListenerRequest } from 'graded-tools/console';
 *
 * const fits = (req: IncomingMessage): NodeListenerRequest => req;
 * console.log(typeof fits);
 * ```
 */
export interface NodeListenerRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly rawHeaders: readonly string[];
}

/**
 * The response a `node:http` listener writes, declared by shape: a `ServerResponse` fits.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from 'node:http';
 * import type { NodeListenerResponse } from 'graded-tools/console';
 *
 * const fits = (res: ServerResponse): NodeListenerResponse => res;
 * console.log(typeof fits);
 * ```
 */
export interface NodeListenerResponse {
  readonly headersSent: boolean;
  writeHead(statusCode: number): unknown;
  end(): unknown;
}

/**
 * A running `node:http` server, declared by shape: what `serveMcpHttp` started is `node:http`'s
 * `Server` (cast to it for the rest of its API), and the types need no `@types/node`.
 *
 * @example
 * ```ts
 * import { createServer, type Server } from 'node:http';
 * import type { NodeHttpServer } from 'graded-tools/mcp-server';
 *
 * const server: NodeHttpServer = createServer();
 * console.log(server.listening, (server as Server).maxHeadersCount);
 * ```
 */
export interface NodeHttpServer {
  readonly listening: boolean;
  address(): { readonly address: string; readonly family: string; readonly port: number } | string | null;
  close(callback?: (error?: Error) => void): unknown;
  closeAllConnections(): void;
  on(event: string, listener: (...args: never[]) => unknown): unknown;
}
