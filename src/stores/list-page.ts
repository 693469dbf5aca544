import type { Confirmation } from '../confirmation.js';
import { decodeCursor, encodeCursor, type ListPosition } from './cursor.js';
import type { ConfirmationPage, ConfirmationQuery } from './store.js';

/**
 * Where a list starts: strictly after the position its cursor names, or at the newest (`undefined`).
 * The registry checks cursors before a store sees them; one that still does not decode is refused.
 */
export function listStart(query: ConfirmationQuery): ListPosition | undefined {
  if (query.cursor === undefined) return undefined;
  const position = decodeCursor(query.cursor);
  if (position === undefined) throw new RangeError('list: `cursor` is not a `nextCursor` a store made');
  return position;
}

/**
 * One page from up to `limit + 1` matches, newest first: the extra match is only read to know that a
 * next page exists, whose cursor is the position of the page's last confirmation.
 */
export function pageOf<T>(
  matches: readonly T[],
  limit: number,
  toConfirmation: (match: T) => Confirmation,
  positionOf: (match: T) => ListPosition,
): ConfirmationPage {
  const confirmations = matches.slice(0, limit).map(toConfirmation);
  if (matches.length <= limit) return { confirmations };
  return { confirmations, nextCursor: encodeCursor(positionOf(matches[limit - 1] as T)) };
}
