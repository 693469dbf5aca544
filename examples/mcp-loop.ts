// A complete agent loop through MCP: the official MCP client starts `graded-tools mcp` over stdio,
// lists the tools it serves and calls them for a model on any OpenAI-compatible endpoint.
// Run: npx tsx examples/mcp-loop.ts (without a model it still lists the tools and makes one call).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sanitizeChatAssistantMessage } from 'graded-tools/openai';
import OpenAI from 'openai';

const server = new StdioClientTransport({
  command: process.execPath,
  args: [
    '--import',
    'tsx',
    'src/cli/index.ts',
    'mcp',
    'examples/mcp-registry.ts',
    '--scope',
    'desk',
    '--flag',
    'kb',
  ],
  cwd: new URL('..', import.meta.url).pathname,
});
const mcp = new Client({ name: 'mcp-loop-example', version: '1.0.0' });
await mcp.connect(server);
const { tools } = await mcp.listTools();
console.log('The MCP server lists:');
for (const tool of tools) console.log(`  ${tool.name} — readOnlyHint: ${tool.annotations?.readOnlyHint}`);

const { OPENAI_BASE_URL, OPENAI_API_KEY, MODEL } = process.env;
if (MODEL === undefined || (OPENAI_API_KEY === undefined && OPENAI_BASE_URL === undefined)) {
  const sample = await mcp.callTool({ name: 'kb__search', arguments: { query: 'refund' } });
  console.log(`\nSample call kb__search → ${JSON.stringify(sample.content)}`);
  const refused = await mcp.callTool({
    name: 'message__send',
    arguments: { conversationId: 'c-1001', text: 'hi' },
  });
  console.log(
    `A model asking for message__send gets isError=${refused.isError}: ${JSON.stringify(refused.content)}`,
  );
  console.log(`
For the model loop, set an OpenAI-compatible endpoint:
  MODEL            e.g. gpt-4.1-mini, or qwen3:8b on Ollama
  OPENAI_BASE_URL  e.g. http://localhost:11434/v1 (Ollama); leave unset for api.openai.com
  OPENAI_API_KEY   your key (any value for a local server)`);
  await mcp.close();
  process.exit(0);
}

const client = new OpenAI({
  apiKey: OPENAI_API_KEY ?? 'unused',
  ...(OPENAI_BASE_URL ? { baseURL: OPENAI_BASE_URL } : {}),
});
// An MCP host hands the listed tools to its model as they are: the server already filtered them.
const openaiTools = tools.map((tool) => ({
  type: 'function' as const,
  function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
}));
const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
  {
    role: 'system',
    content: 'You help a support agent. Use the tools to look things up; never invent facts.',
  },
  {
    role: 'user',
    content: 'Conversation c-1001: read it, search the knowledge base, and draft the reply I should send.',
  },
];
for (let turn = 0; turn < 8; turn += 1) {
  const completion = await client.chat.completions.create({ model: MODEL, messages, tools: openaiTools });
  const message = completion.choices[0]?.message;
  if (message === undefined) break;
  // Replayed sanitised (legal names, unique ids); the calls are then answered under those same ids.
  const replay = sanitizeChatAssistantMessage(message);
  messages.push(replay);
  if (!replay.tool_calls?.length) {
    console.log(`\n${message.content ?? ''}`);
    break;
  }
  for (const call of replay.tool_calls) {
    if (call.type !== 'function') continue;
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      // The server answers bad input as an isError result the model can fix.
    }
    const result = await mcp.callTool({ name: call.function.name, arguments: args });
    const text = JSON.stringify(result.content);
    console.log(`→ ${call.function.name}${result.isError ? ' (error)' : ''}: ${text.slice(0, 120)}`);
    messages.push({ role: 'tool', tool_call_id: call.id, content: text });
  }
}
await mcp.close();
