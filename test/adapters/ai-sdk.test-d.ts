import type { generateText, streamText, ToolSet } from 'ai';
import type { ToolRegistry } from 'graded-tools';
import { toAiSdkTools } from 'graded-tools/ai-sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ tenant: string }>;

describe('graded-tools/ai-sdk types', () => {
  it('is a ToolSet that generateText and streamText take', () => {
    const tools = toAiSdkTools(registry, { context: { tenant: 't1' } }, { maxResultChars: 4_000 });
    expectTypeOf(tools).toEqualTypeOf<ToolSet>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof generateText>[0]['tools']>>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof streamText>[0]['tools']>>();
    // @ts-expect-error the app context is the registry's
    toAiSdkTools(registry, { context: { tenant: 1 } });
  });
});
