/**
 * Internal names are dotted (`kb.search`, the advice) or flat (`send_email`, as MCP servers and other
 * catalogs name tools); providers want `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. The rules below make `.` ↔ `__`
 * lossless by construction: a segment never holds `__`, never starts or ends with `_`, so every `__`
 * in a wire name is a former dot. A flat name is one segment: its wire name is itself, and holds no
 * `__`, while every dotted name's wire name does — no two names share a wire name.
 */

/** A segment: starts with a letter; letters, digits, `-`; single `_` only between other characters. */
const SEGMENT = '[A-Za-z][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*';

/**
 * One segment (`send_email`, `list-files`), or the advised `<domain>.<capability>` with optional
 * further segments (`crm.contact.search`).
 */
export const TOOL_NAME_PATTERN: RegExp = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})*$`);

/** The name rule shared by OpenAI, Anthropic, Gemini and Bedrock. */
export const WIRE_NAME_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The longest wire name every provider accepts. */
export const MAX_WIRE_NAME_LENGTH = 64;

/** A flat name as it is, or a dotted one with each `.` as `__`. */
const WIRE_FORM = new RegExp(`^${SEGMENT}(?:__${SEGMENT})*$`);

/** The one segment a name is made of, or its first: what a name without a `domain` is filed under. */
const FIRST_SEGMENT = new RegExp(`^${SEGMENT}$`);

/**
 * True when `name` is a valid internal tool name (its wire form may still be too long).
 *
 * @example
 * ```ts
 * import { isValidToolName } from 'graded-tools';
 * isValidToolName('kb.search'); // true
 * isValidToolName('send_email'); // true (flat, as MCP servers name tools)
 * isValidToolName('kb..search'); // false
 * isValidToolName('get__page'); // false (`__` is how a dot goes on the wire)
 * ```
 */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/**
 * The provider-safe form of an internal name: every `.` becomes `__` (a flat name stays as it is).
 *
 * @example
 * ```ts
 * import { toWireName } from 'graded-tools';
 * toWireName('kb.search'); // 'kb__search'
 * toWireName('send_email'); // 'send_email'
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
 * fromWireName('send_email'); // 'send_email'
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

/** True for one name segment: a flat tool name, or a `domain`. */
export function isNameSegment(name: string): boolean {
  return FIRST_SEGMENT.test(name);
}
