import { Agent, type Tool } from '@openai/agents';
import type { ToolRegistry } from 'graded-tools';
import { type AgentsTool, toAgentsTools } from 'graded-tools/openai-agents';
import { describe, expectTypeOf, it } from 'vitest';

declare const registry: ToolRegistry<{ tenant: string }>;

describe('graded-tools/openai-agents types', () => {
  it('is a list of function tools an Agent takes, whatever its run context', () => {
    const tools = toAgentsTools(registry, { context: { tenant: 't1' } }, { strict: false, concurrency: 2 });
    expectTypeOf(tools).toEqualTypeOf<AgentsTool[]>();
    expectTypeOf(tools).toExtend<Tool<{ userId: string }>[]>();
    const agent = new Agent<{ userId: string }>({ name: 'Desk', tools });
    expectTypeOf(agent).toBeObject();
  });

  it('checks the context and the options', () => {
    // @ts-expect-error the app context is the registry's
    toAgentsTools(registry, { context: { tenant: 1 } });
    // @ts-expect-error strict is a boolean
    toAgentsTools(registry, {}, { strict: 'yes' });
    // @ts-expect-error the SDK owns the turn: bound it with maxTurns
    toAgentsTools(registry, {}, { maxCallsPerTurn: 3 });
  });
});
