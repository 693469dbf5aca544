import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';

const send = (extra: Record<string, unknown>) => ({
  name: 'mail.send',
  description: 'Send a mail.',
  sideEffect: 'send' as const,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  prepare: (input: { text?: string }) => ({ to: 'a@example.com', text: input.text ?? '' }),
  deliver: () => true,
  ...extra,
});

const payloadSchema = {
  type: 'object',
  properties: { to: { type: 'string' }, text: { type: 'string' } },
  required: ['to', 'text'],
};

function registerError(definition: object): ToolDefinitionError {
  try {
    new ToolRegistry().register(definition as never);
  } catch (error) {
    if (error instanceof ToolDefinitionError) return error;
    throw error;
  }
  throw new Error('expected register to refuse the definition');
}

describe('payloadSchema and editable at register', () => {
  it('accepts editable fields that payloadSchema describes', () => {
    const registry = new ToolRegistry().register(send({ payloadSchema, editable: ['text'] }) as never);
    expect(registry.confirmations.tool('mail.send')?.editable).toEqual(['text']);
  });

  it('refuses editable without payloadSchema, a field it does not describe, and a field twice', () => {
    expect(registerError(send({ editable: ['text'] })).code).toBe('INVALID_SCHEMA');
    const unknown = registerError(send({ payloadSchema, editable: ['txt'] }));
    expect(unknown.code).toBe('INVALID_OPTION');
    expect(unknown.message).toContain('"txt"');
    expect(registerError(send({ payloadSchema, editable: ['text', 'text'] })).code).toBe('INVALID_OPTION');
    expect(registerError(send({ payloadSchema, editable: 'text' })).code).toBe('INVALID_OPTION');
  });

  it('refuses them on a tool that is not a send, and a payloadSchema whose root is not an object', () => {
    const read = {
      name: 'kb.search',
      description: 'Search.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: () => [],
      payloadSchema,
    };
    expect(registerError(read).code).toBe('INVALID_OPTION');
    expect(registerError(send({ payloadSchema: { type: 'string' } })).code).toBe('INVALID_SCHEMA');
  });

  it('keeps the schema as registered: changing the app object later changes nothing', () => {
    const schema = structuredClone(payloadSchema);
    const editable = ['text'];
    const registry = new ToolRegistry().register(send({ payloadSchema: schema, editable }) as never);
    (schema.properties as Record<string, unknown>).to = { type: 'number' };
    editable.push('to');
    expect(registry.confirmations.tool('mail.send')).toMatchObject({
      editable: ['text'],
      payloadSchema: { properties: { to: { type: 'string' } } },
    });
  });
});
