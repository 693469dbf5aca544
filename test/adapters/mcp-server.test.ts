import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { defineTool, type InvokeContext } from 'graded-tools';
import {
  createMcpFetchHandler,
  createMcpServer,
  type McpHttpServer,
  serveMcpHttp,
} from 'graded-tools/mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  HOSTILE_NAMES,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';
import {
  answerOf,
  expectBatchBoundedByMaxCallsPerTurn,
  expectForeignHostsRefused,
  textOf,
} from './support/mcp-http.js';

// The same server as graded-tools/mcp, on SDK v2 (`@modelcontextprotocol/server`), driven by the v2
// client (`@modelcontextprotocol/client`) in both protocol eras.

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of open.splice(0)) await resource.close();
});

async function connectInMemory(server: ReturnType<typeof createMcpServer>): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  open.push(client);
  return client;
}

describe('createMcpServer (SDK v2) over an in-memory transport', () => {
  it("lists exactly the model tools with read-only annotations and the tool's own $schema", async () => {
    const desk = createDesk();
    const dialect = 'https://json-schema.org/draft/2020-12/schema';
    desk.registry.register(
      defineTool({
        name: 'web.lookup',
        title: 'Look up a web page',
        description: 'Fetch a public web page.',
        sideEffect: 'read',
        openWorld: true,
        inputSchema: {
          $schema: dialect,
          type: 'object',
          $defs: { url: { type: 'string' } },
          properties: { url: { $ref: '#/$defs/url' } },
          additionalProperties: false,
        },
        run: (input: { url: string }) => ({ url: input.url }),
      }),
    );
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      desk.registry.toFunctionSchemas(DESK_CONTEXT).map((schema) => schema.name),
    );
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'web__lookup']);
    const [session, web] = tools;
    expect(session).toMatchObject({
      title: 'Fetch a conversation',
      inputSchema: { type: 'object', required: ['conversationId'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    expect(session?.inputSchema).not.toHaveProperty('$schema');
    expect(web?.inputSchema).toEqual({
      $schema: dialect,
      type: 'object',
      $defs: { url: { type: 'string' } },
      properties: { url: { $ref: '#/$defs/url' } },
      additionalProperties: false,
    });
    expect(web?.annotations?.openWorldHint).toBe(true);
    for (const tool of tools) expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(tool.name);
    expect(client.getServerVersion()).toMatchObject({ name: 'graded-tools' });
  });

  it('answers tools/call: success as text, refusals and bad input as isError results', async () => {
    const desk = createDesk();
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    const ok = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 'c-1001' } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse(textOf(ok))).toMatchObject({ customer: 'ana@example.com' });

    for (const { name } of HOSTILE_NAMES.filter(({ name }) => typeof name === 'string')) {
      const refused = await client.callTool({
        name: name as string,
        arguments: { conversationId: 'c-1001', text: 'x' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^There is no tool named .*Available tools: session__fetch\.$/);
    }
    const invalid = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 5 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/does not match its schema/);
    const failing = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 'c-404' } });
    expect(failing.isError).toBe(true);
    expect(textOf(failing)).toMatch(/failed: no conversation c-404/);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('derives the context per request, and aborts the tool when the client cancels', async () => {
    let toolSignal: AbortSignal | undefined;
    const desk = createDesk();
    desk.registry.register(
      defineTool({
        name: 'slow.read',
        description: 'Waits.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: (_input, runContext) =>
          new Promise((resolve) => {
            toolSignal = runContext.signal;
            runContext.signal.addEventListener('abort', () => resolve('stopped'));
          }),
      }),
    );
    const methods: string[] = [];
    const ctx = (extra: { mcpReq: { method: string } }): InvokeContext => {
      methods.push(extra.mcpReq.method);
      return { flags: { kb: true } };
    };
    const client = await connectInMemory(createMcpServer(desk.registry, ctx));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'kb__search', 'slow__read']);
    const found = await client.callTool({ name: 'kb__search', arguments: { query: 'refund' } });
    expect(JSON.parse(textOf(found))[0]).toMatchObject({ id: 'kb-1' });
    expect(methods).toEqual(['tools/list', 'tools/call']);

    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow__read', arguments: {} }, { signal: controller.signal });
    await expect.poll(() => toolSignal).toBeDefined();
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => toolSignal?.aborted).toBe(true);
  });
});

describe('Streamable HTTP (SDK v2)', () => {
  let running: McpHttpServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function httpClient(name: string, options: typeof MODERN | object = {}): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' }, options);
    await client.connect(new StreamableHTTPClientTransport(new URL(running?.url ?? '')));
    open.push(client);
    return client;
  }

  it.each([
    ['2025 (initialize)', {}, '2025-11-25'],
    ['2026-07-28 (per-request envelope)', MODERN, '2026-07-28'],
  ])('serves the v2 client in the %s era: list and call', async (_era, options, version) => {
    const desk = createDesk();
    running = await serveMcpHttp(desk.registry, { flags: { kb: true } });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient('http-client', options);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'kb__search']);
    const found = await client.callTool({ name: 'kb__search', arguments: { query: 'export' } });
    expect(JSON.parse(textOf(found))[0]).toMatchObject({ id: 'kb-2' });
    const refused = await client.callTool({ name: 'message__send', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/There is no tool named "message__send"/);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('applies maxCallsPerTurn to a batch of tools/call in one request', () =>
    expectBatchBoundedByMaxCallsPerTurn(serveMcpHttp));

  it('bounds tool runs across requests, and a client that disconnects aborts its call', async () => {
    let aborted = 0;
    const desk = createDesk();
    desk.registry.register(
      defineTool({
        name: 'stuck.read',
        description: 'Waits until aborted.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: (_input, runContext) =>
          new Promise(() => {
            runContext.signal.addEventListener('abort', () => {
              aborted += 1;
            });
          }),
      }),
    );
    running = await serveMcpHttp(desk.registry, DESK_CONTEXT, { concurrency: 2 });
    const leaving = await Promise.all([1, 2].map((n) => httpClient(`leaving${n}`, MODERN)));
    const calls = leaving.map((client) =>
      client.callTool({ name: 'stuck__read', arguments: {} }).catch(() => 'closed'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const client of leaving) await client.close();
    expect(await Promise.all(calls)).toEqual(['closed', 'closed']);
    await expect.poll(() => aborted).toBe(2);
    // Both places are free again.
    const other = await httpClient('other');
    const found = await other.callTool(
      { name: 'session__fetch', arguments: { conversationId: 'c-1001' } },
      { timeout: 5_000 },
    );
    expect(JSON.parse(textOf(found))).toMatchObject({ customer: 'ana@example.com' });
  });

  it('refuses foreign Host and Origin headers (DNS rebinding) before anything is parsed', async () => {
    running = await serveMcpHttp(createDesk().registry);
    await expectForeignHostsRefused(running.url);
  });

  it('the Fetch handler hands your authInfo to the context function', async () => {
    const desk = createDesk();
    const handle = createMcpFetchHandler(desk.registry, (ctx) => ({
      scope: 'desk',
      flags: { kb: ctx.http?.authInfo?.clientId === 'agent-7' },
    }));
    const list = (clientId: string) =>
      handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        }),
        { authInfo: { token: 't', clientId, scopes: [] } },
      ).then(async (response) => {
        expect(response.status).toBe(200);
        const { result } = answerOf(await response.text()) as { result: { tools: { name: string }[] } };
        return result.tools.map((tool) => tool.name);
      });
    expect(await list('agent-7')).toEqual(['session__fetch', 'kb__search']);
    expect(await list('someone-else')).toEqual(['session__fetch']);
    const rebound = await handle(new Request('http://evil.example/mcp', { method: 'POST', body: '{}' }));
    expect(rebound.status).toBe(403);
    // Stateless: no streams or sessions to GET or DELETE.
    const get = await handle(
      new Request('http://localhost/mcp', { headers: { accept: 'text/event-stream' } }),
    );
    expect(get.status).toBe(405);
  });
});
