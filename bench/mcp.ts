// MCP `tools/call` through the SDK's own client: our server vs a bare `McpServer.registerTool`.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/mcp.ts`; the main bench calls `benchMcp()`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolRegistry } from 'graded-tools';
import { createMcpServer } from 'graded-tools/mcp';
import { z } from 'zod';
import { formatRate, median, verdict } from './measure.js';
import { searchInput, searchRun, searchSchema, searchShape } from './search-tool.js';

// One tool, one 3-property schema (as zod for both servers, and as JSON Schema for ours), one handler.
const shape = searchShape;
const zodSchema = z.object(shape);
const jsonSchema = searchSchema;
const args = searchInput;
const run = searchRun;

/**
 * Calls per CPU-second of each contender in short interleaved batches, and each one's ratio to
 * `baseline` taken per round, then the median. Everything runs in this process (client, transport,
 * server), so CPU time is the work itself; wall time and far-apart samples on a shared machine
 * mostly measured the neighbours.
 */
async function compareCpuRates(
  contenders: Record<string, () => unknown>,
  baseline: string,
  options: { batch: number; rounds: number },
): Promise<{ rates: Record<string, number>; ratios: Record<string, number> }> {
  const names = Object.keys(contenders);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const runBatch = async (fn: () => unknown) => {
    const started = process.cpuUsage();
    for (let i = 0; i < options.batch; i += 1) await fn();
    const used = process.cpuUsage(started);
    return (options.batch / (used.user + used.system)) * 1e6;
  };
  for (const name of names) for (let i = 0; i < 3; i += 1) await runBatch(contenders[name] as () => unknown);
  for (let round = 0; round < options.rounds; round += 1) {
    const rate: Record<string, number> = {};
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      rate[name] = await runBatch(contenders[name] as () => unknown);
    }
    for (const name of names) {
      rates[name]?.push(rate[name] ?? 0);
      ratios[name]?.push((rate[name] ?? 0) / (rate[baseline] ?? 1));
    }
  }
  const medians = (samples: Record<string, number[]>) =>
    Object.fromEntries(names.map((name) => [name, median(samples[name] ?? [])]));
  return { rates: medians(rates), ratios: medians(ratios) };
}

async function connect(server: { connect(transport: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** The MCP benchmark: calls/s of `tools/call` for ours and the bare SDK server. Prints and returns its lines. */
export async function benchMcp(options: { quick?: boolean } = {}): Promise<string[]> {
  const bare = new McpServer({ name: 'bare', version: '1.0.0' });
  bare.registerTool('kb__search', { description: 'Search.', inputSchema: shape }, async (input) => ({
    content: [{ type: 'text', text: JSON.stringify(await run(input)) }],
  }));
  const zodRegistry = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: zodSchema,
    run,
  });
  const jsonRegistry = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: jsonSchema,
    run,
  });
  const clients = {
    'graded-tools createMcpServer (zod schema)': await connect(createMcpServer(zodRegistry)),
    'graded-tools createMcpServer (JSON Schema)': await connect(createMcpServer(jsonRegistry)),
    'bare McpServer.registerTool (zod schema)': await connect(bare),
  };
  for (const [name, client] of Object.entries(clients)) {
    const result = await client.callTool({ name: 'kb__search', arguments: args });
    if (result.isError === true) throw new Error(`${name}: the bench tool does not run`);
  }
  const BARE = 'bare McpServer.registerTool (zod schema)';
  const { rates, ratios } = await compareCpuRates(
    Object.fromEntries(
      Object.entries(clients).map(([name, client]) => [
        name,
        () => client.callTool({ name: 'kb__search', arguments: args }),
      ]),
    ),
    BARE,
    { batch: 400, rounds: options.quick === true ? 15 : 61 },
  );
  for (const client of Object.values(clients)) await client.close();

  const zodRatio = ratios['graded-tools createMcpServer (zod schema)'] ?? 0;
  const jsonRatio = ratios['graded-tools createMcpServer (JSON Schema)'] ?? 0;
  const lines = [
    '## MCP tools/call through the SDK client (in-memory transport), one async tool, calls per CPU-second',
  ];
  for (const [name, rate] of Object.entries(rates)) lines.push(`  ${name.padEnd(54)} ${formatRate(rate)}`);
  lines.push(
    `  ours (JSON Schema, Ajv) vs bare McpServer: ${jsonRatio.toFixed(2)}x the calls/s (target >= 0.95x: ${verdict(jsonRatio >= 0.95)})`,
  );
  lines.push(
    `  ours vs bare McpServer, the same zod schema: ${zodRatio.toFixed(2)}x the calls/s (target >= 0.95x: ${verdict(zodRatio >= 0.95)})`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchMcp({ quick: process.argv.includes('--quick') })) console.log(line);
}
