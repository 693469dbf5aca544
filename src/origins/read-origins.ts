import { isRecord } from '../util/is-record.js';
import { setOwn } from '../util/own-property.js';
import type { Origin, Origins, ValueOrigin, ValueOrigins } from './origin.js';

/** An origin with its tool's title for people beside the name: what a notice and a card carry. */
export type TitledOrigin = Origin & { readonly title?: string };

const FROM: ReadonlySet<unknown> = new Set(['request', 'trusted', 'tool', 'none']);
/** Bounds on what is read back: origins come from a store or a notice, and are shown to a person. */
const MAX_FIELDS = 100;
const MAX_PER_FIELD = 100;
const MAX_NAME = 200;

/**
 * `origins` as the documented shape, copied: per field (a non-empty name), a list of
 * `{ from, tool?, list? }` with `tool` only on a `tool` origin, `list` only on a `trusted` one, and
 * `title` too when `withTitles`. Anything
 * else — a store row written by hand, another version's field — is dropped, never thrown: the
 * approver then sees less, not a broken card. `undefined` when nothing readable is left.
 */
export function readOrigins(value: unknown): Origins | undefined;
export function readOrigins(
  value: unknown,
  withTitles: true,
): Readonly<Record<string, readonly TitledOrigin[]>> | undefined;
export function readOrigins(
  value: unknown,
  withTitles = false,
): Readonly<Record<string, readonly TitledOrigin[]>> | undefined {
  return perField(value, MAX_PER_FIELD, (item) => originOf(item, withTitles));
}

/**
 * Values at most read back per field: a record holds every distinct value of a call's input (bounded
 * by the argument limits); this bounds a row written by hand.
 */
const MAX_VALUES_PER_FIELD = 100_000;
const MAX_VALUE = 200;

/**
 * `originValues` as the documented shape, copied: per field, a list of `{ value, origins }` with
 * `value` a string of at most 200 characters and `origins` read as `readOrigins` reads them (a value
 * whose origins cannot be read keeps `none`: it is shown to be checked, never hidden). `undefined`
 * when nothing readable is left.
 */
export function readValueOrigins(value: unknown): ValueOrigins | undefined;
export function readValueOrigins(
  value: unknown,
  withTitles: true,
): Readonly<Record<string, readonly TitledValueOrigin[]>> | undefined;
export function readValueOrigins(
  value: unknown,
  withTitles = false,
): Readonly<Record<string, readonly TitledValueOrigin[]>> | undefined {
  return perField(value, MAX_VALUES_PER_FIELD, (item) => {
    if (!isRecord(item) || typeof item.value !== 'string') return undefined;
    const origins = Array.isArray(item.origins)
      ? item.origins.slice(0, MAX_PER_FIELD).flatMap((o) => originOf(o, withTitles) ?? [])
      : [];
    return { value: item.value.slice(0, MAX_VALUE), origins: origins.length === 0 ? [NONE] : origins };
  });
}

const NONE: TitledOrigin = { from: 'none' };

/**
 * A record of lists read field by field (a non-empty name, a list), each item by `readItem` (what it
 * cannot read is dropped), at most `MAX_FIELDS` fields and `maxItems` items a field. `undefined` when
 * the record had fields and none could be read.
 */
function perField<Item>(
  value: unknown,
  maxItems: number,
  readItem: (item: unknown) => Item | undefined,
): Readonly<Record<string, readonly Item[]>> | undefined {
  if (!isRecord(value)) return undefined;
  const read: Record<string, readonly Item[]> = {};
  let fields = 0;
  for (const field of Object.keys(value)) {
    if (fields >= MAX_FIELDS) break;
    const list = value[field];
    if (!isName(field) || !Array.isArray(list)) continue;
    const items: Item[] = [];
    for (const raw of list.slice(0, maxItems)) {
      const item = readItem(raw);
      if (item !== undefined) items.push(item);
    }
    setOwn(read, field, items);
    fields += 1;
  }
  return fields === 0 && Object.keys(value).length > 0 ? undefined : read;
}

/** A value with its origins, each tool origin titled for people where known. */
export type TitledValueOrigin = ValueOrigin & { readonly origins: readonly TitledOrigin[] };

/** Whether any field's value was not vouched for: read from a tool, or found nowhere. */
export function hasUnvouched(origins: Origins | undefined): boolean {
  if (origins === undefined) return false;
  return Object.values(origins).some((list) => list.some(isUnvouched));
}

/** An origin the person's request and the app's trusted values do not vouch for. */
export function isUnvouched(origin: Origin): boolean {
  return origin.from === 'tool' || origin.from === 'none';
}

function originOf(item: unknown, withTitles: boolean): TitledOrigin | undefined {
  if (!isRecord(item) || !FROM.has(item.from)) return undefined;
  const from = item.from as Origin['from'];
  if (from === 'trusted' && isName(item.list)) return { from, list: item.list };
  if (from !== 'tool') return { from };
  if (!isName(item.tool)) return undefined;
  const title = withTitles && isName(item.title) ? item.title : undefined;
  return title === undefined ? { from, tool: item.tool } : { from, tool: item.tool, title };
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_NAME;
}

/**
 * `origins` read as `readOrigins` reads them, each tool origin with its tool's title for people when
 * `titleOf` knows one (a title equal to the name, empty, or a `titleOf` that throws adds none).
 */
export function titledOrigins(
  origins: unknown,
  titleOf: (tool: string) => string | undefined,
): Readonly<Record<string, readonly TitledOrigin[]>> | undefined {
  const read = readOrigins(origins);
  if (read === undefined) return undefined;
  const titled: Record<string, readonly TitledOrigin[]> = {};
  for (const [field, list] of Object.entries(read))
    setOwn(
      titled,
      field,
      list.map((origin) => {
        if (origin.tool === undefined) return origin;
        const title = safeTitle(titleOf, origin.tool);
        return title === undefined ? origin : { ...origin, title };
      }),
    );
  return titled;
}

/** `originValues` read as `readValueOrigins` reads them, each tool origin titled as `titledOrigins` does. */
export function titledValueOrigins(
  originValues: unknown,
  titleOf: (tool: string) => string | undefined,
): Readonly<Record<string, readonly TitledValueOrigin[]>> | undefined {
  const read = readValueOrigins(originValues);
  if (read === undefined) return undefined;
  const titled: Record<string, readonly TitledValueOrigin[]> = {};
  for (const [field, values] of Object.entries(read))
    setOwn(
      titled,
      field,
      values.map(({ value, origins }) => ({
        value,
        origins: origins.map((origin) => {
          if (origin.tool === undefined) return origin;
          const title = safeTitle(titleOf, origin.tool);
          return title === undefined ? origin : { ...origin, title };
        }),
      })),
    );
  return titled;
}

function safeTitle(titleOf: (tool: string) => string | undefined, tool: string): string | undefined {
  try {
    const title = titleOf(tool);
    return isName(title) && title !== tool ? title : undefined;
  } catch {
    return undefined;
  }
}
