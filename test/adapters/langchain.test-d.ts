import type { StructuredToolInterface } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type { ToolRegistry } from 'graded-tools';
import { toLangChainTools } from 'graded-tools/langchain';
import type { createAgent } from 'langchain';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ tenant: string }>;

describe('graded-tools/langchain types', () => {
  it('is a list of structured tools createAgent and LangGraph.js take', () => {
    const tools = toLangChainTools(registry, { context: { tenant: 't1' } }, { maxResultChars: 4_000 });
    expectTypeOf(tools).toExtend<StructuredToolInterface[]>();
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof createAgent>[0]['tools']>>();
    expectTypeOf(new ToolNode(tools)).toBeObject();
  });

  it('checks the context and the options', () => {
    // @ts-expect-error the app context is the registry's
    toLangChainTools(registry, { context: { tenant: 1 } });
    // @ts-expect-error the agent owns the turn: bound it with recursionLimit
    toLangChainTools(registry, {}, { maxCallsPerTurn: 3 });
  });
});
