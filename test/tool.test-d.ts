import {
  defineTool,
  type ErrorCode,
  type InvokeResult,
  type ReadOnlyResult,
  type RunContext,
  type SendToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const objectSchema = { type: 'object', properties: { q: { type: 'string' } } } as const;

describe('tool definition types', () => {
  it('infers run’s input from a Standard Schema', () => {
    defineTool({
      name: 'kb.lookup',
      description: 'Look up.',
      sideEffect: 'read',
      inputSchema: z.object({ id: z.string(), limit: z.number().optional() }),
      run: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ id: string; limit?: number | undefined }>();
        return input.id;
      },
    });
  });

  it('gives a JSON Schema tool a record input, which run may narrow by annotation', () => {
    defineTool({
      name: 'kb.search',
      description: 'Search.',
      sideEffect: 'read',
      inputSchema: objectSchema,
      run: (input) => {
        expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>();
        return 1;
      },
    });
    defineTool({
      name: 'kb.search',
      description: 'Search.',
      sideEffect: 'read',
      inputSchema: objectSchema,
      run: (input: { q: string }, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<RunContext<unknown>>();
        return input.q;
      },
    });
  });

  it('types deliver’s payload from prepare’s return', () => {
    const send = defineTool({
      name: 'message.send',
      description: 'Send.',
      sideEffect: 'send',
      inputSchema: z.object({ to: z.string() }),
      prepare: (input) => ({ to: input.to, body: 'hello' }),
      deliver: (payload, approval) => {
        expectTypeOf(payload).toEqualTypeOf<{ to: string; body: string }>();
        expectTypeOf(approval.confirmationId).toEqualTypeOf<string>();
        return true;
      },
    });
    expectTypeOf(send).toMatchTypeOf<SendToolDefinition>();
  });

  it('refuses a send tool without deliver or prepare, or with run', () => {
    // @ts-expect-error a send tool must have deliver
    defineTool({
      name: 'm.send',
      description: 'x',
      sideEffect: 'send',
      inputSchema: objectSchema,
      prepare: () => 1,
    });
    // @ts-expect-error a send tool must have prepare
    defineTool({
      name: 'm.send',
      description: 'x',
      sideEffect: 'send',
      inputSchema: objectSchema,
      deliver: () => 1,
    });
    defineTool({
      name: 'm.send',
      description: 'x',
      sideEffect: 'send',
      inputSchema: objectSchema,
      prepare: () => 1,
      deliver: () => 1,
      // @ts-expect-error a send tool has no run
      run: () => 1,
    });
  });

  it('refuses a read or write tool without run, or with deliver', () => {
    // @ts-expect-error a read tool must have run
    defineTool({ name: 'k.read', description: 'x', sideEffect: 'read', inputSchema: objectSchema });
    defineTool({
      name: 'k.write',
      description: 'x',
      sideEffect: 'write',
      inputSchema: objectSchema,
      run: () => 1,
      // @ts-expect-error only send tools deliver
      deliver: () => 1,
    });
    defineTool({
      name: 'k.del',
      description: 'x',
      // @ts-expect-error an unknown grade
      sideEffect: 'delete',
      inputSchema: objectSchema,
      run: () => 1,
    });
  });

  it('types results so a program switches on codes', async () => {
    const registry = new ToolRegistry<{ userId: string }>();
    // @ts-expect-error the app context type is checked
    await registry.invoke('kb.search', {}, { context: { user: 1 } });
    const result = await registry.invoke('kb.search', {}, { context: { userId: 'u1' } });
    expectTypeOf(result).toEqualTypeOf<InvokeResult>();
    if (!result.ok) expectTypeOf(result.code).toEqualTypeOf<ErrorCode>();
    const model = await registry.invokeReadOnly('kb__search', '{}');
    expectTypeOf(model).toEqualTypeOf<ReadOnlyResult>();
    if (model.ok) expectTypeOf(model.requiresConfirm).toEqualTypeOf<false | undefined>();
  });
});
