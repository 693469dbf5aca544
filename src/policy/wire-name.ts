/**
 * Internal names are dotted (`kb.search`); providers want `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. The rules
 * below make `.` ↔ `__` lossless by construction: a segment never holds `__`, never starts or ends
 * with `_`, so every `__` in a wire name is a former dot.
 */

/** A segment: starts with a letter; letters, digits, `-`; single `_` only between other characters. */
const SEGMENT = '[A-Za-z][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*';

/** `<domain>.<capability>` with optional further segments (`crm.contact.search`). */
export const TOOL_NAME_PATTERN: RegExp = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})+$`);

/** The name rule shared by OpenAI, Anthropic, Gemini and Bedrock. */
export const WIRE_NAME_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The longest wire name every provider accepts. */
export const MAX_WIRE_NAME_LENGTH = 64;

const WIRE_FORM = new RegExp(`^${SEGMENT}(?:__${SEGMENT})+$`);

/**
 * True when `name` is a valid internal tool name (its wire form may still be too long).
 *
 * @example
 * ```ts
 * import { isValidToolName } from 'graded-tools';
 * isValidToolName('kb.search'); // true
 * isValidToolName('kb..search'); // false
 * ```
 */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/**
 * The provider-safe form of an internal name: every `.` becomes `__`.
 *
 * @example
 * ```ts
 * import { toWireName } from 'graded-tools';
 * toWireName('kb.search'); // 'kb__search'
 * ```
 */
export function toWireName(name: string): string {
  return name.replaceAll('.', '__');
}

/**
 * The internal name behind a wire name, or `undefined` when `wireName` is not the wire form of any
 * valid tool name. (The registry resolves names through its own table; this is the pure mapping.)
 *
 * @example
 * ```ts
 * import { fromWireName } from 'graded-tools';
 * fromWireName('kb__search'); // 'kb.search'
 * fromWireName('kb___search'); // undefined
 * ```
 */
export function fromWireName(wireName: string): string | undefined {
  return WIRE_FORM.test(wireName) ? wireName.replaceAll('__', '.') : undefined;
}

/**
 * True when `name` is a legal wire name for every provider (`^[A-Za-z][A-Za-z0-9_-]{0,63}$`).
 *
 * @example
 * ```ts
 * import { isLegalWireName } from 'graded-tools';
 * isLegalWireName('kb__search'); // true
 * isLegalWireName('kb.search'); // false
 * ```
 */
export function isLegalWireName(name: string): boolean {
  return WIRE_NAME_PATTERN.test(name);
}
