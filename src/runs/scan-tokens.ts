import { codePointAt, isAtomChar, isSpace, widthOf } from './char-class.js';
import { isIban, isIbanGroup, isIbanStart, MAX_IBAN_GROUPS } from './iban.js';
import { startsUrl } from './url-host.js';

/**
 * One pass over a text, cutting it into the tokens identifiers are read from. Each character is looked
 * at a bounded number of times, whatever the text holds (long runs of `.`, `@`, `-`, hex), so the cost
 * is linear in the text's length: no regex runs over it.
 *
 * - a chunk is a run without whitespace; chunks of four characters after one space each make an IBAN
 *   printed in groups (`DE89 3704 0044 0532 0130 00`);
 * - inside a chunk, a URL token starts at `http://`, `https://` or `www.` and runs to whitespace, `<`,
 *   `>`, `"` or a backtick, without the punctuation that closes a sentence after it;
 * - everything else is read as atom runs: characters an unquoted email local part may hold (so an
 *   address is never cut inside), and `@`.
 */
export interface TokenVisitor {
  /** A URL token `text[start, end)`. */
  url(start: number, end: number): void;
  /**
   * An atom run `text[start, end)`; `at` is its one `@`, or -1 when it holds none, -2 when several;
   * `hasDot` says whether it holds a `.` (a run without one is no host).
   */
  atoms(start: number, end: number, at: number, hasDot: boolean): void;
  /** An IBAN printed in groups, its characters without the spaces, standing in `text[start, end)`. */
  groupedIban(compact: string, start: number, end: number): void;
}

/** Punctuation that closes a sentence or a bracket after a URL, never read as part of it. */
const URL_TRAILING = '.,;:!?\'")]}';

export function scanTokens(text: string, visitor: TokenVisitor): void {
  /** Chunks that may be one IBAN in groups, as [start, end) pairs, decided when the groups stop. */
  const groups: number[] = [];
  const flushGroups = (mayBeIban: boolean) => {
    const compact = ibanOf(text, groups);
    if (mayBeIban && groups.length >= 6 && isIban(compact))
      visitor.groupedIban(compact, groups[0] ?? 0, groups[groups.length - 1] ?? 0);
    else
      for (let k = 0; k < groups.length; k += 2) scanChunk(text, groups[k] ?? 0, groups[k + 1] ?? 0, visitor);
    groups.length = 0;
  };
  const onChunk = (start: number, end: number, afterOneSpace: boolean) => {
    const core = coreOf(text, start, end);
    if (groups.length > 0) {
      const later = (groups.length >> 1) - 1;
      const isGroup = afterOneSpace && core.start === start && isIbanGroup(text, core.start, core.end);
      if (isGroup && later < MAX_IBAN_GROUPS) {
        groups.push(core.start, core.end);
        if (core.end < end || core.end - core.start < 4) flushGroups(true);
        return;
      }
      // Groups past the longest IBAN make no IBAN: a part of something longer vouches nothing.
      if (isGroup) groups.push(start, end);
      flushGroups(!isGroup);
      if (isGroup) return;
    }
    if (core.end === end && isIbanStart(text, core.start, core.end)) groups.push(core.start, core.end);
    else scanChunk(text, start, end, visitor);
  };
  let i = 0;
  let previousEnd = -1;
  while (i < text.length) {
    const start = i;
    while (i < text.length && !isSpace(text.charCodeAt(i))) i++;
    if (i > start) {
      onChunk(start, i, start - previousEnd === 1 && text.charCodeAt(previousEnd) === 32);
      previousEnd = i;
    }
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  }
  if (groups.length > 0) flushGroups(true);
}

/** A chunk without the brackets and punctuation around it: `(DE89` → `DE89`, `00).` → `00`. */
function coreOf(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  while (s < end && '(["\''.includes(text[s] ?? '')) s++;
  let e = end;
  while (e > s && URL_TRAILING.includes(text[e - 1] ?? '')) e--;
  return { start: s, end: e };
}

function ibanOf(text: string, groups: readonly number[]): string {
  let compact = '';
  for (let k = 0; k < groups.length; k += 2) compact += text.slice(groups[k], groups[k + 1]);
  return compact;
}

/** URL tokens and atom runs of one chunk (no whitespace inside). */
function scanChunk(text: string, start: number, end: number, visitor: TokenVisitor): void {
  let i = start;
  while (i < end) {
    const cp = codePointAt(text, i);
    if (!isAtomChar(cp)) {
      i += widthOf(cp);
      continue;
    }
    // A quote is atext (part of a run), yet before a URL it is the writer's: `'https://…'`.
    if ((cp === 0x27 || cp === 0x60) && startsUrl(text, i + 1)) i++;
    if (startsUrl(text, i)) {
      let stop = i;
      while (stop < end && !'<>"`'.includes(text[stop] ?? '')) stop++;
      let last = stop;
      while (last > i && URL_TRAILING.includes(text[last - 1] ?? '')) last--;
      visitor.url(i, last);
      i = stop;
      continue;
    }
    const runStart = i;
    let at = -1;
    let hasDot = false;
    while (i < end) {
      const c = codePointAt(text, i);
      if (!isAtomChar(c)) break;
      if (c === 0x40) at = at === -1 ? i : -2;
      else if (c === 0x2e) hasDot = true;
      i += widthOf(c);
    }
    visitor.atoms(runStart, i, at, hasDot);
  }
}
