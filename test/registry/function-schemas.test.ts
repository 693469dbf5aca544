import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

describe('ToolRegistry#toFunctionSchemas (the model’s list)', () => {
  const registry = new ToolRegistry()
    .register(readTool('kb.search', { featureFlag: 'kb' }).tool)
    .register(readTool('session.fetch', { scopes: ['desk'] }).tool)
    .register(writeTool('ticket.submit').tool)
    .register(sendTool('message.send').tool);

  it('lists exactly the read tools whose gates pass, under wire names, in OpenAI function shape', () => {
    expect(registry.toFunctionSchemas().map((f) => f.name)).toEqual([]);
    expect(registry.toFunctionSchemas({ flags: { kb: true } }).map((f) => f.name)).toEqual(['kb__search']);
    const all = registry.toFunctionSchemas({ flags: { kb: true }, scope: 'desk' });
    expect(all.map((f) => f.name)).toEqual(['kb__search', 'session__fetch']);
    expect(all[0]).toEqual({
      name: 'kb__search',
      description: 'Read kb.search.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' } },
        required: ['query'],
        additionalProperties: false,
      },
    });
  });

  it('never lists write or send, whatever the context claims', () => {
    const sneaky = { flags: { kb: true }, scope: 'desk', autonomous: false } as never;
    const names = registry.toFunctionSchemas(sneaky).map((f) => f.name);
    expect(names).not.toContain('ticket__submit');
    expect(names).not.toContain('message__send');
  });

  it('serves repeated calls from a cache that a register invalidates', () => {
    const first = registry.toFunctionSchemas({ flags: { kb: true } });
    const second = registry.toFunctionSchemas({ flags: { kb: true } });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second[0]).toBe(first[0]);
    first.pop();
    expect(registry.toFunctionSchemas({ flags: { kb: true } })).toHaveLength(1);
    const local = new ToolRegistry().register(readTool('a.b').tool);
    expect(local.toFunctionSchemas()).toHaveLength(1);
    local.register(readTool('a.c').tool);
    expect(local.toFunctionSchemas()).toHaveLength(2);
  });

  it('gives frozen copies: a caller cannot change the tool’s schema through them', () => {
    const [schema] = registry.toFunctionSchemas({ flags: { kb: true } });
    expect(Object.isFrozen(schema?.parameters)).toBe(true);
    expect(() => {
      (schema?.parameters as { type: string }).type = 'string';
    }).toThrow(TypeError);
    expect(registry.get('kb.search')?.inputSchema.type).toBe('object');
  });

  it('describes a Standard Schema tool as JSON Schema without the $schema marker', () => {
    const typed = new ToolRegistry().register({
      name: 'kb.lookup',
      description: 'Look up.',
      sideEffect: 'read',
      inputSchema: z.object({ id: z.string().describe('The id') }),
      run: () => 1,
    });
    const [schema] = typed.toFunctionSchemas();
    expect(schema?.parameters).not.toHaveProperty('$schema');
    expect(schema?.parameters).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string', description: 'The id' } },
    });
  });
});
