import { readDestinationPath, valuesAt } from '../util/destination-path.js';
import type { Origin, Origins, ValueOrigin, ValueOrigins } from './origin.js';

/** What origins need from an agent run: where a key was found, and whether the person or app vouched for it. */
export interface RunLookup {
  originsOf(key: string): Origin[];
  isVouched(key: string): boolean;
}

/**
 * How a value is keyed for comparison, and the words a person reads for a key: the run's own keying
 * (`runs/identifiers.ts`), passed in so that origins stay below the runs that remember them.
 */
export interface ValueKeys {
  keyOf(value: string): string | undefined;
  keyText(key: string): string;
}

/** No destinations, or outside a run: what rules read as `origins`. */
export const NO_ORIGINS: Origins = Object.freeze({});

/** The longest text a person is shown for one value. */
const MAX_SHOWN_CHARS = 200;

/** One value at a destination: its key (`undefined` when it cannot be judged) and its words for a person. */
interface JudgedValue {
  readonly key: string | undefined;
  readonly shown: string;
}

/**
 * Every value at a destination path of the validated input, in input order, each as it is judged: a
 * string or a finite number by its key; anything else (an object, a boolean, `null` in a list) with
 * no key — it cannot be judged, so it is found nowhere. A blank string names no destination.
 */
function destinationValues(keys: ValueKeys, input: unknown, destination: string): JudgedValue[] {
  const path = readDestinationPath(destination);
  if (path === undefined) return [];
  const judged: JudgedValue[] = [];
  for (const value of valuesAt(input, path)) {
    if (typeof value === 'string' && value.trim() === '') continue;
    const key =
      typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
        ? keys.keyOf(String(value))
        : undefined;
    judged.push({
      key,
      shown: key === undefined ? rawText(value) : keys.keyText(key).slice(0, MAX_SHOWN_CHARS),
    });
  }
  return judged;
}

/** The distinct keys of every value at every destination: what a run must be asked about. */
export function destinationKeys(keys: ValueKeys, destinations: readonly string[], input: unknown): string[] {
  const found = new Set<string>();
  for (const field of destinations)
    for (const { key } of destinationValues(keys, input, field)) if (key !== undefined) found.add(key);
  return [...found];
}

/** Where each destination of a call came from: the union per field that rules read, and each value's own. */
export interface DestinationOrigins {
  readonly origins: Origins;
  readonly originValues: ValueOrigins;
}

/**
 * Where each destination of a call came from within its run, every value judged: per field, every
 * place of every value once each (`origins`, which rules read), and each distinct value in input order
 * with its own places (`originValues`, which a person reads). The request and trusted values (by
 * list) for a value the person or app vouched for, else the tools that returned it, else `none`.
 */
export function originsOf(
  keys: ValueKeys,
  run: RunLookup,
  destinations: readonly string[],
  input: unknown,
): DestinationOrigins {
  const origins: Record<string, readonly Origin[]> = {};
  const originValues: Record<string, readonly ValueOrigin[]> = {};
  const asked = new Map<string, readonly Origin[]>();
  for (const field of destinations) {
    const values = destinationValues(keys, input, field);
    if (values.length === 0) continue;
    const places: Origin[] = [];
    const each = new Map<string, ValueOrigin>();
    for (const { key, shown } of values) {
      let found = key === undefined ? NOWHERE : asked.get(key);
      if (found === undefined && key !== undefined) {
        found = Object.freeze(run.originsOf(key).map((o) => Object.freeze({ ...o })));
        asked.set(key, found);
      }
      const own = found ?? NOWHERE;
      for (const origin of own) if (!places.some((o) => sameOrigin(o, origin))) places.push(origin);
      if (!each.has(shown)) each.set(shown, Object.freeze({ value: shown, origins: own }));
    }
    places.sort((a, b) => ORDER[a.from] - ORDER[b.from]);
    origins[field] = Object.freeze(places);
    originValues[field] = Object.freeze([...each.values()]);
  }
  return { origins: Object.freeze(origins), originValues: Object.freeze(originValues) };
}

const NOWHERE: readonly Origin[] = Object.freeze([Object.freeze({ from: 'none' as const })]);

const ORDER: Readonly<Record<Origin['from'], number>> = { request: 0, trusted: 1, tool: 2, none: 3 };

function sameOrigin(a: Origin, b: Origin): boolean {
  return a.from === b.from && a.tool === b.tool && a.list === b.list;
}

/** A value that cannot be judged, in words a person can read: its JSON (or its kind), cut short. */
function rawText(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Array.isArray(value) ? '[…]' : typeof value === 'object' ? '{…}' : String(typeof value);
  }
  return text.slice(0, MAX_SHOWN_CHARS);
}

/** A destination an egress read may not reach: the field, the value as a person reads it, its origins. */
export interface UnvouchedDestination {
  readonly field: string;
  readonly value: string;
  readonly origins: readonly Origin[];
}

/**
 * The first destination of an egress read, every value judged, that neither the run vouches for
 * (named in the request, trusted) nor the tool's own `allow` list holds; `undefined` when every one
 * is vouched. A value that cannot be judged is never vouched. Outside a run only `allow` vouches.
 */
export function unvouchedDestination({
  keys,
  run,
  destinations,
  allowed,
  input,
}: {
  readonly keys: ValueKeys;
  readonly run: RunLookup | undefined;
  readonly destinations: readonly string[];
  readonly allowed: ReadonlySet<string>;
  readonly input: unknown;
}): UnvouchedDestination | undefined {
  for (const field of destinations) {
    for (const { key, shown } of destinationValues(keys, input, field)) {
      if (key !== undefined && (allowed.has(key) || run?.isVouched(key) === true)) continue;
      const origins =
        run === undefined || key === undefined ? [{ from: 'none' as const }] : run.originsOf(key);
      return { field, value: shown, origins };
    }
  }
  return undefined;
}
