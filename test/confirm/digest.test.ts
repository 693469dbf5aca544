import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, payloadDigest } from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('canonicalJson and payloadDigest', () => {
  it('sorts keys by UTF-16 code units at every level and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
    // RFC 8785's own ordering example: code units, not code points or locale order.
    expect(canonicalJson({ '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '1': 4, '\u0080': 5, '\u00f6': 6 })).toBe(
      '{"\\r":2,"1":4,"\u0080":5,"ö":6,"€":1,"😀":3}',
    );
  });

  it('writes numbers and strings as JSON.stringify does (the JCS forms)', () => {
    expect(canonicalJson([-0, 1e21, 1e-7, 0.1 + 0.2, 'a"\\\n\u0001'])).toBe(
      '[0,1e+21,1e-7,0.30000000000000004,"a\\"\\\\\\n\\u0001"]',
    );
  });

  it('is SHA-256 hex of the canonical text of { payload, tool }', () => {
    const text = canonicalJson({ to: 'ana@example.com', text: 'Hi' });
    expect(payloadDigest('mail.send', { text: 'Hi', to: 'ana@example.com' })).toBe(
      createHash('sha256').update(`{"payload":${text},"tool":"mail.send"}`, 'utf8').digest('hex'),
    );
  });

  it('gives the same digest whatever the key insertion order, at every level (property)', () => {
    // The same value rebuilt with each object's keys inserted in a shuffled order (a JSON round trip
    // would keep the order, so it proves nothing about sorting).
    const shuffled = (value: unknown, seeds: readonly number[], at = { i: 0 }): unknown => {
      const next = () => seeds[at.i++ % seeds.length] ?? 0;
      if (value === null || typeof value !== 'object') return value;
      if (Array.isArray(value)) return value.map((item) => shuffled(item, seeds, at));
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i > 0; i--) {
        const j = next() % (i + 1);
        [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
      }
      const copy: Record<string, unknown> = {};
      for (const key of keys)
        Object.defineProperty(copy, key, {
          value: shuffled((value as Record<string, unknown>)[key], seeds, at),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return copy;
    };
    const multiKey = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), {
      minKeys: 2,
      maxKeys: 12,
    });
    const seeds = fc.array(fc.nat(), { minLength: 1, maxLength: 32 });
    let reordered = 0;
    fc.assert(
      fc.property(fc.oneof(multiKey, fc.jsonValue()), seeds, (value, order) => {
        const again = shuffled(value, order);
        if (JSON.stringify(again) !== JSON.stringify(value)) reordered++;
        expect(again).toEqual(value);
        expect(payloadDigest('t.x', again)).toBe(payloadDigest('t.x', value));
        expect(canonicalJson(again)).toBe(canonicalJson(value));
        // (Compared through JSON, which writes -0 as 0, as the canonical form does.)
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
    // The property is only worth something if the shuffle really changed the order most of the time.
    expect(reordered).toBeGreaterThan(50);
  });

  it('changes the digest when one value deep inside changes, whatever the key order (property)', () => {
    const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), leaf, { minKeys: 1, maxKeys: 8 }),
        fc.nat(),
        leaf,
        (record, pick, replacement) => {
          const keys = Object.keys(record);
          const key = keys[pick % keys.length] as string;
          fc.pre(JSON.stringify(record[key]) !== JSON.stringify(replacement));
          const changed = { nested: { ...record, [key]: replacement } };
          const original = { nested: { ...record } };
          expect(payloadDigest('t.x', changed)).not.toBe(payloadDigest('t.x', original));
          // Reversing the key order of the changed copy must not bring the old digest back.
          const reversed = { nested: Object.fromEntries(Object.entries(changed.nested).reverse()) };
          expect(payloadDigest('t.x', reversed)).toBe(payloadDigest('t.x', changed));
          expect(payloadDigest('t.x', reversed)).not.toBe(payloadDigest('t.x', original));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells different payloads apart (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(payloadDigest('t.x', a)).not.toBe(payloadDigest('t.x', b));
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    [
      'a cycle',
      (() => {
        const a: unknown[] = [];
        a.push(a);
        return a;
      })(),
      /cycle/,
    ],
    ['a bigint', { n: 1n }, /bigint/],
    ['a function', { f: () => 1 }, /function/],
    ['a symbol', { s: Symbol('x') }, /symbol/],
    ['Infinity', { n: Number.POSITIVE_INFINITY }, /Infinity/],
    ['NaN', [Number.NaN], /NaN/],
    ['undefined at the top', undefined, /undefined/],
    ['an array hole', Object.assign(new Array(3), { 0: 1, 2: 3 }), /undefined/],
    ['a Date', { d: new Date(0) }, /Date/],
    ['a class instance', { u: new URL('https://example.com') }, /URL/],
  ])('refuses %s with a TypeError naming where', (_what, value, message) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => payloadDigest('t.x', value)).toThrow(message);
  });

  it('names the path of what it refuses', () => {
    expect(() => canonicalJson({ to: [{ when: new Date(0) }] })).toThrow('payload.to[0].when');
  });

  it('refuses nesting deeper than 256 levels instead of overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/deeper/);
  });

  it('sorts any number of keys as the default sort does, small objects and large (property)', () => {
    const reference = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
    };
    const key = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.constantFrom('0', '10', '9', 'a', 'B', '\u00e9', '\ud83d\ude00'),
    );
    const object = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 40 });
    fc.assert(
      fc.property(object, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });

  it('stays correct when a getter snapshots while a snapshot is being taken, and after a refusal', () => {
    const inner = { b: [1, { c: 2 }], a: 'x' };
    const outer = {
      get z() {
        expect(canonicalJson(inner)).toBe('{"a":"x","b":[1,{"c":2}]}');
        expect(() => canonicalJson({ deep: [{ when: new Date(0) }] })).toThrow('payload.deep[0].when');
        return [inner];
      },
      y: { k: 1 },
    };
    expect(canonicalJson(outer)).toBe('{"y":{"k":1},"z":[{"a":"x","b":[1,{"c":2}]}]}');
    expect(() => canonicalJson({ to: [{ when: new Date(0) }] })).toThrow('payload.to[0].when');
    // The refusal inside the getter must not disturb the outer copy's own record of where it is.
    const looped = {
      get self(): unknown {
        expect(() => canonicalJson({ when: new Date(0) })).toThrow(TypeError);
        return looped;
      },
    };
    expect(() => canonicalJson(looped)).toThrow(/cycle/);
    const twice = { a: 1 };
    expect(canonicalJson({ left: twice, right: [twice] })).toBe('{"left":{"a":1},"right":[{"a":1}]}');
  });

  it('writes every string, key or value, exactly as JSON.stringify does (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom(
        '"',
        '\\',
        '\u0000',
        '\u001f',
        '\u007f',
        '\u2028',
        '\ud800',
        '\udfff',
        'a\ud83d',
        '\ud83d\ude00',
      ),
    );
    fc.assert(
      fc.property(text, text, (key, value) => {
        expect(canonicalJson(value)).toBe(JSON.stringify(value));
        expect(canonicalJson({ [key]: value })).toBe(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
      }),
      { numRuns: 500 },
    );
  });

  it('treats an own "__proto__" key as data, not as a prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
