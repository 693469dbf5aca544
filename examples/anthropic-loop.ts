// A complete agent loop with the official `@anthropic-ai/sdk` against the Messages API: Anthropic, or any
// Anthropic-compatible endpoint (recent Ollama and vLLM serve /v1/messages). Run: npx tsx examples/anthropic-loop.ts
import Anthropic from '@anthropic-ai/sdk';
import { answerAnthropicToolUses, sanitizeAnthropicContent, toAnthropicTools } from 'graded-tools/anthropic';
import { createSupportDeskRegistry } from './support-desk-registry.js';

const { ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, MODEL } = process.env;
if (MODEL === undefined || (ANTHROPIC_API_KEY === undefined && ANTHROPIC_BASE_URL === undefined)) {
  console.log(`anthropic-loop needs a Messages API endpoint. Set:
  MODEL               the model, e.g. claude-sonnet-4-5, or qwen3:8b on Ollama
  ANTHROPIC_BASE_URL  e.g. http://localhost:11434 (Ollama); leave unset for api.anthropic.com
  ANTHROPIC_API_KEY   your key (any value for a local server)
Example: MODEL=qwen3:8b ANTHROPIC_BASE_URL=http://localhost:11434 ANTHROPIC_API_KEY=ollama npx tsx examples/anthropic-loop.ts`);
  process.exit(0);
}

const registry = createSupportDeskRegistry();
const ctx = { scope: 'desk', flags: { kb: true } };
const client = new Anthropic({
  apiKey: ANTHROPIC_API_KEY ?? 'unused',
  ...(ANTHROPIC_BASE_URL ? { baseURL: ANTHROPIC_BASE_URL } : {}),
});
const tools = toAnthropicTools(registry, ctx);
console.log(`Tools for the model: ${tools.map((tool) => tool.name).join(', ')}`);

const messages: Anthropic.MessageParam[] = [
  {
    role: 'user',
    content: 'Conversation c-1001: read it, search the knowledge base, and draft the reply I should send.',
  },
];

for (let turn = 0; turn < 8; turn += 1) {
  const reply = await client.messages.create({
    model: MODEL,
    max_tokens: 1024,
    system: 'You help a support agent. Use the tools to look things up; never invent facts.',
    messages,
    tools,
  });
  messages.push({ role: 'assistant', content: sanitizeAnthropicContent(reply.content) });
  const results = await answerAnthropicToolUses(registry, reply, ctx);
  if (results.length === 0) {
    console.log(`\n${reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`);
    break;
  }
  for (const result of results) {
    console.log(
      `→ ${result.tool_use_id}${result.is_error ? ' (error)' : ''}: ${String(result.content).slice(0, 120)}`,
    );
  }
  messages.push({ role: 'user', content: results });
}
