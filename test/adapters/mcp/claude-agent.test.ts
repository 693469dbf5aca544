import type { McpSdkServerConfigWithInstance, Options } from '@anthropic-ai/claude-agent-sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createClaudeAgentMcpServer } from 'graded-tools/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNothingWrittenOrSent, createDesk, DESK_CONTEXT } from '../support/hostile-calls.js';

function textOf(result: Record<string, unknown>): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.text ?? '';
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

describe('createClaudeAgentMcpServer', () => {
  it("is the Agent SDK's in-process server config, and its instance answers as the graded server", async () => {
    const desk = createDesk();
    const config = createClaudeAgentMcpServer(desk.registry, DESK_CONTEXT, { name: 'desk' });
    // What `query({ options })` takes, checked by the compiler against the Agent SDK's own types.
    const options = { mcpServers: { desk: config } } satisfies Options;
    expect(options.mcpServers.desk satisfies McpSdkServerConfigWithInstance).toMatchObject({
      type: 'sdk',
      name: 'desk',
    });
    // The Agent SDK connects `instance` to its in-process transport; an in-memory pair stands in.
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    await Promise.all([config.instance.connect(serverTransport), client.connect(clientTransport)]);
    clients.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: 'desk' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch']);
    expect(tools[0]?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const found = await client.callTool({ name: 'session__fetch', arguments: { conversationId: 'c-1001' } });
    expect(JSON.parse(textOf(found))).toMatchObject({ customer: 'ana@example.com' });
    const sent = await client.callTool({
      name: 'message__send',
      arguments: { conversationId: 'c-1001', text: 'hi' },
    });
    expect(sent.isError).toBe(true);
    expect(textOf(sent)).toMatch(/There is no tool named "message__send"/);
    const invalid = await client.callTool({ name: 'session__fetch', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/does not match its schema/);
    expect(assertNothingWrittenOrSent(desk)).toEqual([]);
  });
});
