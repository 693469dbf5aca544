import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

function textOf(result: Record<string, unknown>): string {
  const [first] = (result.content ?? []) as { text?: string }[];
  return first?.text ?? '';
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

describe('graded-tools mcp over stdio', () => {
  it('serves the module from sources (tsx): list, success, refusal, invalid input', async () => {
    const { client, stderr } = await connect([
      '--import',
      'tsx',
      'src/cli/index.ts',
      'mcp',
      'test/fixtures/support-desk-module.ts',
      '--scope',
      'desk',
      '--flag',
      'kb',
    ]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session__fetch', 'kb__search']);
    expect(tools[1]?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });

    const found = await client.callTool({ name: 'kb__search', arguments: { query: 'refund' } });
    expect(found.isError).toBeFalsy();
    expect(JSON.parse(textOf(found))[0]).toMatchObject({ id: 'kb-1' });

    const refused = await client.callTool({
      name: 'message__send',
      arguments: { conversationId: 'c-1001', text: 'hi' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/There is no tool named "message__send"/);

    const invalid = await client.callTool({ name: 'kb__search', arguments: { query: '' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/does not match its schema/);

    // The module's console.log went to stderr, so the protocol on stdout stayed clean.
    await expect.poll(stderr).toMatch(/support desk registry loaded/);
    expect(stderr()).toMatch(
      /MCP on stdio \(@modelcontextprotocol\/sdk\) — 2 tools: session__fetch, kb__search/,
    );
  });

  describe('the built bin', () => {
    beforeAll(ensureBuilt);

    it('runs as an executable with its shebang', () => {
      const result = spawnSync(`${ROOT}dist/cli.mjs`, ['--version'], { encoding: 'utf8' });
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('serves a registry module over stdio', async () => {
      const { client } = await connect([
        '--import',
        'tsx',
        'dist/cli.mjs',
        'mcp',
        'test/fixtures/named-registry-module.ts',
        '--locale',
        'zh-CN',
      ]);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['session__fetch']);
      const refused = await client.callTool({ name: 'ticket__submit', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/没有名为/);
    });
  });
});
