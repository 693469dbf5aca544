import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** A Fetch handler a `node:http` server serves through `serveNode`. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** How `serveNode` reads a request and words what it refuses itself. */
export interface NodeBridgeOptions {
  /** Take the protocol and host from `X-Forwarded-Proto` / `X-Forwarded-Host` (a TLS proxy's). */
  readonly trustProxy?: boolean;
  /**
   * The answer for a request refused before the handler sees it: `'target'` (not an origin-form
   * target, 400), `'host'` (a `Host` that is not a host, 403) or `'failed'` (the handler threw, 500).
   */
  readonly refusal: (why: BridgeRefusal) => Response;
}

/** Why the bridge answered itself. */
export type BridgeRefusal = 'target' | 'host' | 'failed';

/** A host name or bracketed IPv6 address, and an optional port: no userinfo, path or space. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * The one bridge from `node:http` to a Fetch handler: each `IncomingMessage` becomes a `Request`
 * (its body read only as fast as the handler reads it; its signal aborted when the client goes
 * away), and the `Response` is written back, waiting for `drain` before each next chunk and
 * cancelling the body when the client leaves. Only an origin-form target (one `/` first) and a
 * `Host` that is a host are served; repeated headers stay separate values, `Set-Cookie` included.
 */
export function serveNode(handle: FetchHandler, options: NodeBridgeOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const made = toRequest(req, gone.signal, options.trustProxy === true);
    let response: Response;
    if (!made.ok) response = options.refusal(made.why);
    else {
      try {
        response = await handle(made.request);
      } catch {
        response = options.refusal('failed');
      }
    }
    try {
      await writeResponse(response, req, res, gone.signal);
    } catch {
      res.destroy();
    }
  };
}

type Made =
  | { readonly ok: true; readonly request: Request }
  | { readonly ok: false; readonly why: BridgeRefusal };

/** The Fetch `Request` for an `IncomingMessage`, or why there is none. */
function toRequest(req: IncomingMessage, signal: AbortSignal, trustProxy: boolean): Made {
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  // Origin-form only: `//evil.example/…`, `/\evil.example`, `http://evil.example/…` or `*` would
  // otherwise name another authority than the Host.
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return { ok: false, why: 'target' };
  const host = hostOf(req, trustProxy);
  if (host === undefined) return { ok: false, why: 'host' };
  const origin = `${protocolOf(req, trustProxy)}://${host}`;
  let url: URL;
  try {
    url = new URL(`${origin}${target}`);
    // Never a URL whose authority came from the target.
    if (url.host !== new URL(origin).host) return { ok: false, why: 'target' };
  } catch {
    return { ok: false, why: 'host' };
  }
  const headers = new Headers();
  try {
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] as string;
      if (!name.startsWith(':')) headers.append(name, req.rawHeaders[i + 1] as string);
    }
  } catch {
    return { ok: false, why: 'target' };
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = bodyOf(req);
    init.duplex = 'half';
  }
  return { ok: true, request: new Request(url, init) };
}

/** The raw `Host` (or a trusted `X-Forwarded-Host`), when it is a host with a port in range. */
function hostOf(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? first(req.headers['x-forwarded-host']) : undefined;
  const host = forwarded ?? req.headers.host;
  if (host === undefined) return undefined;
  const match = HOST.exec(host);
  if (match === null) return undefined;
  const port = match[1];
  return port === undefined || Number(port) <= 65_535 ? host : undefined;
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

function bodyOf(req: IncomingMessage): NonNullable<RequestInit['body']> {
  // A body parser mounted before has read the stream already: use what it parsed.
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && req.readableEnded) {
    if (typeof parsed === 'string' || parsed instanceof Uint8Array) return parsed;
    return JSON.stringify(parsed);
  }
  return streamOf(req);
}

/**
 * The request body as a web stream, read only as fast as the handler reads it. Cancelling it (a body
 * over a limit) pauses the socket instead of destroying it, so the answer still goes out; the
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
  // A body the handler did not read to the end (refused, too large): the connection cannot be reused.
  if (!req.complete && req.method !== 'GET' && req.method !== 'HEAD') headers.connection = 'close';
  if (res.headersSent) {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
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
