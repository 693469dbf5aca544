import { describe, expect, it } from 'vitest';
import { holdsPhrase, keyOf, keysIn, MAX_SCANNED_CHARS } from '../../src/runs/identifiers.js';

// Issue 31: the keys a value or a text stands for, read as their consumers read them.

function keys(text: string): string[] {
  const found = new Set<string>();
  keysIn(text, (key) => found.add(key));
  return [...found];
}

describe('keyOf', () => {
  it('keys a URL by the WHATWG host of the exact string, and never one whose folded form names another', () => {
    expect(keyOf('https://trusted.example/news')).toBe('h:trusted.example');
    expect(keyOf('https://www.Trusted.example:8443/a')).toBe('h:trusted.example');
    expect(keyOf('www.trusted.example')).toBe('h:trusted.example');
    for (const c of ['／', '＃', '？', '＼'])
      expect(keyOf(`https://trusted.example${c}@evil.test/?q=s,1`), c).toBeUndefined();
    expect(keyOf('ｈｔｔｐｓ://evil.test/')).toBeUndefined();
    // The host parser's own IDNA mapping is what fetch does too.
    expect(keyOf('https://ｅｘａｍｐｌｅ.com/')).toBe('h:example.com');
    expect(keyOf('https://a.test,b.test/')).toBe('h:a.test,b.test');
  });

  it('keys an address by its local part as written (ASCII case aside) and its domain by IDNA', () => {
    expect(keyOf("O'Brien@Corp.Example")).toBe("e:o'brien@corp.example");
    expect(keyOf('sales&ops@corp.example')).toBe('e:sales&ops@corp.example');
    expect(keyOf('𝐚𝐧𝐚@example.com')).toBe('e:𝐚𝐧𝐚@example.com');
    expect(keyOf('ａｎａ@example.com')).toBe('e:ａｎａ@example.com');
    expect(keyOf('ana@ｅｘａｍｐｌｅ.com')).toBe('e:ana@example.com');
    expect(keyOf('ana@bücher.example')).toBe('e:ana@xn--bcher-kva.example');
    // An ASCII domain is sent as written, even where IDNA would refuse it (`xn--ab` is no punycode).
    expect(keyOf('Ab@XN--AB.com')).toBe('e:ab@xn--ab.com');
    // A mailbox with a display name is delivered to its address alone; the name is never routed.
    expect(keyOf('Ana Smith <Ana@Example.com>')).toBe('e:ana@example.com');
    expect(keyOf('"Lopez, Ana" <ana@example.com>')).toBe('e:ana@example.com');
    expect(keyOf('ana@example.com <evil@attacker.test>')).not.toMatch(/^e:/);
    expect(keyOf('Ana <ana@example.com>, Bob <bob@example.com>')).not.toMatch(/^e:/);
    // Reads as an address once folded, is none as written: never judged as one.
    expect(keyOf('ana\u200b@example.com')).toBeUndefined();
    expect(keyOf('ana＠example.com')).toBeUndefined();
    expect(keyOf('a..b@example.com')).toBeUndefined();
    expect(keyOf(`${'a'.repeat(65)}@example.com`)).toBeUndefined();
  });

  it('keys IBANs without spaces, hosts, and other values as folded text', () => {
    expect(keyOf('DE89 3704 0044 0532 0130 00')).toBe('i:de89370400440532013000');
    expect(keyOf('Shop.Example')).toBe('h:shop.example');
    expect(keyOf('Ana  Smith')).toBe('v:ana smith');
    expect(keyOf('   ')).toBeUndefined();
  });
});

describe('keysIn', () => {
  it('finds each identifier whole, and nothing for a part of one', () => {
    expect(keys("Write to o'brien@corp.example, sales&ops@corp.example and 'li@x.org'.")).toEqual(
      expect.arrayContaining(["e:o'brien@corp.example", 'e:sales&ops@corp.example', 'e:li@x.org']),
    );
    const found = keys("Write to o'brien@corp.example and sales&ops@corp.example");
    for (const part of ['e:brien@corp.example', 'e:ops@corp.example', 'v:brien', 'v:corp.example', 'v:sales'])
      expect(found).not.toContain(part);
    // No address in a run with two `@`, or one cut by a character no address holds next to its domain.
    expect(keys('a@b@c.example x@y.example/path').filter((k) => k.startsWith('e:'))).toEqual([]);
  });

  it('keys URLs by the exact host, never after folding', () => {
    expect(keys('See https://trusted.example／@evil.test/?q=s,1 now')).not.toContain('h:trusted.example');
    expect(keys('See https://trusted.example／@evil.test/?q=s,1 now')).not.toContain('h:evil.test');
    expect(keys('Links: <https://a.test/x>, [doc](https://b.test/y). (https://c.test)')).toEqual(
      expect.arrayContaining(['h:a.test', 'h:b.test', 'h:c.test']),
    );
    expect(keys("{'url': 'https://d.test/x', 'site': `www.e.test`}")).toEqual(
      expect.arrayContaining(['h:d.test', 'h:e.test']),
    );
    const labels = keys('Read https://trusted.example/news/today please');
    expect(labels).toContain('h:trusted.example');
    for (const word of ['v:news', 'v:today', 'v:https', 'v:trusted.example'])
      expect(labels).not.toContain(word);
  });

  it('never vouches a truncated host; a sentence glued to a host only where the list allows', () => {
    const found = keys('Read https://www.bbc.co.uk/news, portal.myshop.com.au and https://api.partner.co.uk');
    expect(found).toEqual(
      expect.arrayContaining(['h:bbc.co.uk', 'h:portal.myshop.com.au', 'h:api.partner.co.uk']),
    );
    for (const cut of ['h:bbc.co', 'h:portal.myshop.com', 'h:api.partner.co', 'h:co.uk'])
      expect(found).not.toContain(cut);
    expect(keys('Read www.our-company.com.They said so')).toContain('h:our-company.com');
    // `then` is unlisted but `shop.example` has no listed suffix either; `.Is` is a listed suffix.
    expect(keys('Read www.shop.example.Then go')).not.toContain('h:shop.example');
    expect(keys('Read example.com.Is it')).not.toContain('h:example.com');
    expect(keys('Read www.our-company.com.they said so')).not.toContain('h:our-company.com');
  });

  it('keys an IBAN whole, compact or in groups, and never its groups as words', () => {
    const found = keys('Pay DE89 3704 0044 0532 0130 00 and (GB33BUKB20201555555555).');
    expect(found).toEqual(expect.arrayContaining(['i:de89370400440532013000', 'i:gb33bukb20201555555555']));
    for (const group of ['v:de89', 'v:3704', 'v:0044', 'v:00', 'v:gb33bukb20201555555555'])
      expect(found).not.toContain(group);
    // Groups past the longest IBAN make none, and stay words.
    const long = keys('DE89 3704 0044 0532 0130 0000 1111 2222 3333');
    expect(long.some((k) => k.startsWith('i:'))).toBe(false);
    expect(long).toContain('v:3704');
  });

  it('keeps words of plain text as keys for one-word values', () => {
    expect(keys('Ask Bob, then bob_smith; and @bob')).toEqual(
      expect.arrayContaining(['v:ask', 'v:bob', 'v:then', 'v:bob_smith', 'v:@bob']),
    );
  });

  it('reads a long text up to a token boundary before the limit, never a token cut in two', () => {
    const text = `${'x '.repeat(MAX_SCANNED_CHARS / 2 - 5)}ana@example.com.evil.test`;
    expect(text.length).toBeGreaterThan(MAX_SCANNED_CHARS);
    const found = keys(text);
    expect(found.filter((k) => k.startsWith('e:'))).toEqual([]);
    // A string without whitespace (JSON) is cut at a quote; an IBAN in groups is not cut between them.
    const json = JSON.stringify(Array.from({ length: 6_000 }, () => ({ to: 'ana@example.com' })));
    expect(json.length).toBeGreaterThan(MAX_SCANNED_CHARS);
    expect(keys(json)).toEqual(['v:to', 'e:ana@example.com']);
    const iban = 'DE89 3704 0044 0532 0130 00';
    const padding = ' '.repeat(MAX_SCANNED_CHARS - iban.indexOf(' 00'));
    expect(padding.length + iban.indexOf(' 00')).toBe(MAX_SCANNED_CHARS);
    expect(keys(`${padding}${iban} and more text`).filter((k) => k.startsWith('i:'))).toEqual([]);
  });
});

describe('holdsPhrase', () => {
  it('finds a phrase as whole words only', () => {
    expect(holdsPhrase('pay ana smith now', 'v:ana smith')).toBe(true);
    expect(holdsPhrase('pay hana smithers now', 'v:ana smith')).toBe(false);
    expect(holdsPhrase('ana smith', 'v:ana smith')).toBe(true);
  });

  it('never inside an identifier: groups of an IBAN, words of a URL', () => {
    const text =
      'pay de89 3704 0044 0532 0130 00 now, read https://x.test/news today, or ana@x.test ana smith';
    expect(holdsPhrase(text, 'v:3704 0044')).toBe(false);
    expect(holdsPhrase(text, 'v:0130 00 now')).toBe(false);
    expect(holdsPhrase(text, 'v:news today')).toBe(false);
    expect(holdsPhrase(text, 'v:ana smith')).toBe(true);
    expect(holdsPhrase(text, 'v:pay de89')).toBe(false);
    expect(holdsPhrase('the 3704 0044 code', 'v:3704 0044')).toBe(true);
  });
});
