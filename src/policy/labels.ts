/**
 * Checks on the people and notes recorded in a confirmation's history. They end up in audit screens
 * and logs, so a name may not hide control or bidirectional-override characters, and nothing may hold
 * a NUL (PostgreSQL text cannot store one). A person id is compared as written (four eyes), so it may
 * not hold invisible format characters, spaces at its ends or lone surrogates either: `ana\u200b`,
 * `'ana '` or `ana\uD800` would otherwise pass as someone other than `ana` (or, stored, as another).
 */

const MAX_NAME_LENGTH = 256;
const MAX_NOTE_LENGTH = 2_000;

/** C0/C1 controls and DEL; a note may still hold tab, line feed and carriage return. */
function isControl(code: number, inNote: boolean): boolean {
  if (inNote && (code === 0x09 || code === 0x0a || code === 0x0d)) return false;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** The bidi overrides and isolates that can make a log line read differently from what it holds. */
function isDirectionOverride(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** Format characters (zero-width space, BOM, soft hyphen, …): invisible, so a look-alike name hides in them. */
const FORMAT_CHARACTER = /\p{Cf}/u;

/**
 * A lone surrogate (what `String.prototype.isWellFormed` refuses; ES2024, past our ES2023 lib): UTF-8
 * cannot hold one, so a SQL store would keep `mallory\uD800` as `mallory\uFFFD` — someone else.
 */
const LONE_SURROGATE = /\p{Cs}/u;

function hasForbidden(text: string, inNote: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControl(code, inNote) || (!inNote && isDirectionOverride(code))) return true;
  }
  return false;
}

/** Why `value` cannot be recorded as who did something, or `undefined` when it can. */
export function nameProblem(value: unknown, option: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '')
    return `\`${option}\` must name who decides (a non-empty string)`;
  if (value.length > MAX_NAME_LENGTH) return `\`${option}\` is longer than ${MAX_NAME_LENGTH} characters`;
  if (hasForbidden(value, false)) return `\`${option}\` holds control or direction-override characters`;
  if (FORMAT_CHARACTER.test(value)) return `\`${option}\` holds invisible format characters`;
  if (LONE_SURROGATE.test(value)) return `\`${option}\` holds a lone surrogate (not well-formed Unicode)`;
  if (value.trim() !== value) return `\`${option}\` starts or ends with white space`;
  return undefined;
}

/** Why `value` cannot be recorded as a note, or `undefined` when it can (absent is fine). */
export function noteProblem(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return `\`${option}\` must be a string`;
  if (value.length > MAX_NOTE_LENGTH) return `\`${option}\` is longer than ${MAX_NOTE_LENGTH} characters`;
  if (hasForbidden(value, true)) return `\`${option}\` holds control characters`;
  return undefined;
}

/** `text` made safe to store without refusing it: NULs replaced, length capped. For error texts. */
export function storableText(text: string, max = MAX_NOTE_LENGTH): string {
  return text.replaceAll('\u0000', '\uFFFD').slice(0, max);
}

/** A label (actor, scope) the app passed, or `undefined` when it is not one we can record faithfully. */
export function recordableLabel(value: unknown): string | undefined {
  return typeof value === 'string' && nameProblem(value, '') === undefined ? value : undefined;
}
