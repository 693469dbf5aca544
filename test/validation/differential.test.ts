import fc from 'fast-check';
import { type CompiledValidator, createAjvValidator, createCfworkerValidator } from 'graded-tools';
import { beforeAll, describe, expect, it } from 'vitest';

// The default validator on Node, Bun and Deno (Ajv) and the one under workerd (cfworker) must accept
// and refuse the same inputs, or cfworker must refuse the schema at register (fail closed): a tool's
// contract cannot depend on where it runs. Messages may differ.
const ajv = createAjvValidator();
const cfworker = createCfworkerValidator();
beforeAll(async () => {
  await Promise.all([ajv.load?.(), cfworker.load?.()]);
});

type Schema = Record<string, unknown>;

function both(schema: Schema): [CompiledValidator, CompiledValidator] {
  return [ajv.compile(schema), cfworker.compile(schema)];
}

/** The inputs on which the two validators disagree, with each one's verdict. */
function disagreements(schema: Schema, inputs: readonly unknown[]) {
  const [byAjv, byCfworker] = both(schema);
  return inputs
    .map((input) => ({ input, ajv: byAjv(input).valid, cfworker: byCfworker(input).valid }))
    .filter((row) => row.ajv !== row.cfworker);
}

const STRINGS = [
  '',
  'a',
  'abc',
  'ABC',
  'aaa!',
  ' x ',
  'line\nbreak',
  'é',
  '😀😀',
  'ann@example.com',
  'a@b',
  'not an email',
  'https://example.com/a?b=1#c',
  'mailto:ann@example.com',
  'urn:isbn:0451450523',
  'relative/path',
  '//host/path',
  'http://[::1]:80/',
  '2024-02-29T12:00:00Z',
  '2024-01-01T12:00:00.123+01:00',
  '2024-01-01t12:00:00z',
  '2023-02-29T12:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-01-01 12:00:00Z',
  '2024-01-01',
  '123',
  'AB-123',
  // A valid and a near-miss sample of each format the validators enable.
  '12:00:00',
  '12:00:00+25:00',
  '2024-01-01T12:00:00',
  'P1Y2M3DT4H5M6S',
  'PT',
  'P1W',
  'http://example.com/{id}',
  'http://example.com/{id',
  'example.com',
  '-example.com',
  'a'.repeat(64),
  '192.168.0.1',
  '256.1.1.1',
  '::1',
  '2001:db8::g',
  '^[a-z]+$',
  '(',
  '123e4567-e89b-12d3-a456-426614174000',
  'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
  '/a~1b/c',
  '/a~2',
  '#/a/b',
  '0/a',
  '1#',
  'QUJD',
  'QUI=',
  'QUJD\n!!',
  'http://10.0.0.1/',
  'http://8.8.8.8:8080/x',
  'ftp://user:pw@example.com',
  'http://localhost',
];
const NUMBERS = [
  0,
  1,
  -1,
  2,
  1.5,
  -0.5,
  3,
  10,
  100,
  2 ** 53,
  0.1,
  0.07,
  0.3,
  4.35,
  0.075,
  19.99,
  2 ** 31,
  -(2 ** 31) - 1,
  1e21,
  3e21,
];

/** The schemas of the validator tests (validators, patterns, unique-items), with their inputs. */
const FIXED: [string, Schema, unknown[]][] = [
  [
    'formats, enums and a draft-07 marker',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, kind: { enum: ['lead', 'customer'] } },
      required: ['email'],
    },
    [{ email: 'a@b.co', kind: 'lead' }, { email: 'nope', kind: 'boss' }, {}, { email: 'a@b.co' }, null, []],
  ],
  [
    'an integer with a default, never coerced',
    { type: 'object', properties: { n: { type: 'integer', default: 3 } } },
    [{}, { n: 3 }, { n: '3' }, { n: 3.5 }, { n: 3.0 }],
  ],
  [
    'required, additionalProperties false',
    {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    [{ query: 'x' }, { query: 3 }, {}, { query: 'x', more: 1 }],
  ],
  [
    'patterns with ECMAScript meaning for ., \\s, \\u escapes, classes and named groups',
    {
      type: 'object',
      properties: {
        line: { type: 'string', pattern: '^.+$' },
        space: { type: 'string', pattern: '^\\s+$' },
        nonSpace: { type: 'string', pattern: '^\\S+$' },
        code: { type: 'string', pattern: '^(?<area>[A-Z]{2})-\\d{3}[\\s\\u00e9]?$' },
        word: { type: 'string', pattern: 'dup' },
      },
    },
    [
      { line: 'abc' },
      { line: 'a\nb' },
      { line: 'a\u2028b' },
      { space: ' \u00a0\t' },
      { space: 'x' },
      { nonSpace: 'a\u3000b' },
      { code: 'AB-123' },
      { code: 'AB-123é' },
      { code: 'ab-123' },
      { word: 'a dup b' },
      { word: 'dupe' },
      { word: 'du p' },
    ],
  ],
  [
    'a backtracking pattern, on the linear engine in both',
    { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } },
    [{ q: 'aaaa' }, { q: `${'a'.repeat(28)}!` }, { q: '' }],
  ],
  [
    'uniqueItems over objects in any key order and look-alikes',
    { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } },
    [
      {
        tags: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      },
      { tags: [1, '1'] },
      { tags: [1, 1.0] },
      { tags: [{}, []] },
      { tags: [null, 0, false, ''] },
      {
        tags: [
          [1, 2],
          [2, 1],
        ],
      },
      { tags: [{ a: [1] }, { a: [1] }] },
    ],
  ],
  [
    'uniqueItems false with typed items',
    {
      type: 'object',
      properties: { tags: { type: 'array', uniqueItems: false, items: { type: 'string' } } },
    },
    [{ tags: ['a', 'a'] }, { tags: ['a', 1] }],
  ],
  [
    '$ref into $defs, draft-07 definitions and a shared $id',
    {
      $id: 'https://example.com/args',
      type: 'object',
      $defs: { id: { type: 'string', minLength: 2 } },
      definitions: { n: { type: 'number', minimum: 0 } },
      properties: { id: { $ref: '#/$defs/id' }, n: { $ref: '#/definitions/n' } },
    },
    [{ id: 'ab', n: 0 }, { id: 'a' }, { n: -1 }, { id: 3 }],
  ],
  [
    'formats neither validator knows (idn-email, iri, a typo): ignored by both',
    {
      type: 'object',
      properties: {
        a: { type: 'string', format: 'idn-email' },
        b: { type: 'string', format: 'iri' },
        c: { type: 'string', format: 'emial' },
      },
    },
    [{ a: 'not an address', b: '::', c: 'x' }, { a: 3 }],
  ],
  [
    'keyword names used as property names (nullable, formatMinimum, uniqueItems), also in dependentRequired',
    {
      type: 'object',
      properties: { nullable: { type: 'string' }, formatMinimum: { type: 'number' }, uniqueItems: {} },
      dependentRequired: { nullable: ['formatMinimum'], formatMinimum: ['uniqueItems'] },
    },
    [{ nullable: 'a', formatMinimum: 1, uniqueItems: [1, 1] }, { nullable: 'a' }, { nullable: null }, {}],
  ],
  [
    'strings measured in code points, not UTF-16 units',
    { type: 'string', minLength: 2, maxLength: 2 },
    ['😀😀', '😀', 'ab', 'abc'],
  ],
];

const STRING_FORMATS = [
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'password',
  'binary',
];
const NUMBER_FORMATS = ['int32', 'int64', 'float', 'double'];

/**
 * A generated schema, at most a few levels deep, over the keywords both validators read: types,
 * string, number and array bounds, multipleOf with decimals, safe patterns, every enabled format,
 * enum and const, the combinators, contains, uniqueItems, nullable, unevaluated*; `$ref` only when
 * `withRef` (the schema it points at has none, so that no reference loops).
 */
const schemaArb = (withRef: boolean): fc.Arbitrary<Schema> =>
  fc.letrec<{ schema: Schema }>((tie) => {
    const leaf = fc.oneof(
      fc
        .constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object')
        .map((type) => ({ type })),
      fc
        .record({ minLength: fc.nat(3), maxLength: fc.integer({ min: 1, max: 6 }) }, { requiredKeys: [] })
        .map((bounds) => ({ type: 'string', ...bounds })),
      fc
        .constantFrom(
          '^[a-z]+$',
          '^(a|b)*c?$',
          '\\d{3}',
          '^\\s*x',
          '^.$',
          '^[^@]+@',
          'é',
          '^(a+)+$',
          '^\\S+$',
        )
        .map((pattern) => ({ type: 'string', pattern })),
      fc.constantFrom(...STRING_FORMATS).map((format) => ({ type: 'string', format })),
      fc.constantFrom(...STRING_FORMATS, ...NUMBER_FORMATS).map((format) => ({ format })),
      fc.record(
        {
          type: fc.constantFrom('number', 'integer'),
          minimum: fc.constantFrom(-1, 0, 1.5, 2),
          maximum: fc.constantFrom(0, 2, 10),
          exclusiveMinimum: fc.constantFrom(0, 1),
          exclusiveMaximum: fc.constantFrom(5, 100),
          multipleOf: fc.constantFrom(1, 0.5, 3, 0.01, 0.1, 0.25, 0.05),
          format: fc.constantFrom(...NUMBER_FORMATS),
        },
        { requiredKeys: ['type'] },
      ),
      fc
        .array(fc.constantFrom<unknown>('a', 'abc', 1, 1.5, null, true, { a: 1 }, [1]), {
          minLength: 1,
          maxLength: 3,
        })
        .map((values) => ({ enum: values })),
      fc.constantFrom<unknown>('a', 0, null, false, { a: 1 }, [1, 2]).map((value) => ({ const: value })),
      fc
        .record({
          type: fc.constantFrom('string', 'number', 'integer', 'array', 'object', 'boolean'),
          nullable: fc.boolean(),
        })
        .map((parts) => parts),
      ...(withRef ? [fc.constant({ $ref: '#/$defs/shared' })] : []),
    );
    const subschemas = fc.array(tie('schema'), { minLength: 1, maxLength: 3 });
    return {
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc
          .record(
            {
              properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('schema'), { maxKeys: 3 }),
              required: fc.subarray(['a', 'b', 'c']),
              additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
              minProperties: fc.nat(2),
            },
            { requiredKeys: ['properties'] },
          )
          .map((parts) => ({ type: 'object', ...parts })),
        fc
          .record(
            {
              properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('schema'), { maxKeys: 2 }),
              allOf: fc.array(
                fc
                  .dictionary(fc.constantFrom('b', 'c'), tie('schema'), { maxKeys: 2 })
                  .map((properties) => ({ properties })),
                { minLength: 1, maxLength: 2 },
              ),
              unevaluatedProperties: fc.oneof(fc.boolean(), tie('schema')),
            },
            { requiredKeys: ['unevaluatedProperties'] },
          )
          .map((parts) => ({ type: 'object', ...parts })),
        fc
          .record(
            {
              items: tie('schema'),
              uniqueItems: fc.boolean(),
              minItems: fc.nat(2),
              maxItems: fc.integer({ min: 1, max: 4 }),
            },
            { requiredKeys: ['items'] },
          )
          .map((parts) => ({ type: 'array', ...parts })),
        fc
          .record(
            { prefixItems: subschemas, unevaluatedItems: fc.oneof(fc.boolean(), tie('schema')) },
            { requiredKeys: ['prefixItems'] },
          )
          .map((parts) => ({ type: 'array', ...parts })),
        fc
          .record(
            {
              contains: tie('schema'),
              minContains: fc.nat(2),
              maxContains: fc.integer({ min: 1, max: 3 }),
              uniqueItems: fc.boolean(),
            },
            { requiredKeys: ['contains'] },
          )
          .map((parts) => ({ type: 'array', ...parts })),
        fc
          .record({
            combinator: fc.constantFrom('anyOf', 'oneOf'),
            list: fc
              .tuple(tie('schema'), fc.boolean())
              .map(([items, uniqueItems]) => ({ type: 'array', items, uniqueItems })),
            other: fc.constantFrom('null', 'string', 'object'),
          })
          .map(({ combinator, list, other }) => ({ [combinator]: [list, { type: other }] })),
        subschemas.map((anyOf) => ({ anyOf })),
        subschemas.map((oneOf) => ({ oneOf })),
        subschemas.map((allOf) => ({ allOf })),
        tie('schema').map((not) => ({ not })),
      ),
    };
  }).schema;

/** A root schema: the generated one, with what a `$ref` in it points at. */
const rootArb = fc
  .tuple(schemaArb(true), schemaArb(false))
  .map(([schema, shared]) => ({ ...schema, $defs: { shared } }) as Schema);

/** JSON inputs over the same few keys, strings and numbers the schemas talk about; arrays often repeat items. */
const inputArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...STRINGS),
    fc.string({ maxLength: 6 }),
    fc.constantFrom(...NUMBERS),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom(null, true, false),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(tie('value'), { minLength: 1, maxLength: 2 }).map((items) => [...items, ...items]),
    // Parsed JSON has prototypes: objects without one are listed as a difference below.
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

/** A validator's reading of a schema: refused (at register or compile), or compiled. */
function compileOn(validator: typeof ajv, schema: Schema): CompiledValidator | 'refused' {
  const reason = validator.findUnsupported?.(schema);
  if (reason !== undefined) {
    reasons.set(reason.slice(0, 40), (reasons.get(reason.slice(0, 40)) ?? 0) + 1);
    return 'refused';
  }
  try {
    return validator.compile(schema);
  } catch (error) {
    reasons.set(String(error).slice(0, 60), (reasons.get(String(error).slice(0, 60)) ?? 0) + 1);
    return 'refused';
  }
}
const reasons = new Map<string, number>();

describe('Ajv and cfworker accept and refuse the same inputs', () => {
  it.each(FIXED)('for %s', (_name, schema, inputs) => {
    expect(disagreements(schema, inputs)).toEqual([]);
  });

  it('for a generated corpus: cfworker refuses the schema, or both give every input the same verdict', () => {
    const tally = { schemas: 0, refusedByCfworker: 0, refusedByBoth: 0, valid: 0, invalid: 0 };
    fc.assert(
      fc.property(rootArb, fc.array(inputArb, { minLength: 1, maxLength: 12 }), (schema, inputs) => {
        tally.schemas += 1;
        const byAjv = compileOn(ajv, schema);
        const byCfworker = compileOn(cfworker, schema);
        // Fail closed: whatever Ajv refuses, cfworker refuses too; what cfworker alone refuses is counted.
        if (byAjv === 'refused') expect(byCfworker).toBe('refused');
        if (byCfworker === 'refused') {
          tally[byAjv === 'refused' ? 'refusedByBoth' : 'refusedByCfworker'] += 1;
          return;
        }
        const rows = inputs
          .map((input) => ({
            input,
            ajv: (byAjv as CompiledValidator)(input).valid,
            cfworker: byCfworker(input).valid,
          }))
          .filter((row) => {
            tally[row.ajv ? 'valid' : 'invalid'] += 1;
            return row.ajv !== row.cfworker;
          });
        expect(rows).toEqual([]);
      }),
      { numRuns: Number(process.env.DIFF_RUNS ?? 800) },
    );
    console.log('differential corpus:', tally, reasons);
    // A corpus the schemas all refuse (or all take, or cfworker mostly refuses) would agree for nothing.
    const share = tally.valid / (tally.valid + tally.invalid);
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.9);
    // cfworker refuses uniqueItems under anyOf, oneOf, not, contains, …: the rest must be compared.
    expect(tally.refusedByCfworker + tally.refusedByBoth).toBeLessThan(tally.schemas * 0.45);
  });
});

/** Where the two truly differ: each one checked, so that the list stays true. */
describe('Ajv and cfworker differ only where listed', () => {
  it('an object without a prototype against const or enum: Ajv’s deep-equal compares constructors too', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(disagreements({ const: { a: 1 } }, [bare, { a: 1 }])).toEqual([
      { input: bare, ajv: false, cfworker: true },
    ]);
  });

  it('a schema that breaks the meta-schema: Ajv refuses it at compile, cfworker compiles it (and refuses what it cannot type)', () => {
    // The registry answers SCHEMA_ERROR for the first; the second refuses every input whose type it cannot name.
    const broken = { type: 'object', properties: { n: { type: 'strin' } } };
    expect(() => ajv.compile(broken)).toThrow(/must be equal to one of the allowed values/);
    expect(cfworker.compile(broken)({ n: 'x' }).valid).toBe(false);
  });

  it('a patternProperties key V8 could backtrack on: Ajv runs it on RE2, cfworker refuses it at register', () => {
    const schema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' } } };
    expect(ajv.compile(schema)({ aa: 'x' }).valid).toBe(false);
    expect(cfworker.findUnsupported?.(schema)).toContain('^(a+)+$');
  });
});
