/**
 * What one character can be part of, tested per code point (no regex runs over a whole text): the
 * scans in `scan-tokens.ts` ask these questions once per character, so their cost is linear.
 */

const SPACE = 1;
const LETTER = 2;
/** ASCII `atext` of RFC 5322 (letters, digits, ``!#$%&'*+-/=?^_`{|}~``). */
const ATEXT = 4;
const WORD_JOINER = 8;

const ASCII_ATEXT = "!#$%&'*+-/=?^_`{|}~";
const ASCII_WORD_JOINERS = "@._+'-";
const NON_ASCII_LETTER = /^[\p{L}\p{N}\p{M}]$/u;
const NON_ASCII_SPACE = /^\s$/u;

/** Classes of the Basic Multilingual Plane, filled on first use (0 = not yet known). */
const bmp = new Uint8Array(0x10000);
const KNOWN = 128;

function classify(cp: number): number {
  if (cp < 128) {
    const ch = String.fromCharCode(cp);
    const isAlnum = (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
    let flags = 0;
    if (cp === 32 || (cp >= 9 && cp <= 13)) flags |= SPACE;
    if (isAlnum) flags |= LETTER | ATEXT;
    if (ASCII_ATEXT.includes(ch)) flags |= ATEXT;
    if (ASCII_WORD_JOINERS.includes(ch)) flags |= WORD_JOINER;
    return flags;
  }
  const ch = String.fromCodePoint(cp);
  if (NON_ASCII_SPACE.test(ch)) return SPACE;
  return NON_ASCII_LETTER.test(ch) ? LETTER : 0;
}

function flagsOf(cp: number): number {
  if (cp > 0xffff) return classify(cp);
  let flags = bmp[cp] ?? 0;
  if (flags === 0) {
    flags = classify(cp) | KNOWN;
    bmp[cp] = flags;
  }
  return flags;
}

/** Whitespace (`\s`): where a text splits into chunks. */
export function isSpace(cp: number): boolean {
  return (flagsOf(cp) & SPACE) !== 0;
}

/** A letter, digit or combining mark of any script. */
export function isLetter(cp: number): boolean {
  return (flagsOf(cp) & LETTER) !== 0;
}

/**
 * A character an unquoted email local part may hold: ASCII `atext`, `.`, and letters, digits and marks
 * of other scripts (RFC 6532). `@` too, so an address is read as one run with what touches it.
 */
export function isAtomChar(cp: number): boolean {
  return cp === 0x40 || cp === 0x2e || (flagsOf(cp) & (ATEXT | LETTER)) !== 0;
}

/** A character a host name may hold before IDNA: ASCII letters, digits, `-`, `.`, other scripts' letters. */
export function isDomainChar(cp: number): boolean {
  if (cp < 128) return cp === 0x2d || cp === 0x2e || (flagsOf(cp) & LETTER) !== 0;
  return (flagsOf(cp) & LETTER) !== 0;
}

/** A character of a word: letters, digits, marks, and the joiners inside names and ids (``@._+'-``). */
export function isWordChar(cp: number): boolean {
  return (flagsOf(cp) & (LETTER | WORD_JOINER)) !== 0;
}

/** The code point at `i` and how many UTF-16 units it takes. */
export function codePointAt(text: string, i: number): number {
  return text.codePointAt(i) ?? 0;
}

/** UTF-16 units of a code point. */
export function widthOf(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}
