// Canonical JSON (RFC 8785's form for plain JSON values): what a digest and an audit hash are taken over.
import { setOwn } from './own-property.js';

/** How deep a payload may nest; deeper is refused rather than risking the stack. */
const MAX_DEPTH = 256;

/** A JSON value copied out of whatever `prepare` returned, or why it is not JSON. */
export type JsonSnapshot =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly detail: string };

function describeNonPlain(value: object): string {
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a custom prototype';
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Where the copy is, from the root: each open object or array and the key being read in it. Kept as
 * two stacks instead of a path string per property, because the path is only wanted in an error and
 * building it for every key was most of the cost of copying a small payload.
 */
class Trail {
  readonly objects: object[] = [];
  readonly keys: (string | number)[] = [];

  /** A `TypeError` naming where the copy is, like `payload.to[0].when: a Date is not JSON`. */
  refuse(reason: string): TypeError {
    let path = 'payload';
    for (const key of this.keys) {
      if (typeof key === 'number') path += `[${key}]`;
      else path += IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    }
    return new TypeError(`${path}: ${reason}`);
  }
}

function copy(value: unknown, trail: Trail): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw trail.refuse(`${value} is not a JSON number`);
      return value;
    case 'undefined':
      throw trail.refuse('undefined is not JSON');
    case 'object': {
      if (value === null) return null;
      const { objects, keys } = trail;
      if (objects.length >= MAX_DEPTH) throw trail.refuse(`nested deeper than ${MAX_DEPTH} levels`);
      // Only the open objects are searched: the same object twice side by side is fine, inside itself is not.
      if (objects.includes(value)) throw trail.refuse('a cycle is not JSON');
      objects.push(value);
      let out: unknown[] | Record<string, unknown>;
      if (Array.isArray(value)) {
        const items: unknown[] = [];
        // Index loop, not for…of: a hole must be refused, not turned into null behind the person's back.
        for (let i = 0; i < value.length; i++) {
          keys.push(i);
          items.push(copy(value[i], trail));
          keys.pop();
        }
        out = items;
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          // A Date, Map or class instance would change shape in JSON.stringify; what the person is shown
          // must be exactly what is stored and delivered.
          throw trail.refuse(`${describeNonPlain(value)} is not JSON (convert it to plain data)`);
        }
        const record: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
          const child = (value as Record<string, unknown>)[key];
          // An absent optional field is common in typed code; JSON has no undefined, so it is left out.
          if (child === undefined) continue;
          keys.push(key);
          setOwn(record, key, copy(child, trail));
          keys.pop();
        }
        out = record;
      }
      objects.pop();
      return out;
    }
    default:
      throw trail.refuse(`a ${typeof value} is not JSON`);
  }
}

/**
 * Copies `value` into plain JSON data, reading each property once, so the digest and the stored text
 * are made from the same snapshot (a getter cannot answer differently the second time).
 */
export function snapshotJson(value: unknown): JsonSnapshot {
  try {
    return { ok: true, value: copy(value, new Trail()) };
  } catch (error) {
    const detail =
      error instanceof TypeError && error.message.startsWith('payload')
        ? error.message
        : `payload: it could not be read (${error instanceof Error ? error.message : String(error)})`;
    return { ok: false, detail };
  }
}

/** Off only in the differential test, which checks both ways write the same text. */
export const quotingFastPath = { enabled: true };

/**
 * A string as `JSON.stringify` writes it. Most keys and texts need no escape — no `"`, `\\`, control
 * character or surrogate — and are simply quoted, which is quicker than the general writer.
 */
function quoted(text: string): string {
  if (!quotingFastPath.enabled) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(text);
    }
  }
  return `"${text}"`;
}

/** Writes plain JSON data (from `snapshotJson` or `JSON.parse`) in canonical form. */
export function writeCanonical(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(writeCanonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units: the key order RFC 8785 (JCS) prescribes.
  const keys = Object.keys(record).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out += `${i === 0 ? '' : ','}${quoted(key)}:${writeCanonical(record[key])}`;
  }
  return `${out}}`;
}

/**
 * The canonical JSON text of `value`: object keys sorted by UTF-16 code units, no whitespace, numbers
 * and strings as `JSON.stringify` writes them (the RFC 8785 / JCS form for these values). Properties
 * whose value is `undefined` are left out. Throws a `TypeError` naming the path for anything that is
 * not plain JSON: a cycle, a bigint, a function, a symbol, `NaN`/`Infinity`, an array hole, a `Date`,
 * `Map` or class instance.
 *
 * @example
 * ```ts
 * import { canonicalJson } from 'graded-tools';
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  const snapshot = snapshotJson(value);
  if (!snapshot.ok) throw new TypeError(snapshot.detail);
  return writeCanonical(snapshot.value);
}
