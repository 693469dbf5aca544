import { type ToolDefinition, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readTool, sendTool, writeTool } from '../helpers/tools.js';

function refusal(definition: unknown, registry = new ToolRegistry()): ToolDefinitionError {
  try {
    registry.register(definition as ToolDefinition);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('register accepted the definition');
}

describe('ToolRegistry#register', () => {
  it('registers, gets by internal or wire name, and lists with filters', () => {
    const registry = new ToolRegistry()
      .register(readTool('kb.search', { scopes: ['desk'] }).tool)
      .register(writeTool('ticket.submit').tool)
      .register(sendTool('message.send').tool);
    expect(registry.size).toBe(3);
    expect(registry.get('kb.search')?.wireName).toBe('kb__search');
    expect(registry.get('kb__search')?.name).toBe('kb.search');
    expect(registry.get('kb.nope')).toBeUndefined();
    expect(registry.has('message__send')).toBe(true);
    expect(registry.list({ sideEffect: 'write' }).map((t) => t.name)).toEqual(['ticket.submit']);
    expect(registry.list({ domain: 'kb' }).map((t) => t.name)).toEqual(['kb.search']);
    expect(registry.list({ scope: 'crm' }).map((t) => t.name)).toEqual(['ticket.submit', 'message.send']);
    expect(registry.list({ scope: 'desk' })).toHaveLength(3);
  });

  it('never hands out a tool’s functions through get or list', () => {
    const registry = new ToolRegistry().register(sendTool().tool);
    const info = registry.get('message.send') as unknown as Record<string, unknown>;
    expect(info.deliver).toBeUndefined();
    expect(info.prepare).toBeUndefined();
    expect(info.run).toBeUndefined();
  });

  it('derives the domain and the title, and refuses a domain that disagrees with the name', () => {
    const registry = new ToolRegistry().register(readTool('crm.contact.search').tool);
    expect(registry.get('crm.contact.search')).toMatchObject({ domain: 'crm', title: 'crm.contact.search' });
    expect(refusal({ ...readTool('kb.search').tool, domain: 'crm' }).code).toBe('DOMAIN_MISMATCH');
  });

  it('refuses a duplicate unless replace is set', () => {
    const registry = new ToolRegistry().register(readTool().tool);
    const error = refusal(readTool().tool, registry);
    expect(error.code).toBe('DUPLICATE_NAME');
    expect(error.message).toContain('replace: true');
    registry.register(writeTool('kb.search').tool, { replace: true });
    expect(registry.get('kb.search')?.sideEffect).toBe('write');
    expect(registry.size).toBe(1);
  });

  it.each([
    ['1search', 'INVALID_NAME'],
    ['send__email', 'INVALID_NAME'],
    ['kb..search', 'INVALID_NAME'],
    ['kb.se__arch', 'INVALID_NAME'],
    ['kb._search', 'INVALID_NAME'],
    [`kb.${'x'.repeat(62)}`, 'WIRE_NAME_TOO_LONG'],
    ['x'.repeat(65), 'WIRE_NAME_TOO_LONG'],
  ])('refuses the name %j with %s', (name, code) => {
    const error = refusal(readTool(name).tool);
    expect(error.code).toBe(code);
    expect(error.toolName).toBe(name);
  });

  it('accepts a name whose wire form is exactly 64 characters', () => {
    const name = `kb.${'x'.repeat(60)}`;
    expect(name.replace('.', '__')).toHaveLength(64);
    expect(new ToolRegistry().register(readTool(name).tool).get(name)?.wireName).toHaveLength(64);
  });

  it('refuses an input schema whose root is not an object, JSON Schema or Standard Schema', () => {
    expect(refusal({ ...readTool().tool, inputSchema: { type: 'string' } }).code).toBe('INVALID_SCHEMA');
    expect(refusal({ ...readTool().tool, inputSchema: { type: 'array' } }).code).toBe('INVALID_SCHEMA');
    expect(refusal({ ...readTool().tool, inputSchema: z.string() }).code).toBe('INVALID_SCHEMA');
    expect(refusal({ ...readTool().tool, inputSchema: null }).code).toBe('INVALID_SCHEMA');
    expect(refusal({ ...readTool().tool, inputSchema: {} }).message).toContain("type: 'object'");
  });

  it('refuses a send tool with run, or without prepare and deliver', () => {
    const { tool } = sendTool();
    expect(refusal({ ...tool, run: () => 1 }).code).toBe('SEND_WITH_RUN');
    expect(refusal({ ...tool, deliver: undefined }).code).toBe('SEND_WITHOUT_DELIVERY');
    expect(refusal({ ...tool, prepare: undefined }).code).toBe('SEND_WITHOUT_DELIVERY');
  });

  it('refuses a read or write tool without run, or with prepare/deliver', () => {
    expect(refusal({ ...readTool().tool, run: undefined }).code).toBe('MISSING_RUN');
    expect(refusal({ ...writeTool().tool, deliver: () => 1 }).code).toBe('INVALID_GRADE');
    expect(refusal({ ...readTool().tool, sideEffect: 'delete' }).code).toBe('INVALID_GRADE');
  });

  it('refuses bad options with a message that says how to fix them', () => {
    expect(refusal({ ...readTool().tool, description: '' }).code).toBe('INVALID_OPTION');
    expect(refusal({ ...readTool().tool, scopes: [] }).message).toContain('omit it');
    expect(refusal({ ...readTool().tool, featureFlag: '' }).code).toBe('INVALID_OPTION');
    expect(refusal({ ...readTool().tool, timeoutMs: -1 }).code).toBe('INVALID_OPTION');
    expect(refusal({ ...readTool().tool, timeoutMs: Number.NaN }).code).toBe('INVALID_OPTION');
    expect(refusal('kb.search').code).toBe('INVALID_OPTION');
  });

  it('unregisters by either name and forgets the wire name', () => {
    const registry = new ToolRegistry().register(readTool().tool);
    expect(registry.unregister('kb__search')).toBe(true);
    expect(registry.unregister('kb.search')).toBe(false);
    expect(registry.has('kb__search')).toBe(false);
    expect(registry.toFunctionSchemas()).toEqual([]);
  });

  it('does not compile schemas when registering', () => {
    let compiled = 0;
    const registry = new ToolRegistry({
      validator: {
        compile: () => {
          compiled += 1;
          return () => ({ valid: true });
        },
      },
    });
    for (let i = 0; i < 1000; i += 1) registry.register(readTool(`kb.search${i}`).tool);
    expect(compiled).toBe(0);
  });
});

describe('register with a name that is not a string', () => {
  it('throws ToolDefinitionError INVALID_NAME even for a null-prototype object', () => {
    const registry = new ToolRegistry();
    const definition = { ...readTool().tool, name: Object.create(null) as string };
    expect(() => registry.register(definition)).toThrow(ToolDefinitionError);
    try {
      registry.register(definition);
    } catch (error) {
      expect((error as ToolDefinitionError).code).toBe('INVALID_NAME');
    }
  });
});
