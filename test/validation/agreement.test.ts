import { createAjvValidator, createCfworkerValidator, ToolDefinitionError, ToolRegistry } from 'graded-tools';
import { beforeAll, describe, expect, it } from 'vitest';

// The holes a review found where the Workers validator (cfworker) and the default (Ajv) read the same
// schema differently. Each is closed one of two ways: both now give the same verdict, or the validator
// that cannot check a keyword refuses the schema at `register` (fail closed).
const ajv = createAjvValidator();
const cfworker = createCfworkerValidator();
beforeAll(async () => {
  await Promise.all([ajv.load?.(), cfworker.load?.()]);
});

function verdicts(schema: Record<string, unknown>, inputs: readonly unknown[]) {
  const [byAjv, byCfworker] = [ajv.compile(schema), cfworker.compile(schema)];
  return inputs.map((input) => [byAjv(input).valid, byCfworker(input).valid]);
}

/** What `register` does with a tool whose input has `schema` as its one property, on each validator. */
function registration(schema: Record<string, unknown>) {
  const inputSchema = { type: 'object', properties: { value: schema } };
  const attempt = (validator: ReturnType<typeof createAjvValidator>) => {
    try {
      new ToolRegistry({ validator }).register({
        name: 'kb.tag',
        description: 'Tag.',
        sideEffect: 'read',
        inputSchema,
        run: () => 'ok',
      });
      return 'registered';
    } catch (error) {
      return error instanceof ToolDefinitionError ? error.code : String(error);
    }
  };
  return { ajv: attempt(createAjvValidator()), cfworker: attempt(createCfworkerValidator()) };
}

describe('number formats', () => {
  it('int32 refuses 2^31 and fractions on both', () => {
    expect(
      verdicts({ type: 'number', format: 'int32' }, [2 ** 31, -(2 ** 31) - 1, 1.5, 3, -(2 ** 31)]),
    ).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [true, true],
      [true, true],
    ]);
  });

  it('int64 refuses fractions; float and double take any number; none of them reads a string', () => {
    expect(verdicts({ format: 'int64' }, [1.5, 2 ** 60, 'x'])).toEqual([
      [false, false],
      [true, true],
      [true, true],
    ]);
    expect(verdicts({ format: 'float' }, [1.5, 'x'])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(verdicts({ format: 'double' }, [1e308])).toEqual([[true, true]]);
  });
});

describe('multipleOf', () => {
  it('reads decimals as written: 0.07 and 4.35 are multiples of 0.01, 0.075 is not', () => {
    expect(verdicts({ type: 'number', multipleOf: 0.01 }, [0.07, 4.35, 1.1, 0.075, 19.99])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [false, false],
      [true, true],
    ]);
  });

  it('agrees from 1e21 up', () => {
    expect(verdicts({ type: 'number', multipleOf: 1 }, [1e21, 3e21, 1e20])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });
});

describe('nullable (OpenAPI 3.0)', () => {
  it('adds null to the type on both', () => {
    expect(verdicts({ type: 'string', nullable: true }, [null, 'a', 1])).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(verdicts({ type: ['integer'], nullable: true, minimum: 2 }, [null, 1, 2])).toEqual([
      [true, true],
      [false, false],
      [true, true],
    ]);
    expect(verdicts({ type: 'string', nullable: false }, [null, 'a'])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it('without a type, or against a null type, is refused by both at compile', () => {
    expect(() => ajv.compile({ nullable: true })).toThrow(/nullable/);
    expect(() => cfworker.compile({ nullable: true })).toThrow(/nullable/);
    expect(() => ajv.compile({ type: 'null', nullable: false })).toThrow(/nullable/);
    expect(() => cfworker.compile({ type: 'null', nullable: false })).toThrow(/nullable/);
  });
});

describe('keywords one validator cannot check are refused at register', () => {
  it('$dynamicRef (a recursive tree): Ajv checks it, cfworker refuses the tool', async () => {
    const tree = {
      $id: 'https://example.com/tree',
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { v: { type: 'number' }, kids: { type: 'array', items: { $dynamicRef: '#node' } } },
    };
    expect(registration(tree)).toEqual({ ajv: 'registered', cfworker: 'UNSUPPORTED_SCHEMA' });
    expect(ajv.compile(tree)({ v: 1, kids: [{ v: 'x' }] }).valid).toBe(false);
    expect(() => cfworker.compile(tree)).toThrow(/\$dynamic(Ref|Anchor)/);
  });

  it('$recursiveRef (draft 2019-09): Ajv 2020 ignores it, so both refuse', () => {
    const tree = {
      $recursiveAnchor: true,
      type: 'object',
      properties: { kids: { type: 'array', items: { $recursiveRef: '#' } } },
    };
    expect(registration(tree)).toEqual({ ajv: 'UNSUPPORTED_SCHEMA', cfworker: 'UNSUPPORTED_SCHEMA' });
  });

  it('unevaluatedItems beside contains: Ajv does not count what contains matched, so both refuse', () => {
    const schema = { type: 'array', contains: { type: 'string' }, unevaluatedItems: false };
    expect(registration(schema)).toEqual({ ajv: 'UNSUPPORTED_SCHEMA', cfworker: 'UNSUPPORTED_SCHEMA' });
    // Apart, each is read alike.
    expect(
      verdicts({ type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false }, [
        ['a'],
        ['a', 1],
      ]),
    ).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  it('formatMinimum and its kin (ajv-formats): cfworker refuses them', () => {
    const schema = { type: 'string', format: 'date', formatMinimum: '2020-01-01' };
    expect(registration(schema)).toEqual({ ajv: 'registered', cfworker: 'UNSUPPORTED_SCHEMA' });
  });
});
