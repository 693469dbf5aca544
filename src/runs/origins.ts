import type { Origin, Origins } from '../confirmation.js';
import { keyOf, keyText } from './identifiers.js';
import type { RunMemory } from './run-memory.js';

/** The most values one destination field is judged on (a list of recipients); more are refused. */
export const MAX_DESTINATION_VALUES = 100;

/** No destinations, or outside a run: what rules read as `origins`. */
export const NO_ORIGINS: Origins = Object.freeze({});

/**
 * The values at a destination path of the validated input (`recipient`, `to.email`): strings and
 * numbers, looking inside lists on the way. Anything else there is not a destination value.
 */
export function destinationValues(input: unknown, path: string): string[] {
  let level: unknown[] = [input];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const item of level) {
      if (typeof item !== 'object' || item === null) continue;
      const value = Object.hasOwn(item, part) ? (item as Record<string, unknown>)[part] : undefined;
      if (Array.isArray(value)) next.push(...value);
      else if (value !== undefined) next.push(value);
    }
    level = next;
  }
  const values: string[] = [];
  for (const value of level.flat(2)) {
    if (typeof value === 'string' && value.trim() !== '') values.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) values.push(String(value));
  }
  return values;
}

/** The keys of every destination value of a call: what a call within a run reads of it, in one read. */
export function destinationKeys(destinations: readonly string[], input: unknown): string[] {
  const keys = new Set<string>();
  for (const field of destinations)
    for (const value of destinationValues(input, field)) {
      const key = keyOf(value);
      if (key !== undefined) keys.add(key);
    }
  return [...keys];
}

/**
 * Where each destination of a call came from within its run: per field, every place of every value,
 * once each — the request and trusted values for a value the person or app vouched for, else the
 * tools that returned it, else `none`.
 */
export function originsOf(run: RunMemory, destinations: readonly string[], input: unknown): Origins {
  const origins: Record<string, readonly Origin[]> = {};
  for (const field of destinations) {
    const values = destinationValues(input, field);
    if (values.length === 0) continue;
    const places: Origin[] = [];
    for (const value of values.slice(0, MAX_DESTINATION_VALUES)) {
      const key = keyOf(value);
      const found = key === undefined ? [{ from: 'none' } as const] : run.originsOf(key);
      for (const origin of found)
        if (!places.some((o) => o.from === origin.from && o.tool === origin.tool && o.list === origin.list))
          places.push(origin);
    }
    places.sort((a, b) => ORDER[a.from] - ORDER[b.from]);
    origins[field] = Object.freeze(places.map((o) => Object.freeze(o)));
  }
  return Object.freeze(origins);
}

const ORDER: Readonly<Record<Origin['from'], number>> = { request: 0, trusted: 1, tool: 2, none: 3 };

/** A destination an egress read may not reach: the field, the value as a person reads it, its origins. */
export interface UnvouchedDestination {
  readonly field: string;
  readonly value: string;
  readonly origins: readonly Origin[];
}

/**
 * The first destination of an egress read that neither the run vouches for (named in the request,
 * trusted) nor the tool's own `allow` list holds; `undefined` when every one is vouched. Outside a
 * run only `allow` vouches.
 */
export function unvouchedDestination(
  run: RunMemory | undefined,
  destinations: readonly string[],
  allowed: ReadonlySet<string>,
  input: unknown,
): UnvouchedDestination | undefined {
  for (const field of destinations) {
    const values = destinationValues(input, field);
    for (const [i, value] of values.entries()) {
      const key = i < MAX_DESTINATION_VALUES ? keyOf(value) : undefined;
      if (key !== undefined && (allowed.has(key) || run?.isVouched(key) === true)) continue;
      const origins =
        run === undefined || key === undefined ? [{ from: 'none' as const }] : run.originsOf(key);
      return { field, value: key === undefined ? value.slice(0, 200) : keyText(key).slice(0, 200), origins };
    }
  }
  return undefined;
}
