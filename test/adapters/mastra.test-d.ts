import { Agent } from '@mastra/core/agent';
import type { ReadOnlyResult, ToolRegistry } from 'graded-tools';
import { type MastraTool, toMastraTools } from 'graded-tools/mastra';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ tenant: string }>;

describe('graded-tools/mastra types', () => {
  it('is a record of tools an Agent takes, each giving back the exit result', () => {
    const tools = toMastraTools(registry, { context: { tenant: 't1' } }, { concurrency: 2 });
    expectTypeOf(tools).toEqualTypeOf<Record<string, MastraTool>>();
    const agent = new Agent({
      id: 'desk',
      name: 'Desk',
      instructions: 'Help.',
      model: 'openai/gpt-4.1-mini',
      tools,
    });
    expectTypeOf(agent).toBeObject();
    expectTypeOf<Parameters<NonNullable<MastraTool['toModelOutput']>>[0]>().toEqualTypeOf<ReadOnlyResult>();
  });

  it('checks the context and the options', () => {
    // @ts-expect-error the app context is the registry's
    toMastraTools(registry, { context: { tenant: 1 } });
    // @ts-expect-error the agent owns the turn: bound it with maxSteps
    toMastraTools(registry, {}, { maxCallsPerTurn: 3 });
  });
});
