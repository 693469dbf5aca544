import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toPassThroughSchema } from '../../../src/adapters/core/pass-through-schema.js';
import { toModelParameters } from '../../../src/tools/function-schema.js';

describe('toPassThroughSchema', () => {
  const parameters = toModelParameters({
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 } },
    required: ['query'],
  });

  it('describes the model schema with a fresh mutable copy on every ask', () => {
    const { jsonSchema } = toPassThroughSchema(parameters)['~standard'];
    const first = jsonSchema.input({ target: 'draft-07' });
    const second = jsonSchema.input({ target: 'draft-2020-12' });
    expect(first).toEqual(parameters);
    expect(second).toEqual(parameters);
    expect(first).not.toBe(second);
    expect(Object.isFrozen(parameters)).toBe(true);
    first.__absolute_uri__ = 'urn:annotated';
    (first.properties as Record<string, unknown>).extra = {};
    expect(jsonSchema.output({ target: 'draft-07' })).toEqual(parameters);
  });

  it('lets every value through unchanged: the model exit validates', () => {
    const { validate } = toPassThroughSchema(parameters)['~standard'];
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validate(value)).toEqual({ value });
      }),
    );
    const input = { query: '' };
    expect(validate(input)).toEqual({ value: input });
  });
});
