/**
 * Identifiers matched as values, never by fuzzy text: an email case-insensitively, an IBAN without
 * spaces, a URL by its host (a leading `www.` aside), anything else as a whole value or whole words.
 * Each value becomes a key (`e:`, `i:`, `h:`, `v:`); two values are the same destination when their
 * keys are equal.
 */

const EMAIL_VALUE = /^[^\s@<>()[\]"',;]+@[^\s@<>()[\]"',;]+\.[^\s@<>()[\]"',;]+$/u;
const EMAILS = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const URL_VALUE = /^(?:https?:\/\/|www\.)/iu;
const URLS = /\b(?:https?:\/\/|www\.)[^\s<>"'`()[\]{}]+/giu;
/** A bare domain in text (`secure-systems-252.com`), not the part of an email after its `@`. */
const DOMAINS = /(?<![@\p{L}\p{N}._%+-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}\b/gu;
const DOMAIN_VALUE = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;
const IBAN_VALUE = /^[A-Za-z]{2}\d{2}[A-Za-z0-9]{10,30}$/u;
/** IBANs in text: one run of characters, or printed in groups of four. */
const IBANS = /\b[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{10,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,3})?)\b/gu;
/** Where words split: anything but letters, digits and the joiners inside a name or an id. */
const WORD_BREAK = /[^\p{L}\p{N}@._+'-]+/u;
const EDGE_PUNCTUATION = /^[._'-]+|[._'-]+$/gu;

/** The longest text read for identifiers, per string: longer strings are read up to here. */
export const MAX_SCANNED_CHARS = 100_000;

/** The longest text that is also remembered as one whole value (a name, an id, an address). */
const MAX_VALUE_CHARS = 256;

/** A value's key: how it is compared with every other place it could appear. */
export function keyOf(value: string): string | undefined {
  const text = plain(value);
  if (text === '') return undefined;
  if (EMAIL_VALUE.test(text)) return `e:${text}`;
  if (URL_VALUE.test(text)) {
    const host = hostOf(text);
    return host === undefined ? `v:${text}` : `h:${host}`;
  }
  const compact = text.replaceAll(' ', '');
  if (IBAN_VALUE.test(compact) && /\d{6}/u.test(compact)) return `i:${compact}`;
  if (DOMAIN_VALUE.test(text)) return `h:${withoutWww(text)}`;
  return `v:${text}`;
}

/**
 * Every key a text holds: each email, URL host, bare domain and IBAN in it, the whole text as one value,
 * and each of its words. `add` is called once per key found (it may repeat).
 */
export function keysIn(source: string, add: (key: string) => void): void {
  const text = plain(source.length > MAX_SCANNED_CHARS ? source.slice(0, MAX_SCANNED_CHARS) : source);
  if (text === '') return;
  const whole = text.length <= MAX_VALUE_CHARS ? keyOf(text) : undefined;
  if (whole !== undefined) add(whole);
  if (text.includes('@')) for (const match of text.matchAll(EMAILS)) add(`e:${match[0]}`);
  if (text.includes('.')) {
    for (const match of text.matchAll(URLS)) {
      const host = hostOf(match[0].replace(/[.,;:!?]+$/u, ''));
      if (host === undefined) continue;
      if (/^https?:/u.test(match[0])) add(`h:${host}`);
      else addHosts(host, add);
    }
    for (const match of text.matchAll(DOMAINS)) addHosts(withoutWww(match[0]), add);
  }
  if (/\d/u.test(text)) {
    for (const match of text.matchAll(IBANS)) {
      const compact = match[0].replaceAll(' ', '');
      if (/\d{6}/u.test(compact)) add(`i:${compact}`);
    }
  }
  for (const word of text.split(WORD_BREAK)) {
    const trimmed = word.replace(EDGE_PUNCTUATION, '');
    if (trimmed !== '') add(`v:${trimmed}`);
  }
}

/**
 * The text as values are compared: Unicode-normalised (NFKC), lower-cased, whitespace collapsed, and
 * without invisible format characters (a zero-width space must not make a second recipient).
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

/** True when the phrase (`v:` key of several words) stands in `text` (already `plain`) as whole words. */
export function holdsPhrase(text: string, key: string): boolean {
  const phrase = key.slice(2);
  let from = text.indexOf(phrase);
  while (from !== -1) {
    const before = from === 0 ? ' ' : (text[from - 1] ?? ' ');
    const after = text[from + phrase.length] ?? ' ';
    if (WORD_BREAK.test(before) && WORD_BREAK.test(after)) return true;
    from = text.indexOf(phrase, from + 1);
  }
  return false;
}

/** The words a person reads for a key: the host, the email, the IBAN or the value itself. */
export function keyText(key: string): string {
  return key.slice(2);
}

/**
 * A host written bare in text, and each shorter host it starts with: a missing space after a full
 * stop (`www.shop.example.Then`) must not hide the host the writer meant.
 */
function addHosts(host: string, add: (key: string) => void): void {
  const labels = host.split('.');
  for (let end = labels.length; end >= 2; end--) {
    const last = labels[end - 1] ?? '';
    if (/^\p{L}{2,}$/u.test(last)) add(`h:${labels.slice(0, end).join('.')}`);
  }
}

function hostOf(text: string): string | undefined {
  try {
    const url = new URL(/^www\./iu.test(text) ? `https://${text}` : text);
    return url.hostname === '' ? undefined : withoutWww(url.hostname.toLowerCase());
  } catch {
    return undefined;
  }
}

function withoutWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
