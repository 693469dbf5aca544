// A complete agent loop with the official `@google/genai` SDK against the Gemini API (or a compatible
// endpoint through GEMINI_BASE_URL). Run: npx tsx examples/gemini-loop.ts
import { type Content, GoogleGenAI } from '@google/genai';
import { answerGeminiFunctionCalls, sanitizeGeminiContent, toGeminiTools } from 'graded-tools/gemini';
import { createSupportDeskRegistry } from './support-desk-registry.js';

const { GEMINI_API_KEY, GEMINI_BASE_URL, MODEL } = process.env;
if (GEMINI_API_KEY === undefined) {
  console.log(`gemini-loop needs the Gemini API (the Gemini protocol is not OpenAI-compatible). Set:
  GEMINI_API_KEY   your key from Google AI Studio
  MODEL            optional, default gemini-2.5-flash
  GEMINI_BASE_URL  optional, a proxy that speaks the Gemini API
Example: GEMINI_API_KEY=… npx tsx examples/gemini-loop.ts`);
  process.exit(0);
}

const registry = createSupportDeskRegistry();
const ctx = { scope: 'desk', flags: { kb: true } };
const ai = new GoogleGenAI({
  apiKey: GEMINI_API_KEY,
  ...(GEMINI_BASE_URL ? { httpOptions: { baseUrl: GEMINI_BASE_URL } } : {}),
});
const tools = toGeminiTools(registry, ctx);
console.log(
  `Tools for the model: ${tools
    .flatMap((tool) => tool.functionDeclarations ?? [])
    .map((d) => d.name)
    .join(', ')}`,
);

const contents: Content[] = [
  {
    role: 'user',
    parts: [
      { text: 'Conversation c-1001: read it, search the knowledge base, and draft the reply I should send.' },
    ],
  },
];

for (let turn = 0; turn < 8; turn += 1) {
  const response = await ai.models.generateContent({
    model: MODEL ?? 'gemini-2.5-flash',
    contents,
    config: { tools, systemInstruction: 'You help a support agent. Use the tools; never invent facts.' },
  });
  const content = response.candidates?.[0]?.content;
  if (content === undefined) break;
  const parts = await answerGeminiFunctionCalls(registry, content, ctx);
  if (parts.length === 0) {
    console.log(`\n${response.text ?? ''}`);
    break;
  }
  for (const part of parts) {
    const { name, response: answer } = part.functionResponse ?? {};
    console.log(`→ ${name}: ${JSON.stringify(answer).slice(0, 120)}`);
  }
  // Replay the model turn sanitised (thought signatures kept), then one functionResponse per call.
  contents.push(sanitizeGeminiContent(content), { role: 'user', parts });
}
