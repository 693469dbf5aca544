import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { quotingFastPath, writeCanonical } from '../../src/util/canonical-json.js';

afterEach(() => {
  quotingFastPath.enabled = true;
});

/** Any UTF-16 text, lone surrogates, controls, quotes and backslashes included. */
const text = fc.string({ unit: 'binary', maxLength: 24 });
const plain = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', '"', '\\', '\n', '\u0001', '\ud800', 'é'),
  maxLength: 12,
});

describe('canonical JSON: the quoting fast path agrees with JSON.stringify', () => {
  it('writes every string as JSON.stringify does, with the fast path on and off (property)', () => {
    fc.assert(
      fc.property(fc.oneof(text, plain), (value) => {
        const fast = writeCanonical(value);
        quotingFastPath.enabled = false;
        const slow = writeCanonical(value);
        quotingFastPath.enabled = true;
        expect(fast).toBe(JSON.stringify(value));
        expect(slow).toBe(fast);
      }),
      { numRuns: 500 },
    );
  });

  it('writes the same canonical text for any keys and values either way (property)', () => {
    const value = fc.dictionary(fc.oneof(text, plain), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
    fc.assert(
      fc.property(value, (record) => {
        const fast = writeCanonical(record);
        quotingFastPath.enabled = false;
        expect(writeCanonical(record)).toBe(fast);
        quotingFastPath.enabled = true;
        expect(JSON.parse(fast)).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 300 },
    );
  });
});
