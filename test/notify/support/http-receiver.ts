import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as the receiver saw it: the raw body, byte for byte, as a verifier must see it. */
export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived (`performance.now()`). */
  readonly at: number;
}

/** An answer, or `'hang'`: read the request and never answer. */
export type ReceiverReply =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string }
  | 'hang';

export interface HttpReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A `node:http` receiver on 127.0.0.1 that records each request and answers from `reply`. */
export async function startReceiver(
  reply: (request: ReceivedRequest, index: number) => ReceiverReply = () => ({ status: 200, body: 'ok' }),
): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The headers a Standard Webhooks verifier takes, as plain strings. */
export function webhookHeaders(request: ReceivedRequest): Record<string, string> {
  const pick = (name: string) => String(request.headers[name] ?? '');
  return {
    'webhook-id': pick('webhook-id'),
    'webhook-timestamp': pick('webhook-timestamp'),
    'webhook-signature': pick('webhook-signature'),
  };
}
