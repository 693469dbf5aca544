import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type McpSdkServerConfigWithInstance, type Options, query } from '@anthropic-ai/claude-agent-sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createClaudeAgentMcpServer } from 'graded-tools/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNothingWrittenOrSent, createDesk, DESK_CONTEXT } from '../support/hostile-calls.js';
import { type Block, startScriptedAnthropicApi } from '../support/scripted-anthropic-api.js';

/** The Claude Code executable the Agent SDK ships as an optional per-platform package, if it runs here. */
function findClaudeCode(): { readonly path: string } | { readonly reason: string } {
  const name = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  let path: string;
  try {
    path = createRequire(import.meta.url).resolve(
      `${name}/claude${process.platform === 'win32' ? '.exe' : ''}`,
    );
  } catch {
    return { reason: `${name} (the Claude Code executable) is not installed` };
  }
  const version = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return version.status === 0 ? { path } : { reason: `${path} does not run here` };
}

const claudeCode = findClaudeCode();
const skipReason = 'reason' in claudeCode ? `Claude Agent SDK run skipped: ${claudeCode.reason}` : undefined;
if (skipReason !== undefined) console.warn(skipReason);

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

/** The `tool_result` blocks of the request's last user message, by `tool_use_id`. */
function resultsOf(content: string | readonly Block[] | undefined): Map<string, Block> {
  const results = new Map<string, Block>();
  if (Array.isArray(content))
    for (const block of content)
      if (block.type === 'tool_result') results.set(String(block.tool_use_id), block);
  return results;
}

const resultText = (block: Block | undefined) => JSON.stringify(block?.content ?? '');

describe.skipIf(skipReason !== undefined)('a real Claude Agent SDK run (Claude Code, scripted model)', () => {
  it('runs only the read: a hallucinated write, a send and bad arguments are refused, and the run goes on', {
    timeout: 120_000,
  }, async () => {
    const desk = createDesk();
    const toolUse = (id: string, name: string, input: object): Block => ({
      type: 'tool_use',
      id,
      name,
      input,
    });
    const api = await startScriptedAnthropicApi((request) => {
      const last = request.messages.at(-1);
      // Claude Code's own side requests (no tools of ours) and the turn after the results get text.
      const isAgentTurn = request.tools?.some((tool) => tool.name.startsWith('mcp__desk__')) ?? false;
      if (!isAgentTurn || resultsOf(last?.content).size > 0)
        return [{ type: 'text', text: 'Ana asked for a refund.' }];
      return [
        toolUse('toolu_read', 'mcp__desk__session__fetch', { conversationId: 'c-1001' }),
        toolUse('toolu_write', 'mcp__desk__ticket__submit', { conversationId: 'c-1001', summary: 'x' }),
        toolUse('toolu_send', 'mcp__desk__message__send', { conversationId: 'c-1001', text: 'Refunded!' }),
        toolUse('toolu_invalid', 'mcp__desk__session__fetch', { conversationId: 5 }),
      ];
    });
    const home = mkdtempSync(join(tmpdir(), 'graded-claude-'));
    try {
      const messages: { type: string; subtype?: string }[] = [];
      for await (const message of query({
        prompt: 'What did the customer ask in conversation c-1001? Then reply to them.',
        options: {
          mcpServers: { desk: createClaudeAgentMcpServer(desk.registry, DESK_CONTEXT, { name: 'desk' }) },
          // Even told to allow every tool of the server, Claude Code cannot reach a send tool.
          allowedTools: ['mcp__desk__*'],
          pathToClaudeCodeExecutable: (claudeCode as { path: string }).path,
          cwd: home,
          settingSources: [],
          persistSession: false,
          maxTurns: 4,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            ANTHROPIC_BASE_URL: api.url,
            ANTHROPIC_API_KEY: 'sk-ant-test',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            DISABLE_AUTOUPDATER: '1',
            // Lists MCP tools to the model at once instead of behind a tool search.
            ENABLE_TOOL_SEARCH: 'false',
          },
        },
      }))
        messages.push(message as { type: string; subtype?: string });

      // The model saw the read tool only.
      const listed = api.requests[0]?.tools
        ?.map((tool) => tool.name)
        .filter((name) => name.startsWith('mcp__'));
      expect(listed).toEqual(['mcp__desk__session__fetch']);
      // What the model read back, call by call.
      const results = resultsOf(api.requests.at(-1)?.messages.at(-1)?.content);
      expect(resultText(results.get('toolu_read'))).toContain('ana@example.com');
      expect(results.get('toolu_read')?.is_error).toBeFalsy();
      for (const id of ['toolu_write', 'toolu_send', 'toolu_invalid'])
        expect(results.get(id)?.is_error, id).toBe(true);
      expect(resultText(results.get('toolu_invalid'))).toMatch(/does not match its schema/);
      // The run went on to the model's answer.
      expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
      // Nothing but the read ran.
      expect(desk.events.filter((event) => event.outcome === 'ok').map((event) => event.tool)).toEqual([
        'session.fetch',
      ]);
      expect(assertNothingWrittenOrSent(desk)).toEqual([]);
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
