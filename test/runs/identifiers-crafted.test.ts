import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressIn } from '../../src/runs/email-address.js';
import { keyOf, keysIn, MAX_SCANNED_CHARS } from '../../src/runs/identifiers.js';

// Issue 31: what crafted text (long runs of `.`, `@`, `-`, `www.`, letters, hex before an address)
// yields — the right keys and a bounded output, never a part of an identifier. The time it takes is
// the benchmark's (`bench/identifiers.ts`), not this test's.

const MB = 1_000_000;
/** `unit` repeated as often as it fits whole in `length` characters. */
const repeat = (unit: string, length: number) => unit.repeat(Math.max(1, Math.floor(length / unit.length)));
const hex = repeat('0123456789abcdef', 20_000);

/** Every key of 1 MB made by `make`, read as keysIn reads it: strings of at most MAX_SCANNED_CHARS. */
function keysOfMegabyte(make: (length: number) => string): Set<string> {
  const found = new Set<string>();
  for (let left = MB; left > 0; left -= MAX_SCANNED_CHARS)
    keysIn(make(Math.min(left, MAX_SCANNED_CHARS)), (key) => found.add(key));
  return found;
}

describe('crafted 1 MB inputs', () => {
  it('runs of one character, `www.`, `a.a.a.` and `a@…@` hold no identifier and no huge word', () => {
    for (const make of [
      (n: number) => '.'.repeat(n),
      (n: number) => '@'.repeat(n),
      (n: number) => '-'.repeat(n),
      (n: number) => repeat('www.', n),
      (n: number) => 'a'.repeat(n),
      (n: number) => repeat('a.', n),
      (n: number) => `a@${'.'.repeat(n - 3)}@`,
      (n: number) => repeat('-.', n),
      (n: number) => `https://${'a.'.repeat((n - 8) >> 1)}`,
    ])
      expect([...keysOfMegabyte(make)]).toEqual([]);
  });

  it('an address after 20 kB of hex is found, the hex is no key', () => {
    expect([...keysOfMegabyte((n) => repeat(`${hex} ana@example.com `, n))]).toEqual(['e:ana@example.com']);
    // Glued to the hex, the address is the tail of a longer run: no address at all.
    expect([...keysOfMegabyte((n) => repeat(`${hex}ana@example.com `, n))]).toEqual([]);
  });

  it('prose yields its identifiers and words, a bounded set', () => {
    const prose =
      'Please send the contract to ana.lopez@example.com; the invoice is on https://portal.example.org/i/3 ' +
      'and the payment goes to DE89 3704 0044 0532 0130 00 before Friday, see www.notes.example. ';
    const found = keysOfMegabyte((n) => repeat(prose, n));
    expect([...found]).toEqual(
      expect.arrayContaining([
        'e:ana.lopez@example.com',
        'h:portal.example.org',
        'i:de89370400440532013000',
        'h:notes.example',
        'v:contract',
      ]),
    );
    expect(found.size).toBeLessThan(40);
    for (const key of found) expect(key.length).toBeLessThanOrEqual(258);
  });

  it('many short addresses are each found once', () => {
    const found = keysOfMegabyte((n) => repeat('a@a.aa b@b.bb. ', n));
    expect([...found].sort()).toEqual(['e:a@a.aa', 'e:b@b.bb']);
  });
});

describe('as properties', () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}[a-z0-9]$/);
  const delimiter = fc.constantFrom(
    '/',
    '／',
    '@',
    '＠',
    '#',
    '＃',
    '?',
    '？',
    '\\',
    '＼',
    '.',
    ':',
    '。',
    '',
    '%40',
  );
  const urlish = fc
    .tuple(
      fc.constantFrom('https://', 'http://', 'https://www.', 'www.'),
      fc.array(fc.tuple(label, delimiter), { maxLength: 4 }),
      label,
    )
    .map(([scheme, parts, last]) => `${scheme}${parts.map(([l, d]) => l + d).join('')}${last}.test`);

  function whatwgHost(url: string): string | undefined {
    try {
      const host = new URL(url.startsWith('www.') ? `https://${url}` : url).hostname;
      return host.startsWith('www.') && host.indexOf('.', 4) !== -1 ? host.slice(4) : host;
    } catch {
      return undefined;
    }
  }

  it('a host key is always the WHATWG host of the exact string', () => {
    fc.assert(
      fc.property(urlish, (url) => {
        const key = keyOf(url);
        if (key?.startsWith('h:')) expect(key).toBe(`h:${whatwgHost(url)}`);
        const found: string[] = [];
        keysIn(`Read ${url} now`, (k) => found.push(k));
        for (const k of found.filter((k) => k.startsWith('h:'))) expect(k).toBe(`h:${whatwgHost(url)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('no key is ever produced for a proper part of an email address', () => {
    const atext = fc.constantFrom(..."abcxyz019!#$%&'*+-/=?^_`{|}~".split(''));
    const atom = fc.array(atext, { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
    const local = fc.array(atom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.'));
    const domain = fc.tuple(label, fc.constantFrom('com', 'example', 'co.uk')).map(([a, b]) => `${a}.${b}`);
    fc.assert(
      fc.property(local, domain, fc.nat(), (l, d, cut) => {
        const address = `${l}@${d}`;
        const found = new Set<string>();
        keysIn(`Write to ${address} today`, (k) => found.add(k));
        const whole = keyOf(address);
        if (whole !== undefined) expect(found.has(whole)).toBe(true);
        for (const key of found) {
          if (!key.startsWith('e:')) {
            expect(key.startsWith('h:') || key.startsWith('i:') ? key : 'ok').toBe('ok');
            continue;
          }
          expect(key).toBe(whole);
        }
        const tail = l.slice(1 + (cut % l.length));
        if (tail !== '')
          expect(found.has(`e:${tail.toLowerCase()}@${d}`)).toBe(tail.toLowerCase() === l.toLowerCase());
      }),
      { numRuns: 500 },
    );
  });

  it('the dot-atom fast path reads every candidate as the RFC 5322 parser does', () => {
    const char = fc.constantFrom(..."aZ09.!#$%&'*+-/=?^_`{|}~éü名𝐚".split(/(?:)/u));
    const candidate = fc.tuple(
      fc.array(char, { minLength: 1, maxLength: 12 }),
      fc.constantFrom('x.com', 'bücher.example', 'a-b.co.uk', 'x', '-x.com'),
    );
    fc.assert(
      fc.property(candidate, ([chars, domain]) => {
        const text = `${chars.join('')}@${domain}`;
        const run = { start: 0, at: text.indexOf('@', chars.join('').length), end: text.length };
        const fast = addressIn(text, run, { inText: false, check: 'dot-atom' });
        expect(fast).toBe(addressIn(text, run, { inText: false, check: 'rfc5322' }));
      }),
      { numRuns: 1_000 },
    );
  });
});
