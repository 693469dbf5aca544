import type { ValueKeys } from '../origins/origins-in-run.js';
import { codePointAt, isDomainChar, isLetter, isSpace, isWordChar, widthOf } from './char-class.js';
import { addressIn, addressOfValue } from './email-address.js';
import { isIban } from './iban.js';
import { scanTokens } from './scan-tokens.js';
import { hostBeforeSentence, hostOfName, hostOfUrl, startsUrl } from './url-host.js';

/**
 * Identifiers matched as their consumers read them, never by fuzzy text: an email as the mail system
 * delivers it (`email-address.ts`), a URL by the host `fetch` goes to (`url-host.ts`), an IBAN without
 * spaces and case (`iban.ts`), anything else as a whole value or whole words. Each value becomes a key
 * (`e:`, `h:`, `i:`, `v:`); two values are the same destination when their keys are equal. A part of
 * an identifier (a group of an IBAN, the tail of an address, a label of a URL) is no key of its own.
 */

/**
 * The longest text read for identifiers, per string: longer strings are read up to the last character
 * before it that ends every token (whitespace, `"`, `<`, `>`), so no identifier is cut in two.
 */
export const MAX_SCANNED_CHARS = 100_000;

/** The longest text that is also remembered as one whole value (a name, an id, an address). */
const MAX_VALUE_CHARS = 256;

/**
 * A value's key: how it is compared with every other place it could appear. `undefined` when the
 * value cannot be judged: empty, or it reads as an address, URL, host or IBAN once Unicode-folded but
 * is not that one as written (`ａｎａ＠example.com`, `https://a.example／@b.test`).
 */
export function keyOf(value: string): string | undefined {
  const raw = value.trim();
  const text = plain(raw);
  if (text === '') return undefined;
  const address = addressOfValue(raw);
  if (address !== undefined) return `e:${address}`;
  if (looksLikeAddress(text)) return undefined;
  if (startsUrl(text, 0)) {
    const host = startsUrl(raw, 0) ? hostOfUrl(raw) : undefined;
    return host === undefined ? undefined : `h:${host}`;
  }
  const compact = text.replaceAll(' ', '');
  if (isIban(compact)) return isIban(raw.replace(/\s/gu, '')) ? `i:${compact}` : undefined;
  if (isHostName(text, 0, text.length)) {
    const host = isHostName(raw, 0, raw.length) ? hostOfName(raw) : undefined;
    return host === undefined ? undefined : `h:${host}`;
  }
  return `v:${text}`;
}

/**
 * Every key a text holds: each email, URL host, bare host and IBAN in it, the whole text as one value,
 * and each word outside those. `add` is called once per key found (it may repeat). Linear in the
 * text's length whatever it holds.
 */
export function keysIn(source: string, add: (key: string) => void): void {
  const text = source.length > MAX_SCANNED_CHARS ? cutAtBoundary(source) : source;
  if (text.length <= MAX_VALUE_CHARS) {
    const whole = keyOf(text);
    if (whole !== undefined) add(whole);
  }
  scanTokens(text, {
    url: (start, end) => addUrl(text.slice(start, end), add),
    atoms: (start, end, at, hasDot) => addAtoms(text, { start, end, at, hasDot }, add),
    groupedIban: (compact) => add(`i:${compact.toLowerCase()}`),
  });
}

/**
 * The text as values are compared: Unicode-normalised (NFKC), lower-cased, whitespace collapsed, and
 * without invisible format characters (a zero-width space must not make a second value). Identifiers
 * are not compared this way: `keyOf` reads them as written.
 */
export function plain(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}

/** True when `key` is a value of several words, found only as words in order inside a text. */
export function isPhrase(key: string): boolean {
  return key.startsWith('v:') && key.includes(' ');
}

/**
 * True when the phrase (`v:` key of several words) stands in `text` (already `plain`) as whole words,
 * outside any identifier: two groups of an IBAN (`3704 0044`) are no phrase of the text.
 */
export function holdsPhrase(text: string, key: string): boolean {
  const phrase = key.slice(2);
  let from = text.indexOf(phrase);
  while (from !== -1) {
    const before = from >= 2 && isLowSurrogate(text.charCodeAt(from - 1)) ? from - 2 : from - 1;
    const after = from + phrase.length;
    const isStart = before < 0 || !isWordChar(codePointAt(text, before));
    const isEnd = after >= text.length || !isWordChar(codePointAt(text, after));
    if (isStart && isEnd && !touchesIdentifier(text, from, after)) return true;
    from = text.indexOf(phrase, from + 1);
  }
  return false;
}

/** The most short chunks around a phrase read with it: the groups of the longest IBAN. */
const MAX_GROUP_CHUNKS = 9;

/**
 * True when `text[start, end)` overlaps an identifier, read in the chunks around it (and the short
 * chunks beside those, where an IBAN printed in groups may begin or end). Each chunk is read once
 * per phrase found in it, and a phrase (it holds a space) starts in a chunk at one place at most.
 */
function touchesIdentifier(text: string, start: number, end: number): boolean {
  const from = windowStart(text, start);
  const to = windowEnd(text, end);
  let touches = false;
  const mark = (a: number, b: number) => {
    if (from + a < end && from + b > start) touches = true;
  };
  const window = text.slice(from, to);
  scanTokens(window, {
    url: mark,
    atoms: (a, b, at, hasDot) =>
      addAtoms(window, { start: a, end: b, at, hasDot }, (key) => {
        if (!key.startsWith('v:')) mark(a, b);
      }),
    groupedIban: (_compact, a, b) => mark(a, b),
  });
  return touches;
}

/** The start of the chunk holding `start`, and of up to MAX_GROUP_CHUNKS short chunks before it. */
function windowStart(text: string, start: number): number {
  let edge = chunkStart(text, start, text.length);
  for (let n = 0; n < MAX_GROUP_CHUNKS && text.charCodeAt(edge - 1) === 32; n++) {
    const previous = chunkStart(text, edge - 1, 6);
    const length = edge - 1 - previous;
    if (length === 0 || length > 5) break;
    edge = previous;
  }
  return edge;
}

/** The end of the chunk holding `end - 1`, and of up to MAX_GROUP_CHUNKS short chunks after it. */
function windowEnd(text: string, end: number): number {
  let edge = chunkEnd(text, end, text.length);
  for (let n = 0; n < MAX_GROUP_CHUNKS && text.charCodeAt(edge) === 32; n++) {
    const next = chunkEnd(text, edge + 1, 6);
    const length = next - edge - 1;
    if (length === 0 || length > 5) break;
    edge = next;
  }
  return edge;
}

/** Back from `i` to the start of its chunk, at most `limit` characters. */
function chunkStart(text: string, i: number, limit: number): number {
  const stop = Math.max(0, i - limit);
  while (i > stop && !isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

/** On from `i` to the end of its chunk, at most `limit` characters. */
function chunkEnd(text: string, i: number, limit: number): number {
  const stop = Math.min(text.length, i + limit);
  while (i < stop && !isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The words a person reads for a key: the host, the email, the IBAN or the value itself. */
export function keyText(key: string): string {
  return key.slice(2);
}

/** The keying that runs remember values by, as origins judge a call's destinations with it. */
export const VALUE_KEYS: ValueKeys = Object.freeze({ keyOf, keyText });

function addUrl(token: string, add: (key: string) => void): void {
  const host = hostOfUrl(token);
  if (host === undefined) return;
  add(`h:${host}`);
  // A bare `www.` host glued to the next sentence (`www.shop.com.They`); never a URL with a scheme.
  if (!/^www\./iu.test(token) || !isHostName(token, 0, token.length)) return;
  const before = hostBeforeSentence(token);
  if (before !== undefined) add(`h:${before}`);
}

function addAtoms(
  text: string,
  run: { readonly start: number; readonly end: number; readonly at: number; readonly hasDot: boolean },
  add: (key: string) => void,
): void {
  const { start, end, at } = run;
  if (at >= 0) {
    const address = addressIn(text, { start, at, end }, { inText: true, check: 'dot-atom' });
    if (address !== undefined) {
      add(`e:${address}`);
      return;
    }
  } else if (at === -1 && run.hasDot && addBareHost(text, start, end, add)) return;
  addWords(text, start, end, add);
}

/**
 * A host written bare (`shop.example`, `shop.example/path`, `shop.example.`), read as `https://` and
 * the host name; true when the run is one (its labels then are no words).
 */
function addBareHost(text: string, start: number, end: number, add: (key: string) => void): boolean {
  let from = start;
  while (from < end && (text[from] === "'" || text[from] === '`')) from++;
  let to = from;
  while (to < end) {
    const cp = codePointAt(text, to);
    if (!isDomainChar(cp)) break;
    to += widthOf(cp);
  }
  while (to > from && text.charCodeAt(to - 1) === 0x2e) to--;
  if (!isHostName(text, from, to)) return false;
  const isWhole = isTrailingPunctuation(text, to, end);
  if (!isWhole && !'/?#'.includes(text[to] ?? '')) return false;
  const name = text.slice(from, to);
  const host = hostOfName(name);
  if (host !== undefined) add(`h:${host}`);
  const before = host !== undefined && isWhole ? hostBeforeSentence(name) : undefined;
  if (before !== undefined) add(`h:${before}`);
  return true;
}

function isTrailingPunctuation(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (!".!?'`".includes(text[i] ?? '')) return false;
  return true;
}

/**
 * True when `text[start, end)` has the shape of a host name: labels of letters, digits and `-` (any
 * script) joined by single dots, the last of two letters or more.
 */
function isHostName(text: string, start: number, end: number): boolean {
  if (end - start < 4) return false;
  let label = 0;
  let letters = 0;
  let dots = 0;
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    if (!isDomainChar(cp)) return false;
    if (cp === 0x2e) {
      if (label === 0) return false;
      dots++;
      label = 0;
      letters = 0;
    } else {
      label++;
      letters = isLetter(cp) && !(cp >= 48 && cp <= 57) ? letters + 1 : -Infinity;
    }
    i += widthOf(cp);
  }
  return dots > 0 && label > 0 && letters >= 2;
}

/** Words outside identifiers: letters and digits with the joiners of names and ids, edges trimmed. */
function addWords(text: string, start: number, end: number, add: (key: string) => void): void {
  let i = start;
  while (i < end) {
    const cp = codePointAt(text, i);
    if (!isWordChar(cp)) {
      i += widthOf(cp);
      continue;
    }
    let from = i;
    let isAscii = true;
    while (i < end) {
      const c = codePointAt(text, i);
      if (!isWordChar(c)) break;
      if (c >= 128) isAscii = false;
      i += widthOf(c);
    }
    let to = i;
    while (from < to && "._'-".includes(text[from] ?? '')) from++;
    while (to > from && "._'-".includes(text[to - 1] ?? '')) to--;
    if (to === from || to - from > MAX_VALUE_CHARS) continue;
    const word = text.slice(from, to);
    // An ASCII word is its own NFKC form: lower-casing is all `plain` would do.
    add(isIban(word) ? `i:${word.toLowerCase()}` : `v:${isAscii ? word.toLowerCase() : plain(word)}`);
  }
}

/** Folded text that reads as an address (`x@y.z`, no space): judged as written, or not at all. */
function looksLikeAddress(text: string): boolean {
  const at = text.indexOf('@');
  return at > 0 && !text.includes(' ') && text.indexOf('.', at) > at + 1;
}

/**
 * The text up to the last character before `MAX_SCANNED_CHARS` that ends every token (whitespace,
 * `"`, `<`, `>`), so no identifier is read cut; short chunks before that cut go too, as they may be the
 * first groups of an IBAN printed in groups.
 */
function cutAtBoundary(source: string): string {
  let end = MAX_SCANNED_CHARS;
  while (end > 0 && !isCutPoint(source.charCodeAt(end))) end--;
  if (end > 0 && isSpace(source.charCodeAt(end)) && end - chunkStart(source, end, 6) <= 5)
    end = windowStart(source, end - 1);
  return source.slice(0, end);
}

function isCutPoint(unit: number): boolean {
  return unit === 0x22 || unit === 0x3c || unit === 0x3e || isSpace(unit);
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
