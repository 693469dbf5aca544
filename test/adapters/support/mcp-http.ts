// What the SDK v1 and v2 MCP tests share: a raw HTTP request (for what no SDK client sends, such as a
// JSON-RPC batch or a foreign Host), the JSON-RPC answer in its body, a tool result's text, and the
// batch case, which is the same for both servers.
import { request as httpRequest } from 'node:http';
import { defineTool, type InvokeContext, type ToolRegistry } from 'graded-tools';
import { expect } from 'vitest';
import { createDesk } from './hostile-calls.js';

/** One request with exactly these headers; resolves its status and body text. */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC answer of a response body: plain JSON, or the data of an SSE stream's events. */
export function answerOf(body: string): unknown {
  if (!body.startsWith('event:') && !body.startsWith('data:')) return JSON.parse(body);
  const events = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)));
  return events.length === 1 ? events[0] : events;
}

/** The text of a tool result's one text block. */
export function textOf(result: Record<string, unknown>): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  expect(first?.type).toBe('text');
  return first?.text ?? '';
}

/** Either SDK's `serveMcpHttp`, as the batch case calls it. */
export type ServeMcpHttp = (
  registry: ToolRegistry,
  ctx: InvokeContext,
  options: { readonly maxCallsPerTurn: number },
) => Promise<{ readonly url: string; close(): Promise<void> }>;

/**
 * `maxCallsPerTurn` bounds a JSON-RPC batch of `tools/call` in one request: of ten, three run and seven
 * are refused in words the model reads; the next request is a new turn.
 */
export async function expectBatchBoundedByMaxCallsPerTurn(serve: ServeMcpHttp): Promise<void> {
  let ran = 0;
  const desk = createDesk();
  desk.registry.register(
    defineTool({
      name: 'count.read',
      description: 'Counts its runs.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => {
        ran += 1;
        return ran;
      },
    }),
  );
  const running = await serve(desk.registry, {}, { maxCallsPerTurn: 3 });
  try {
    const batch = Array.from({ length: 10 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'count__read', arguments: {} },
    }));
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    const answer = await rawRequest(running.url, 'POST', headers, JSON.stringify(batch));
    expect(answer.status).toBe(200);
    const replies = (answerOf(answer.body) as { id: number; result: Record<string, unknown> }[]).sort(
      (a, b) => a.id - b.id,
    );
    expect(replies).toHaveLength(10);
    const refused = replies.filter(({ result }) => result.isError === true);
    expect(refused).toHaveLength(7);
    for (const { result } of refused)
      expect(textOf(result)).toMatch(/^Too many tool calls in one turn: only the first 3/);
    expect(ran).toBe(3);
    // The next request is a new turn.
    const next = await rawRequest(running.url, 'POST', headers, JSON.stringify(batch[0]));
    expect((answerOf(next.body) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    expect(ran).toBe(4);
  } finally {
    await running.close();
  }
}

/**
 * The DNS-rebinding defence: a foreign `Host` or `Origin` is refused before anything is parsed, another
 * path is 404, and this machine's own origin initializes.
 */
export async function expectForeignHostsRefused(url: string): Promise<void> {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const port = new URL(url).port;
  const rebound = await rawRequest(url, 'POST', { ...headers, host: `evil.example:${port}` }, init);
  expect(rebound.status).toBe(403);
  expect(answerOf(rebound.body)).toMatchObject({
    error: { code: -32000, message: 'Host header not allowed' },
  });
  // A Host that is not a host — userinfo, a port out of range, a space — is the same refusal, never a 500.
  for (const host of [
    `user@localhost:${port}`,
    'localhost:99999',
    `local host:${port}`,
    `localhost:${port} x`,
  ]) {
    const odd = await rawRequest(url, 'POST', { ...headers, host }, init);
    expect(odd.status, host).toBe(403);
    expect(answerOf(odd.body), host).toMatchObject({ error: { message: 'Host header not allowed' } });
  }
  const crossSite = await rawRequest(url, 'POST', { ...headers, origin: 'https://evil.example' }, init);
  expect(crossSite.status).toBe(403);
  const elsewhere = await rawRequest(url.replace('/mcp', '/other'), 'POST', headers, init);
  expect(elsewhere.status).toBe(404);
  const local = await rawRequest(url, 'POST', { ...headers, origin: `http://localhost:${port}` }, init);
  expect(local.status).toBe(200);
  expect(answerOf(local.body)).toMatchObject({ result: { serverInfo: { name: 'graded-tools' } } });
}
