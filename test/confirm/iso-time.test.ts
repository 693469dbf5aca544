import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIso, toIso } from '../../src/confirm/iso-time.js';

describe('toIso and fromIso', () => {
  it('answer exactly what Date does, whatever order values come in (property)', () => {
    // Few distinct values, so the remembered answers are hit, missed and evicted in every order.
    const time = fc.constantFrom(0, 1, -1, 1.5, -0, 1_700_000_000_000, 1_700_000_000_001, 8.64e15, -8.64e15);
    fc.assert(
      fc.property(fc.array(time, { maxLength: 30 }), (times) => {
        for (const ms of times) {
          const iso = toIso(ms);
          expect(iso).toBe(new Date(ms).toISOString());
          expect(fromIso(iso)).toBe(Date.parse(iso));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('throws for a time no Date can hold, and remembers nothing for it', () => {
    toIso(0);
    for (const ms of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) {
      expect(() => toIso(ms)).toThrow(RangeError);
    }
    expect(toIso(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('parses what Date.parse parses, NaN included, alternating between values', () => {
    const texts = ['2030-01-01T00:00:00.000Z', 'not a time', '2030-01-01T00:00:00.001Z', ''];
    for (let round = 0; round < 3; round++) {
      for (const text of texts) expect(fromIso(text)).toBe(Date.parse(text));
    }
  });
});
