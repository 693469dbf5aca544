import { ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue 31: `register` refuses a destination whose schema lets a non-scalar through unnamed, and checks
// a zod tool's destinations the same way as a JSON Schema tool's.

function send(inputSchema: unknown, destinations: readonly string[]) {
  return () =>
    new ToolRegistry().register({
      name: 'mail.send',
      description: 'Sends an email.',
      sideEffect: 'send',
      inputSchema: inputSchema as never,
      destinations,
      prepare: (input) => input,
      deliver: () => 'sent',
    });
}

const PEOPLE = {
  type: 'array',
  items: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'string' } } },
};

describe('destinations at register', () => {
  it('refuses a destination whose schema lets an object, a list of objects or any value through', () => {
    for (const to of [
      PEOPLE,
      { type: 'object', properties: { address: { type: 'string' } } },
      {},
      { type: 'array' },
      { anyOf: [{ type: 'string' }, { type: 'object' }] },
      { type: 'boolean' },
    ]) {
      const register = send({ type: 'object', properties: { to } }, ['to']);
      expect(register, JSON.stringify(to)).toThrow(ToolDefinitionError);
      expect(register).toThrow(/name the string or number inside/);
    }
    expect(send({ type: 'object', properties: { to: PEOPLE } }, ['to'])).toThrow(/"to\[\]\.address"/);
  });

  it('accepts a string, a number, a list of them, a nullable or enum one, and a named scalar inside a list', () => {
    for (const [to, path] of [
      [{ type: 'string' }, 'to'],
      [{ type: ['string', 'null'] }, 'to'],
      [{ type: 'array', items: { type: 'string', format: 'email' } }, 'to'],
      [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'to'],
      [{ enum: ['a@example.com', 'b@example.com'] }, 'to'],
      [{ type: 'integer' }, 'to'],
      [PEOPLE, 'to[].address'],
      [PEOPLE, 'to.address'],
      [PEOPLE, '/to/0/address'],
    ] as const) {
      expect(
        send({ type: 'object', properties: { to } }, [path]),
        `${path} ${JSON.stringify(to)}`,
      ).not.toThrow();
    }
  });

  it('refuses a path in neither form, or one the schema does not describe', () => {
    const schema = { type: 'object', properties: { to: PEOPLE } };
    for (const path of [
      'to..address',
      'to[0].address',
      '/to/x/address',
      '/to/0/address~2',
      'to[].email',
      '/cc',
    ])
      expect(send(schema, [path]), path).toThrow(ToolDefinitionError);
  });

  it("checks a zod tool's destinations like a JSON Schema's", () => {
    expect(send(z.object({ url: z.string() }), ['link'])).toThrow(/"link", which inputSchema/);
    const people = z.object({ to: z.array(z.object({ name: z.string(), address: z.string() })) });
    expect(send(people, ['to'])).toThrow(/name the string or number inside/);
    expect(send(people, ['to[].address'])).not.toThrow();
    expect(send(z.object({ to: z.array(z.string().email()).optional() }), ['to'])).not.toThrow();
    expect(send(z.object({ to: z.string().nullable() }), ['to'])).not.toThrow();
  });

  it('follows anyOf and local $ref on the way, and refuses a Standard Schema that cannot describe itself', () => {
    const nullable = z.object({ to: z.object({ address: z.string() }).nullable() });
    expect(send(nullable, ['to.address'])).not.toThrow();
    const byRef = {
      type: 'object',
      properties: { to: { $ref: '#/$defs/person' } },
      $defs: { person: { type: 'object', properties: { address: { type: 'string' } } } },
    };
    expect(send(byRef, ['to.address'])).not.toThrow();
    expect(send(byRef, ['to'])).toThrow(/name the string or number inside it, like "to.address"/);
    const opaque = {
      '~standard': { version: 1, vendor: 'opaque', validate: (value: unknown) => ({ value }) },
    };
    expect(send(opaque, ['to'])).toThrow(/cannot describe itself as JSON Schema/);
  });
});
