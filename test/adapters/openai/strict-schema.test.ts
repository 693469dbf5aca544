import { ToolDefinitionError } from 'graded-tools';
import { OPENAI_STRICT_UNSUPPORTED_KEYWORDS, toOpenAIStrictSchema } from 'graded-tools/openai';
import { describe, expect, it } from 'vitest';

describe('toOpenAIStrictSchema', () => {
  it('closes objects, requires every property and makes the optional ones nullable', () => {
    const strict = toOpenAIStrictSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1 },
          limit: { type: 'integer', description: 'How many.' },
          sort: { type: 'string', enum: ['asc', 'desc'] },
          note: { type: ['string', 'null'] },
          filter: {
            type: 'object',
            properties: { tag: { type: 'string' }, since: { type: 'string', format: 'date' } },
            required: ['tag'],
          },
          ids: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
          kind: { const: 'x', description: 'Always x.' },
          either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['query'],
      },
      'kb.search',
    );
    expect(strict).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        limit: { type: ['integer', 'null'], description: 'How many.' },
        sort: { type: ['string', 'null'], enum: ['asc', 'desc', null] },
        note: { type: ['string', 'null'] },
        filter: {
          type: ['object', 'null'],
          properties: { tag: { type: 'string' }, since: { type: ['string', 'null'], format: 'date' } },
          required: ['tag', 'since'],
          additionalProperties: false,
        },
        ids: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { id: { type: ['string', 'null'] } },
            required: ['id'],
            additionalProperties: false,
          },
        },
        kind: { description: 'Always x.', anyOf: [{ const: 'x' }, { type: 'null' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      },
      required: ['query', 'limit', 'sort', 'note', 'filter', 'ids', 'kind', 'either'],
      additionalProperties: false,
    });
    expect(Object.isFrozen(strict)).toBe(true);
  });

  it('keeps local refs and strictifies their definitions', () => {
    const strict = toOpenAIStrictSchema(
      {
        type: 'object',
        properties: { node: { $ref: '#/$defs/node' } },
        $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      },
      'tree.read',
    );
    expect(strict).toMatchObject({
      properties: { node: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
      $defs: {
        node: {
          properties: { child: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
          required: ['child'],
          additionalProperties: false,
        },
      },
    });
  });

  it.each(OPENAI_STRICT_UNSUPPORTED_KEYWORDS)(
    'refuses `%s`, naming the tool, keyword and place',
    (keyword) => {
      const schema = { type: 'object', properties: { field: { type: 'string', [keyword]: {} } } };
      expect(() => toOpenAIStrictSchema(schema, 'docs.find')).toThrow(
        `Tool "docs.find": OpenAI strict mode does not support the keyword \`${keyword}\` (at /properties/field)`,
      );
    },
  );

  it.each([
    ['an open object', { type: 'object', additionalProperties: true }, /additionalProperties/],
    [
      'a schema for extra keys',
      { type: 'object', additionalProperties: { type: 'string' } },
      /additionalProperties/,
    ],
    ['an array without items', { type: 'object', properties: { a: { type: 'array' } } }, /without `items`/],
    ['tuple items', { type: 'object', properties: { a: { type: 'array', items: [{}] } } }, /tuple-form/],
    ['an undeclared required property', { type: 'object', required: ['ghost'] }, /"ghost"/],
    ['a boolean schema', { type: 'object', properties: { a: true } }, /boolean schema/],
  ])('refuses %s', (_label, schema, message) => {
    expect(() => toOpenAIStrictSchema(schema, 'x.y')).toThrow(message);
    expect(() => toOpenAIStrictSchema(schema, 'x.y')).toThrow(ToolDefinitionError);
  });

  it('turns an empty root into a closed empty object', () => {
    expect(toOpenAIStrictSchema({ type: 'object' }, 'a.b')).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});
