import type {
  Content,
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentResponse,
} from '@google/genai';
import type { ToolRegistry } from 'graded-tools';
import {
  answerGeminiFunctionCalls,
  sanitizeGeminiContent,
  toGeminiFunctionDeclarations,
  toGeminiTools,
} from 'graded-tools/gemini';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry;
declare const response: GenerateContentResponse;

describe('graded-tools/gemini types', () => {
  it('emits declarations and tools the SDK takes', () => {
    expectTypeOf(toGeminiFunctionDeclarations(registry)).toEqualTypeOf<FunctionDeclaration[]>();
    const config: GenerateContentConfig = { tools: toGeminiTools(registry, { flags: { kb: true } }) };
    expectTypeOf(config).toBeObject();
  });

  it('returns contents the SDK takes back', async () => {
    const content = response.candidates![0]!.content!;
    const contents: Content[] = [
      sanitizeGeminiContent(content),
      { role: 'user', parts: await answerGeminiFunctionCalls(registry, content) },
      { role: 'user', parts: await answerGeminiFunctionCalls(registry, response.functionCalls ?? []) },
    ];
    expectTypeOf(contents).toBeArray();
  });
});
