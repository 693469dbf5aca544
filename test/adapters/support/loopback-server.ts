import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the SDK under test sent, as the loopback server saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON the tests inspect
  readonly body: any;
}

/** What a handler answers: a JSON body, optionally with a status. */
export interface LoopbackReply {
  readonly status?: number;
  readonly body: unknown;
}

/** A `node:http` server on 127.0.0.1 that records every request and answers from a script. */
export interface LoopbackServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Starts the server on a free port. `handle` sees each recorded request and returns the reply; a
 * throw answers 500 so the SDK surfaces it and the test fails with the message.
 */
export async function startLoopbackServer(
  handle: (request: RecordedRequest, index: number) => LoopbackReply | Promise<LoopbackReply>,
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      let reply: LoopbackReply;
      try {
        const request: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: await readBody(req),
        };
        requests.push(request);
        reply = await handle(request, requests.length - 1);
      } catch (error) {
        reply = { status: 500, body: { error: { message: String(error) } } };
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    })();
  });
  return { ...(await listenOnLoopback(server)), requests };
}

/** Starts `server` on a free loopback port: its URL, and a close that also drops open connections. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
