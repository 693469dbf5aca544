import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { SECURITY_HEADERS } from './security-headers.js';
import type { ApprovalsConsole } from './types.js';

/** How `toNodeListener` reads a request's own URL. */
export interface NodeListenerOptions {
  /**
   * Behind a reverse proxy that terminates TLS: take the protocol and host from its
   * `X-Forwarded-Proto` / `X-Forwarded-Host` (default false: the socket and the `Host` header). The
   * console compares a POST's `Origin` with this URL, so set it only when the proxy sets them.
   */
  readonly trustProxy?: boolean;
}

/**
 * The console as a `node:http` request listener (also an Express handler): each `IncomingMessage`
 * becomes a Fetch `Request` (aborted when the client goes away), and the `Response` is written back,
 * streaming its body — the event stream included — and cancelling it when the client disconnects.
 * Mount it before any body parser. Under Express's `app.use('/approvals', …)` the full
 * `req.originalUrl` is used, so give the console the same `basePath`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { ToolRegistry } from 'graded-tools';
 * import { createApprovalsConsole, toNodeListener } from 'graded-tools/console';
 *
 * const approvals = createApprovalsConsole({
 *   registry: new ToolRegistry(),
 *   authenticate: (request) => (request.headers.get('x-user') === 'lead-li' ? { id: 'lead-li' } : undefined),
 * });
 * const server = createServer(toNodeListener(approvals)).listen(3000, '127.0.0.1');
 * server.on('close', () => approvals.close());
 * ```
 */
export function toNodeListener(
  approvals: Pick<ApprovalsConsole, 'fetch'>,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const trustProxy = options.trustProxy === true;
  return (req, res) => {
    void serve(approvals, req, res, trustProxy);
  };
}

async function serve(
  approvals: Pick<ApprovalsConsole, 'fetch'>,
  req: IncomingMessage,
  res: ServerResponse,
  trustProxy: boolean,
): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let response: Response;
  try {
    response = await approvals.fetch(toRequest(req, gone.signal, trustProxy));
  } catch {
    response = new Response('{"ok":false,"code":"CONSOLE_FAILED"}', {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS },
    });
  }
  try {
    await writeResponse(response, req, res, gone.signal);
  } catch {
    res.destroy();
  }
}

/** The Fetch `Request` for an `IncomingMessage`; its body streams from the socket. */
function toRequest(req: IncomingMessage, signal: AbortSignal, trustProxy: boolean): Request {
  const method = req.method ?? 'GET';
  const url = new URL(
    (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/',
    `${protocolOf(req, trustProxy)}://${hostOf(req, trustProxy)}`,
  );
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyOf(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

function bodyOf(req: IncomingMessage): NonNullable<RequestInit['body']> {
  // A body parser mounted before the console has read the stream already: use what it parsed.
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && req.readableEnded) {
    if (typeof parsed === 'string' || parsed instanceof Uint8Array) return parsed;
    return JSON.stringify(parsed);
  }
  return streamOf(req);
}

/**
 * The request body as a web stream, read only as fast as the console reads it. Cancelling it (a body
 * over the limit) pauses the socket instead of destroying it, so the answer still goes out; the
 * connection is then closed after it (see `writeResponse`).
 */
function streamOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      const onEnd = () => {
        stop();
        controller.close();
      };
      const onError = (error: Error) => {
        stop();
        controller.error(error);
      };
      stop = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
      };
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onError);
    },
    pull() {
      req.resume();
    },
    cancel() {
      stop();
      req.pause();
    },
  });
}

function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one?.split(',')[0]?.trim() || undefined;
}

function protocolOf(req: IncomingMessage, trustProxy: boolean): 'http' | 'https' {
  const forwarded = trustProxy ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  if (forwarded === 'https' || forwarded === 'http') return forwarded;
  return (req.socket as TLSSocket).encrypted === true ? 'https' : 'http';
}

function hostOf(req: IncomingMessage, trustProxy: boolean): string {
  const host = (trustProxy ? first(req.headers['x-forwarded-host']) : undefined) ?? first(req.headers.host);
  // A Host that is not a host (`a/b`, `a@b`) would make another URL: read it as no Host.
  return host !== undefined && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : 'localhost';
}

/** Writes `response` to `res`, streaming the body; stops reading it when the client goes away. */
async function writeResponse(
  response: Response,
  req: IncomingMessage,
  res: ServerResponse,
  gone: AbortSignal,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  // A body the console did not read to the end (refused, too large): the connection cannot be reused.
  if (!req.complete && req.method !== 'GET' && req.method !== 'HEAD') headers.connection = 'close';
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null || req.method === 'HEAD') {
    await body?.cancel().catch(() => {});
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  if (gone.aborted) cancel();
  else gone.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (gone.aborted) return;
    }
    res.end();
  } finally {
    gone.removeEventListener('abort', cancel);
  }
}

/** Resolves when `res` can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
