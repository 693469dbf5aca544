import emailAddresses from 'email-addresses';
import { codePointAt, isAtomChar, isDomainChar, widthOf } from './char-class.js';

/**
 * An email address as the mail system delivers it: the local part as written (only ASCII letters
 * compared without case — most mailboxes ignore it; `𝐚𝐧𝐚` and `ａｎａ` stay other mailboxes than `ana`),
 * the domain by IDNA (what `URL` gives for it, the way a mail client looks it up). An address is read
 * whole: the run of characters it stands in, between characters no local part can hold, is the address
 * or it is none — `o'brien@corp.example` never also stands for `brien@corp.example`.
 */

/** The longest address (RFC 5321 path limit); a longer run is no address and is never parsed. */
export const MAX_ADDRESS_CHARS = 254;
const MAX_LOCAL_CHARS = 64;

/**
 * How a candidate is checked: `rfc5322` by the `email-addresses` parser, `dot-atom` by the same
 * grammar written for the only characters a candidate can hold here (a test keeps the two equal).
 */
export type AddressCheck = 'rfc5322' | 'dot-atom';

/** Characters after an address in prose that end a sentence or a quote (`ana@x.com!`, `'ana@x.com'`). */
const TRAILING = ".!?'`";

/**
 * The address a run of atom characters stands for (the run `text[start, end)` holds one `@`, at `at`),
 * as `local@host`; `undefined` when the run is no address. In a value (`inText` false) nothing may
 * follow the domain; in text a closing full stop, `!`, `?` or quote may, and a quote around it is the
 * writer's.
 */
export function addressIn(
  text: string,
  run: { readonly start: number; readonly at: number; readonly end: number },
  options: { readonly inText: boolean; readonly check: AddressCheck },
): string | undefined {
  const { at, end } = run;
  let domainEnd = at + 1;
  while (domainEnd < end && domainEnd - at <= MAX_ADDRESS_CHARS) {
    const cp = codePointAt(text, domainEnd);
    if (!isDomainChar(cp)) break;
    domainEnd += widthOf(cp);
  }
  if (options.inText) while (domainEnd > at + 1 && text.charCodeAt(domainEnd - 1) === 0x2e) domainEnd--;
  if (domainEnd < end && !(options.inText && isTrailing(text, domainEnd, end))) return undefined;
  let start = run.start;
  const open = text[start];
  if (options.inText && (open === "'" || open === '`') && text[domainEnd] === open) start++;
  const localLength = at - start;
  if (localLength < 1 || localLength > MAX_LOCAL_CHARS || domainEnd - start > MAX_ADDRESS_CHARS)
    return undefined;
  const local = text.slice(start, at);
  const domain = text.slice(at + 1, domainEnd);
  if (!isLocalPart(local, domain, options.check)) return undefined;
  const host = mailHost(domain);
  return host === undefined ? undefined : `${asciiLower(local)}@${host}`;
}

/** The longest `Name <address>` value read as a mailbox; a longer one is no address. */
const MAX_MAILBOX_CHARS = 512;

/**
 * The address a whole value names, as `local@host`: `ana@example.com`, or a mailbox with a display
 * name (`Ana <ana@example.com>`), which mail is delivered to by its address alone (the name is shown,
 * never routed). Checked by the RFC 5322 parser; `undefined` for anything else.
 */
export function addressOfValue(raw: string): string | undefined {
  const whole = wholeAddress(raw);
  if (whole !== undefined || !raw.endsWith('>') || raw.length > MAX_MAILBOX_CHARS) return whole;
  const open = raw.lastIndexOf('<');
  const inner = raw.slice(open + 1, -1);
  const address = open === -1 ? undefined : wholeAddress(inner);
  if (address === undefined) return undefined;
  const parsed = emailAddresses.parseOneAddress({ input: raw, rfc6532: true, strict: true, rejectTLD: true });
  return parsed?.type === 'mailbox' && parsed.address === inner ? address : undefined;
}

/** The whole value as one address (every character one an unquoted address may hold). */
function wholeAddress(raw: string): string | undefined {
  const at = raw.indexOf('@');
  if (at <= 0 || raw.indexOf('@', at + 1) !== -1 || raw.length > MAX_ADDRESS_CHARS) return undefined;
  for (let i = 0; i < raw.length; ) {
    const cp = codePointAt(raw, i);
    if (!isAtomChar(cp)) return undefined;
    i += widthOf(cp);
  }
  // Every character is one an unquoted address may hold, so the dot-atom check decides as the parser
  // would (a differential property holds them equal); the parser costs ~60 µs a call on every proposal.
  return addressIn(raw, { start: 0, at, end: raw.length }, { inText: false, check: 'dot-atom' });
}

function isTrailing(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (!TRAILING.includes(text[i] ?? '')) return false;
  return true;
}

function isLocalPart(local: string, domain: string, check: AddressCheck): boolean {
  if (check === 'dot-atom')
    return !local.startsWith('.') && !local.endsWith('.') && !local.includes('..') && !local.includes('@');
  const parsed = emailAddresses.parseOneAddress({
    input: `${local}@${domain}`,
    rfc6532: true,
    strict: true,
    rejectTLD: true,
  });
  return parsed !== null && parsed.type === 'mailbox' && parsed.local === local && parsed.domain === domain;
}

/**
 * The domain as the mail client sends it, when it is a host name mail can be sent to (two labels or
 * more, not an IP): an ASCII domain lower-cased as written, another by IDNA (`URL` gives it).
 */
function mailHost(domain: string): string | undefined {
  let host = asciiLower(domain);
  if (!isAscii(domain)) {
    try {
      host = new URL(`http://${domain}`).hostname;
    } catch {
      return undefined;
    }
  }
  const labels = host.split('.');
  if (labels.length < 2 || host.length > 253) return undefined;
  for (const label of labels) if (!isHostLabel(label)) return undefined;
  return /[a-z]/u.test(labels[labels.length - 1] ?? '') ? host : undefined;
}

function isHostLabel(label: string): boolean {
  if (label.length < 1 || label.length > 63 || label.startsWith('-') || label.endsWith('-')) return false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 0x2d)) return false;
  }
  return true;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

function asciiLower(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i];
  }
  return out;
}
