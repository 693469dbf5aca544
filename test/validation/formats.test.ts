import { Ajv2020 } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { createAjvValidator, createCfworkerValidator, type JsonSchemaValidator } from 'graded-tools';
import { beforeAll, describe, expect, it } from 'vitest';

// Every format the package enables (ajv-formats' table, on both validators) runs in time linear in the
// input: V8's backtracking regexes made `url` take ~2 s on a crafted 60 kB string, and `uri` grow
// quadratically. The rewrite must keep ajv-formats' language: checked against ajv-formats itself.
const ajv = createAjvValidator();
const cfworker = createCfworkerValidator();
beforeAll(async () => {
  await Promise.all([ajv.load?.(), cfworker.load?.()]);
});

/** A valid sample of each string format, to craft and to mutate from. */
const SAMPLES: Record<string, string> = {
  date: '2024-02-29',
  time: '12:00:00Z',
  'date-time': '2024-01-01T12:00:00.5+01:00',
  'iso-time': '12:00:00',
  'iso-date-time': '2024-01-01 12:00:00',
  duration: 'P1Y2M3DT4H5M6S',
  uri: 'https://user@example.com:8080/a/b?c=d#e',
  'uri-reference': '../a/b?c=%20#frag',
  'uri-template': 'https://example.com/{id}/x{?q,r}',
  url: 'https://www.example.com:8080/path?q=1',
  email: 'ann.lee+tag@mail.example.com',
  hostname: 'www.example-site.com',
  ipv4: '192.168.10.1',
  ipv6: '2001:db8::8a2e:370:7334',
  regex: '^[a-z]+(?:-[a-z]+)*$',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  'json-pointer': '/a/b~1c/0',
  'json-pointer-uri-fragment': '#/a/b%20c',
  'relative-json-pointer': '1/a/b',
  byte: 'QUJDRA==',
  password: 'hunter2',
  binary: 'x',
};
const FORMATS = Object.keys(SAMPLES);

/** Crafted text: long runs of the characters regexes tend to retry on, with and without a breaking tail. */
function crafted(sample: string, size: number): string[] {
  const runs = [
    'a',
    '.',
    '@',
    '-',
    '%',
    '/',
    ':',
    '0',
    '1.',
    'a.',
    'a-',
    'aa:',
    '%20',
    '::',
    '~0',
    '{a}',
    'A',
    ' ',
  ];
  const out: string[] = [];
  for (const run of runs)
    for (const prefix of ['', sample.slice(0, Math.ceil(sample.length / 2)), 'http://a.b/'])
      for (const tail of ['', '!'])
        out.push(prefix + run.repeat(Math.ceil((size - prefix.length) / run.length)) + tail);
  return out;
}

describe('every enabled format runs in linear time on both validators', () => {
  it.each([
    ['Ajv', () => ajv],
    ['cfworker', () => cfworker],
  ] as [string, () => JsonSchemaValidator][])(
    'on %s: 50 kB of crafted text in milliseconds',
    (_name, validator) => {
      const slowest = { ms: 0, format: '', input: '' };
      for (const format of FORMATS) {
        const check = validator().compile({ type: 'string', format });
        for (const input of crafted(SAMPLES[format] ?? '', 50_000)) {
          let started = performance.now();
          check(input);
          if (performance.now() - started < slowest.ms) continue;
          // A slow one is timed twice more (the median counts), so that a pause of the machine is not it.
          const times = [performance.now() - started];
          for (let again = 0; again < 2; again += 1) {
            started = performance.now();
            check(input);
            times.push(performance.now() - started);
          }
          const ms = times.sort((a, b) => a - b)[1] ?? 0;
          if (ms > slowest.ms) Object.assign(slowest, { ms, format, input: input.slice(0, 24) });
        }
      }
      // V8's backtracking took seconds here (url: ~2 s at 60 kB); RE2 takes a millisecond or two.
      expect(slowest.ms, JSON.stringify(slowest)).toBeLessThan(250);
    },
  );
});

describe('the linear formats keep ajv-formats’ language', () => {
  // ajv-formats' own table, as its plugin adds it.
  const original = new Ajv2020({ strict: false, logger: false });
  for (const [name, format] of Object.entries(fullFormats)) original.addFormat(name, format);

  /** Strings near a format's samples: each sample with a few random edits from a URL-ish alphabet. */
  const nearSample = (format: string) =>
    fc
      .tuple(
        fc.constantFrom(SAMPLES[format] ?? '', ...Object.values(SAMPLES)),
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.constantFrom('insert', 'delete', 'replace'),
            fc.constantFrom(...'aZ09.-_:/?#[]@!$&\'()*+,;=%~ {}"<>\\^`|\nTPWYMDHSzé'.split('')),
          ),
          { maxLength: 3 },
        ),
      )
      .map(([text, edits]) =>
        edits.reduce((out, [at, edit, char]) => {
          const i = out.length === 0 ? 0 : at % out.length;
          if (edit === 'insert') return out.slice(0, i) + char + out.slice(i);
          if (edit === 'delete') return out.slice(0, i) + out.slice(i + 1);
          return out.slice(0, i) + char + out.slice(i + 1);
        }, text),
      );

  // `byte` is checked on the whole string: ajv-formats' `m` flag let any one line of base64 pass.
  it.each(FORMATS.filter((format) => format !== 'byte'))('%s', (format) => {
    const schema = { type: 'string', format };
    const reference = original.compile(schema);
    const [byAjv, byCfworker] = [ajv.compile(schema), cfworker.compile(schema)];
    fc.assert(
      fc.property(nearSample(format), (text) => {
        const expected = reference(text);
        expect([byAjv(text).valid, byCfworker(text).valid]).toEqual([expected, expected]);
      }),
      { numRuns: 300 },
    );
  });

  it('url: private IPv4 hosts refused as ajv-formats refuses them, and only those', () => {
    const reference = original.compile({ type: 'string', format: 'url' });
    const byAjv = ajv.compile({ type: 'string', format: 'url' });
    const octet = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(10, 127, 169, 172, 192, 254, 168, 16, 31, 32, 15),
    );
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), fc.constantFrom('', ':8080', '/x'), (parts, tail) => {
        const text = `http://${parts.join('.')}${tail}`;
        expect(byAjv(text).valid).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('byte: base64 over the whole string', () => {
    const check = ajv.compile({ type: 'string', format: 'byte' });
    const onWorkers = cfworker.compile({ type: 'string', format: 'byte' });
    for (const [text, valid] of [
      ['QUJDRA==', true],
      ['', true],
      ['QUJD\n!!!', false],
      ['!!!\n', false],
      ['QUI', false],
    ] as const) {
      expect([check(text).valid, onWorkers(text).valid], text).toEqual([valid, valid]);
    }
  });
});
