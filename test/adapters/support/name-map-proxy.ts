import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON-RPC message as far as the proxy looks into it. */
interface Message {
  method?: string;
  params?: { name?: unknown };
  result?: { tools?: { name: string }[] };
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Rewrites the JSON-RPC messages of a body: plain JSON (one message or a batch) or SSE `data:` lines. */
function rewrite(body: string, map: (message: Message) => void): string {
  const each = (json: string) => {
    try {
      const parsed = JSON.parse(json) as Message | Message[];
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) map(message);
      return JSON.stringify(parsed);
    } catch {
      return json;
    }
  };
  if (!/^(event|data|id|retry):/m.test(body)) return body.trim() === '' ? body : each(body);
  return body
    .split('\n')
    .map((line) => (line.startsWith('data:') ? `data: ${each(line.slice(5))}` : line))
    .join('\n');
}

/**
 * A loopback HTTP proxy that renames tools and nothing else: `names` maps a name a client asks for
 * to a wire name the server lists. Headers (`Host`, `Origin` included), status codes and every other
 * field pass through as they are. For fixed tool names no dotted graded-tools name can have.
 */
export async function startNameMapProxy(
  target: string,
  names: Readonly<Record<string, string>>,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const back = Object.fromEntries(Object.entries(names).map(([asked, wire]) => [wire, asked]));
  const targetUrl = new URL(target);
  const server = createServer(async (req, res) => {
    const body = rewrite((await readAll(req)).toString('utf8'), (message) => {
      const name = message.params?.name;
      if (message.method === 'tools/call' && typeof name === 'string' && message.params)
        message.params.name = names[name] ?? name;
    });
    const headers = { ...req.headers };
    delete headers['content-length'];
    const forwarded = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers },
      async (answer) => {
        const text = rewrite((await readAll(answer)).toString('utf8'), (message) => {
          for (const tool of message.result?.tools ?? []) tool.name = back[tool.name] ?? tool.name;
        });
        const answerHeaders = { ...answer.headers };
        delete answerHeaders['content-length'];
        delete answerHeaders['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        res.end(text);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${targetUrl.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
