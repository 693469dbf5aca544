import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { defineTool, type InvokeContext } from 'graded-tools';
import { createMcpServer, type McpHttpServer, serveMcpHttp } from 'graded-tools/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assertNothingWrittenOrSent,
  createDesk,
  DESK_CONTEXT,
  HOSTILE_NAMES,
  WRITE_AND_SEND_WIRE_NAMES,
} from './support/hostile-calls.js';
import {
  expectBatchBoundedByMaxCallsPerTurn,
  expectForeignHostsRefused,
  rawRequest,
  textOf,
} from './support/mcp-http.js';

function deskWithWebTool() {
  const desk = createDesk();
  desk.registry.register(
    defineTool({
      name: 'web.lookup',
      title: 'Look up a web page',
      description: 'Fetch a public web page.',
      sideEffect: 'read',
      openWorld: true,
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
      run: (input: { url: string }) => ({ url: input.url, title: 'Example' }),
    }),
  );
  return desk;
}

async function connectInMemory(server: ReturnType<typeof createMcpServer>): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of open.splice(0)) await resource.close();
});

describe('createMcpServer over an in-memory transport', () => {
  it('lists exactly the model tools with read-only annotations', async () => {
    const desk = deskWithWebTool();
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      desk.registry.toFunctionSchemas(DESK_CONTEXT).map((s) => s.name),
    );
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'web__lookup']);
    const [session, web] = tools;
    expect(session).toMatchObject({
      title: 'Fetch a conversation',
      description: expect.stringContaining('Fetch a support conversation'),
      inputSchema: { type: 'object', required: ['conversationId'] },
      annotations: {
        title: 'Fetch a conversation',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    expect(web?.annotations?.openWorldHint).toBe(true);
    for (const tool of tools) expect(WRITE_AND_SEND_WIRE_NAMES).not.toContain(tool.name);
    expect(client.getServerVersion()).toMatchObject({ name: 'graded-tools' });
  });

  it("keeps a tool's own $schema in its inputSchema, and adds none where the tool had none", async () => {
    const desk = createDesk();
    const dialect = 'https://json-schema.org/draft/2020-12/schema';
    desk.registry.register(
      defineTool({
        name: 'web.lookup',
        description: 'Fetch a public web page.',
        sideEffect: 'read',
        inputSchema: {
          $schema: dialect,
          type: 'object',
          properties: { url: { type: 'string' } },
          required: ['url'],
        },
        run: (input: { url: string }) => ({ url: input.url }),
      }),
    );
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    open.push(client);
    const { tools } = await client.listTools();
    const web = tools.find((tool) => tool.name === 'web__lookup');
    const session = tools.find((tool) => tool.name === 'session__fetch');
    expect(web?.inputSchema).toMatchObject({ $schema: dialect, type: 'object', required: ['url'] });
    expect(session?.inputSchema).toMatchObject({ type: 'object' });
    expect(session?.inputSchema).not.toHaveProperty('$schema');
    // The model's own list stays without it.
    for (const schema of desk.registry.toFunctionSchemas(DESK_CONTEXT))
      expect(schema.parameters).not.toHaveProperty('$schema');
  });

  it('answers tools/call: success as text, refusals and bad input as isError results', async () => {
    const desk = deskWithWebTool();
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    open.push(client);

    const ok = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 'c-1001' } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse(textOf(ok))).toMatchObject({ customer: 'ana@example.com' });

    for (const { name } of HOSTILE_NAMES.filter(({ name }) => typeof name === 'string')) {
      const refused = await client.callTool({
        name: name as string,
        arguments: { conversationId: 'c-1001', text: 'x' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^There is no tool named .*Available tools: session__fetch, web__lookup\.$/,
      );
    }

    const invalid = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 5 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/does not match its schema/);

    const failing = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 'c-404' } });
    expect(failing.isError).toBe(true);
    expect(textOf(failing)).toMatch(/failed: no conversation c-404/);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('answers hundreds of concurrent calls, each with its own result', async () => {
    const desk = createDesk();
    const client = await connectInMemory(createMcpServer(desk.registry, DESK_CONTEXT));
    open.push(client);
    const names = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 'session__fetch' : 'ticket__submit'));
    const results = await Promise.all(
      names.map((name, i) =>
        client.callTool({
          name,
          arguments: { conversationId: i % 4 === 0 ? 'c-1001' : 'c-1002' },
        }),
      ),
    );
    results.forEach((result, i) => {
      if (i % 2 === 1) expect(result.isError).toBe(true);
      else expect(JSON.parse(textOf(result)).conversationId).toBe(i % 4 === 0 ? 'c-1001' : 'c-1002');
    });
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('derives the context per request, the same for list and call', async () => {
    const desk = createDesk();
    const seen: string[] = [];
    const ctx = (extra: { requestId: string | number }): InvokeContext => {
      seen.push(String(extra.requestId));
      return { flags: { kb: true } };
    };
    const client = await connectInMemory(createMcpServer(desk.registry, ctx));
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'kb__search']);
    const found = await client.callTool({ name: 'kb__search', arguments: { query: 'refund' } });
    expect(JSON.parse(textOf(found))[0]).toMatchObject({ id: 'kb-1' });
    expect(seen).toHaveLength(2);
  });

  it('cuts long results and aborts the tool when the client cancels', async () => {
    let toolSignal: AbortSignal | undefined;
    const desk = createDesk();
    desk.registry.register(
      defineTool({
        name: 'big.read',
        description: 'Big.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: () => 'b'.repeat(9_000),
      }),
    );
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
    const client = await connectInMemory(createMcpServer(desk.registry, {}, { maxResultChars: 1_000 }));
    open.push(client);
    const big = await client.callTool({ name: 'big__read', arguments: {} });
    expect(textOf(big).length).toBeLessThanOrEqual(1_000);
    expect(textOf(big)).toMatch(/truncated: \d+ more characters\]$/);

    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow__read', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await expect.poll(() => toolSignal).toBeDefined();
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => toolSignal?.aborted).toBe(true);
  });
});

describe('Streamable HTTP', () => {
  let running: McpHttpServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('serves the SDK client: list and call over HTTP', async () => {
    const desk = createDesk();
    running = await serveMcpHttp(desk.registry, { flags: { kb: true } });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'kb__search']);
    const found = await client.callTool({ name: 'kb__search', arguments: { query: 'export' } });
    expect(JSON.parse(textOf(found))[0]).toMatchObject({ id: 'kb-2' });
    const refused = await client.callTool({ name: 'message__send', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });

  it('bounds tool runs across requests, not per request', async () => {
    let inFlight = 0;
    let most = 0;
    const desk = createDesk();
    desk.registry.register(
      defineTool({
        name: 'slow.read',
        description: 'Waits a little.',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        run: async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight -= 1;
          return 'done';
        },
      }),
    );
    running = await serveMcpHttp(desk.registry, {}, { concurrency: 1 });
    const clients = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const client = new Client({ name: `c${n}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(running?.url ?? '')));
        open.push(client);
        return client;
      }),
    );
    const results = await Promise.all(
      clients.map((client) => client.callTool({ name: 'slow__read', arguments: {} })),
    );
    expect(results.map((result) => textOf(result))).toEqual(['"done"', '"done"', '"done"']);
    expect(most).toBe(1);
  });

  it('applies maxCallsPerTurn to a batch of tools/call in one request', () =>
    expectBatchBoundedByMaxCallsPerTurn(serveMcpHttp));

  async function httpClient(name: string): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running?.url ?? '')));
    open.push(client);
    return client;
  }

  it('four calls whose validation hangs time out instead of starving every other client', async () => {
    const desk = createDesk();
    desk.registry.register(
      defineTool({
        name: 'hang.read',
        description: 'Its schema never finishes checking.',
        sideEffect: 'read',
        timeoutMs: 200,
        inputSchema: z.object({ q: z.string().refine(() => new Promise<boolean>(() => {})) }),
        run: () => 'never',
      }),
    );
    running = await serveMcpHttp(desk.registry, DESK_CONTEXT);
    const hanging = await Promise.all([1, 2, 3, 4].map((n) => httpClient(`hang${n}`)));
    const stuck = hanging.map((client) =>
      client.callTool({ name: 'hang__read', arguments: { q: 'x' } }).then(
        (result) => result,
        (error: unknown) => ({ rejected: String(error) }),
      ),
    );
    const other = await httpClient('other');
    // Fails in 5 s (the SDK's own request timeout) rather than hanging the test.
    const found = await other.callTool(
      { name: 'session__fetch', arguments: { conversationId: 'c-1001' } },
      undefined,
      { timeout: 5_000 },
    );
    expect(JSON.parse(textOf(found))).toMatchObject({ customer: 'ana@example.com' });
    for (const result of await Promise.all(stuck)) {
      expect(result).toMatchObject({ isError: true });
      expect(textOf(result)).toMatch(/did not finish within 200 ms/);
    }
  });

  it('a client that disconnects aborts its call and frees its place', async () => {
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
    const leaving = await Promise.all([1, 2].map((n) => httpClient(`leaving${n}`)));
    const calls = leaving.map((client) =>
      client.callTool({ name: 'stuck__read', arguments: {} }).catch(() => 'closed'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const client of leaving) await client.close();
    expect(await Promise.all(calls)).toEqual(['closed', 'closed']);
    await expect.poll(() => aborted).toBe(2);
    const other = await httpClient('other');
    const found = await other.callTool(
      { name: 'session__fetch', arguments: { conversationId: 'c-1001' } },
      undefined,
      { timeout: 5_000 },
    );
    expect(JSON.parse(textOf(found))).toMatchObject({ customer: 'ana@example.com' });
  });

  it('refuses foreign Host and Origin headers (DNS rebinding) and non-POST methods', async () => {
    running = await serveMcpHttp(createDesk().registry);
    await expectForeignHostsRefused(running.url);
    const get = await rawRequest(running.url, 'GET', { accept: 'text/event-stream' });
    expect(get.status).toBe(405);
  });
});
