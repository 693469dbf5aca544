import { type ToolDefinition, ToolRegistry } from 'graded-tools';

/** A read tool that records its calls. */
export function readTool(name = 'kb.search', extra: Partial<ToolDefinition> = {}) {
  const calls: unknown[] = [];
  const tool = {
    name,
    description: `Read ${name}.`,
    sideEffect: 'read',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    run: (input: { query: string }) => {
      calls.push(input);
      return { hits: [String(input.query)] };
    },
    ...extra,
  } as ToolDefinition;
  return { tool, calls };
}

/** A write tool that records its calls. */
export function writeTool(name = 'ticket.submit', extra: Partial<ToolDefinition> = {}) {
  const calls: unknown[] = [];
  const tool = {
    name,
    description: `Write ${name}.`,
    sideEffect: 'write',
    inputSchema: { type: 'object', properties: { summary: { type: 'string' } } },
    run: (input: unknown) => {
      calls.push(input);
      return { id: calls.length };
    },
    ...extra,
  } as ToolDefinition;
  return { tool, calls };
}

/** A send tool that records what it prepared and (which must never happen here) delivered. */
export function sendTool(name = 'message.send', extra: Partial<ToolDefinition> = {}) {
  const prepared: unknown[] = [];
  const delivered: unknown[] = [];
  const tool = {
    name,
    description: `Send ${name}.`,
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    prepare: (input: unknown) => {
      prepared.push(input);
      return { draft: input };
    },
    deliver: (payload: unknown) => {
      delivered.push(payload);
      return 'sent';
    },
    ...extra,
  } as ToolDefinition;
  return { tool, prepared, delivered };
}

/** A registry with one read tool, `log.read`, whose result (5,000 characters) is longer than a model should read. */
export function longLogRegistry(): ToolRegistry {
  return new ToolRegistry().register({
    name: 'log.read',
    description: 'Read the log.',
    sideEffect: 'read',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    run: () => 'x'.repeat(5_000),
  });
}
