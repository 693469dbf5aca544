import { describe, expect, it } from 'vitest';
import { type StrictArguments, stripStrictNulls } from '../../../src/adapters/openai/strip-nulls.js';

function argsOf(stripped: StrictArguments): unknown {
  if (!('args' in stripped)) throw new Error('refused as too deep');
  return stripped.args;
}

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer' },
    note: { type: ['string', 'null'] },
    filter: { $ref: '#/$defs/filter' },
    items: { type: 'array', items: { type: 'object', properties: { tag: { type: 'string' } } } },
    either: {
      anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }],
    },
  },
  required: ['query'],
  $defs: { filter: { type: 'object', properties: { since: { type: 'string' } } } },
};

describe('stripStrictNulls', () => {
  it('removes the nulls strict mode added, keeps the ones the schema allows', () => {
    const raw = JSON.stringify({
      query: null,
      limit: null,
      note: null,
      filter: { since: null },
      items: [{ tag: null }, { tag: 'a' }],
      either: { a: null },
    });
    expect(JSON.parse(String(argsOf(stripStrictNulls(raw, schema))))).toEqual({
      query: null,
      note: null,
      filter: {},
      items: [{}, { tag: 'a' }],
      either: {},
    });
  });

  it('returns the raw arguments when nothing changes or they are not a JSON object', () => {
    const raw = '{"query":"x"}';
    expect(stripStrictNulls(raw, schema)).toEqual({ args: raw });
    for (const odd of ['{', '[1]', 'null', '', 42, undefined, { query: null }])
      expect(argsOf(stripStrictNulls(odd, schema))).toBe(odd);
  });

  it('stops on deep recursive input instead of exhausting the stack', () => {
    const recursive = { type: 'object', properties: { next: { $ref: '#' }, value: { type: 'string' } } };
    let raw = '{"value":null}';
    for (let i = 0; i < 5_000; i += 1) raw = `{"next":${raw}}`;
    expect(stripStrictNulls(raw, recursive)).toEqual({ tooDeep: 64 });
    let fits = '{"value":null}';
    for (let i = 0; i < 60; i += 1) fits = `{"next":${fits}}`;
    expect(argsOf(stripStrictNulls(fits, recursive))).not.toMatch(/null/);
  });
});
