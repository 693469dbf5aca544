// A complete agent loop with the Vercel AI SDK (`generateText` runs the steps and calls the tools)
// against any OpenAI-compatible endpoint. Run: npx tsx examples/ai-sdk-loop.ts
import { generateText, stepCountIs } from 'ai';
import { sanitizeAiSdkMessages, toAiSdkTools } from 'graded-tools/ai-sdk';
import OpenAI from 'openai';
import { openAICompatibleModel } from './ai-sdk-openai-compatible-model.js';
import { createSupportDeskRegistry } from './support-desk-registry.js';

const { OPENAI_BASE_URL, OPENAI_API_KEY, MODEL } = process.env;
if (MODEL === undefined || (OPENAI_API_KEY === undefined && OPENAI_BASE_URL === undefined)) {
  console.log(`ai-sdk-loop needs an OpenAI-compatible endpoint. Set:
  MODEL            the model, e.g. gpt-4.1-mini, or qwen3:8b on Ollama
  OPENAI_BASE_URL  e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM);
                   leave unset for api.openai.com
  OPENAI_API_KEY   your key (any value for a local server)
Example: MODEL=qwen3:8b OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=ollama npx tsx examples/ai-sdk-loop.ts`);
  process.exit(0);
}

const registry = createSupportDeskRegistry();
const ctx = { scope: 'desk', flags: { kb: true } };
const client = new OpenAI({
  apiKey: OPENAI_API_KEY ?? 'unused',
  ...(OPENAI_BASE_URL ? { baseURL: OPENAI_BASE_URL } : {}),
});
const tools = toAiSdkTools(registry, ctx);
console.log(`Tools for the model: ${Object.keys(tools).join(', ')}`);

const result = await generateText({
  model: openAICompatibleModel(client, MODEL),
  system: 'You help a support agent. Use the tools to look things up; never invent facts.',
  prompt: 'Conversation c-1001: read it, search the knowledge base, and draft the reply I should send.',
  tools,
  // The AI SDK replays the model's calls itself; this keeps an illegal name or a repeated id from
  // making the endpoint refuse the next step.
  prepareStep: ({ messages }) => ({ messages: sanitizeAiSdkMessages(messages) }),
  stopWhen: stepCountIs(8),
});
for (const step of result.steps) {
  for (const toolResult of step.toolResults) {
    console.log(`→ ${toolResult.toolName}: ${JSON.stringify(toolResult.output).slice(0, 120)}`);
  }
  for (const part of step.content) {
    if (part.type === 'tool-error')
      console.log(`→ ${part.toolName} (error): ${String(part.error).slice(0, 120)}`);
  }
}
console.log(`\n${result.text}`);
