import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

type FetchHandler = (request: Request) => Promise<Response>;

/** The web `Request` for a `node:http` one; `signal` aborts when the client goes away. */
function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * A `node:http` handler around a Fetch one: the request streams in, the response (JSON or an SSE
 * stream) streams out, and a client that disconnects aborts the request's signal.
 */
export function toNodeHandler(
  handle: FetchHandler,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    let response: Response;
    try {
      response = await handle(toWebRequest(req, gone.signal));
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: null,
        }),
      );
      return;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) {
      res.end();
      return;
    }
    try {
      for await (const chunk of response.body) {
        if (gone.signal.aborted) break;
        res.write(chunk);
      }
    } catch {
      // The stream failed or the client left: nothing more to send.
    }
    res.end();
  };
}
