/**
 * Where a page of `list` ended: the last confirmation's creation time and the store's own tie-break
 * for rows created in the same millisecond (the memory store's creation count, SQLite's `rowid`,
 * PostgreSQL's `seq`). The next page starts strictly after it, so a page deep in the list costs what
 * the first costs (keyset pagination), and a confirmation created meanwhile never shifts the pages.
 */
export interface ListPosition {
  /** `createdAt` of the last confirmation on the page, epoch ms. */
  readonly createdAt: number;
  /** The store's tie-break for that confirmation, as decimal digits. */
  readonly order: string;
}

const CURSOR = /^(\d{1,16})\.(\d{1,20})$/;

/**
 * The opaque `nextCursor` text for a position: what a custom store's `list` hands back.
 *
 * @example
 * ```ts
 * import { decodeCursor, encodeCursor } from 'graded-tools/store';
 *
 * const cursor = encodeCursor({ createdAt: Date.parse('2030-01-01T00:00:00Z'), order: '42' });
 * decodeCursor(cursor); // { createdAt: 1893456000000, order: '42' }
 * ```
 */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(`${position.createdAt}.${position.order}`, 'utf8').toString('base64url');
}

/**
 * The position a cursor names, or `undefined` for text no store made (a cursor is never trusted).
 *
 * @example
 * ```ts
 * import { decodeCursor } from 'graded-tools/store';
 *
 * decodeCursor('not a cursor'); // undefined
 * ```
 */
export function decodeCursor(cursor: unknown): ListPosition | undefined {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 64) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const createdAt = Number(match[1]);
  if (!Number.isSafeInteger(createdAt)) return undefined;
  return { createdAt, order: match[2] as string };
}
