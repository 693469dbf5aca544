// A complete agent loop with the official `openai` SDK (Chat Completions) against any OpenAI-compatible
// endpoint: OpenAI, a local Ollama or vLLM, a gateway. Run: npx tsx examples/openai-loop.ts
import {
  answerChatToolCalls,
  sanitizeChatAssistantMessage,
  toChatCompletionTools,
} from 'graded-tools/openai';
import OpenAI from 'openai';
import { createSupportDeskRegistry } from './support-desk-registry.js';

const { OPENAI_BASE_URL, OPENAI_API_KEY, MODEL } = process.env;
if (MODEL === undefined || (OPENAI_API_KEY === undefined && OPENAI_BASE_URL === undefined)) {
  console.log(`openai-loop needs an OpenAI-compatible endpoint. Set:
  MODEL            the model, e.g. gpt-4.1-mini, or qwen3:8b on Ollama
  OPENAI_BASE_URL  e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM);
                   leave unset for api.openai.com
  OPENAI_API_KEY   your key (any value for a local server)
Example: MODEL=qwen3:8b OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=ollama npx tsx examples/openai-loop.ts`);
  process.exit(0);
}

const registry = createSupportDeskRegistry();
// The model acts at the support desk with the knowledge base switched on. It sees the read tools only:
// ticket.submit (write) and message.send (send) never reach it, whatever it asks for.
const ctx = { scope: 'desk', flags: { kb: true } };
const client = new OpenAI({
  apiKey: OPENAI_API_KEY ?? 'unused',
  ...(OPENAI_BASE_URL ? { baseURL: OPENAI_BASE_URL } : {}),
});
const tools = toChatCompletionTools(registry, ctx);
console.log(`Tools for the model: ${tools.map((tool) => tool.function.name).join(', ')}`);

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
  const completion = await client.chat.completions.create({ model: MODEL, messages, tools });
  const message = completion.choices[0]?.message;
  if (message === undefined) break;
  // Replay the assistant turn sanitised: illegal names and duplicate ids would make the next request fail.
  messages.push(sanitizeChatAssistantMessage(message));
  if (!message.tool_calls?.length) {
    console.log(`\n${message.content ?? ''}`);
    break;
  }
  const results = await answerChatToolCalls(registry, message, ctx);
  for (const [index, call] of message.tool_calls.entries()) {
    const name = call.type === 'function' ? call.function.name : call.custom.name;
    console.log(`→ ${name}: ${String(results[index]?.content).slice(0, 120)}`);
  }
  messages.push(...results);
}
