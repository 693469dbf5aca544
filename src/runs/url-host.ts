import { parse } from 'tldts';

/**
 * The host a URL goes to, as the WHATWG `URL` parser (which `fetch` uses) reads the exact string —
 * never after Unicode folding. A string whose NFKC form names another host (`https://a.example／@b.test`
 * goes to `b.test`, yet reads as `a.example`) names no host at all: it is never vouched.
 */

/** The longest authority (`user@host:port`) read; a longer one names no host. */
const MAX_AUTHORITY_CHARS = 2_048;

/** True when `text` at `i` starts `http://`, `https://` or `www.` (ASCII, any case). */
export function startsUrl(text: string, i: number): boolean {
  return schemeLength(text, i) > 0 || startsWithAscii(text, i, 'www.');
}

/**
 * The host of a URL token (`https://…`, `http://…` or `www.…`, read as `https://www.…`), without a
 * leading `www.`; `undefined` when it has none, or when its folded form names another.
 */
export function hostOfUrl(token: string): string | undefined {
  const scheme = schemeLength(token, 0);
  const authority = authorityOf(token, scheme);
  if (authority === undefined) return undefined;
  return hostOfExact(scheme > 0 ? token.slice(0, scheme) : 'https://', authority);
}

/** The host of a bare host name in text (`shop.example`), read as `https://shop.example`. */
export function hostOfName(name: string): string | undefined {
  if (name.length > MAX_AUTHORITY_CHARS) return undefined;
  return hostOfExact('https://', name);
}

/**
 * A bare host glued to the next sentence (`www.shop.com.They`): the host without its last label when
 * that label began with a capital, the whole host's suffix is not in the Public Suffix List, and what
 * remains has a suffix the list knows. `undefined` otherwise: a host is vouched only as it appears.
 */
export function hostBeforeSentence(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  const first = name.charCodeAt(dot + 1);
  if (dot <= 0 || !(first >= 65 && first <= 90)) return undefined;
  const whole = hostOfName(name);
  if (whole === undefined || isListed(whole)) return undefined;
  const rest = hostOfName(name.slice(0, dot));
  return rest !== undefined && isListed(rest, { withDomain: true }) ? rest : undefined;
}

/** True when the host's public suffix is in the Public Suffix List (and, if asked, a domain stands before it). */
function isListed(host: string, options: { withDomain?: boolean } = {}): boolean {
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  const listed = parsed.isIcann === true || parsed.isPrivate === true;
  return listed && (options.withDomain !== true || parsed.domain !== null);
}

function hostOfExact(scheme: string, authority: string): string | undefined {
  const raw = hostnameOf(scheme + authority);
  if (raw === undefined) return undefined;
  const folded = hostnameOf(scheme + authority.normalize('NFKC').replace(/\p{Cf}/gu, ''));
  return folded === raw ? withoutWww(raw) : undefined;
}

function hostnameOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}

/** The authority after `from` up to the first `/`, `\`, `?` or `#` (where the parser ends it too). */
function authorityOf(token: string, from: number): string | undefined {
  let end = from;
  while (end < token.length) {
    const c = token.charCodeAt(end);
    if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
    end++;
    if (end - from > MAX_AUTHORITY_CHARS) return undefined;
  }
  return token.slice(from, end);
}

/** Length of a leading `http://` or `https://` (any case), else 0. */
function schemeLength(text: string, i: number): number {
  if (startsWithAscii(text, i, 'http://')) return 7;
  if (startsWithAscii(text, i, 'https://')) return 8;
  return 0;
}

function startsWithAscii(text: string, i: number, lower: string): boolean {
  if (i + lower.length > text.length) return false;
  for (let k = 0; k < lower.length; k++) {
    let c = text.charCodeAt(i + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** `www.shop.example` and `shop.example` are one host; `www.` alone before a public suffix stays. */
export function withoutWww(host: string): string {
  return host.startsWith('www.') && host.indexOf('.', 4) !== -1 ? host.slice(4) : host;
}
