import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../confirmation.js';
import { encodeCursor } from '../stores/cursor.js';
import type { ConfirmationQuery, ConfirmationStore } from '../stores/store.js';
import { HOUR, iso, pendingConfirmation, type StoreUnderTest, T0, usesStore } from './contract-setup.js';

/** Where the page tests put their confirmations: hours no other case uses, one span per test. */
const PAGE_REGION = T0 + 10_000 * HOUR;
const SPAN = 100 * HOUR;
const regionOf = (k: number) => ({ from: PAGE_REGION + k * SPAN, to: PAGE_REGION + (k + 1) * SPAN });

/** Every page of `query` from `cursor` on, as id lists, and whether each page came with a cursor. */
async function walk(
  store: ConfirmationStore,
  query: ConfirmationQuery,
  until: (c: Confirmation) => boolean = () => false,
): Promise<{ pages: Confirmation[][]; cursors: (string | undefined)[] }> {
  const pages: Confirmation[][] = [];
  const cursors: (string | undefined)[] = [];
  let cursor = query.cursor;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await store.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    const kept = page.confirmations.filter((c) => !until(c));
    pages.push(kept);
    cursors.push(page.nextCursor);
    if (page.nextCursor === undefined || kept.length < page.confirmations.length) break;
    cursor = page.nextCursor;
  }
  return { pages, cursors };
}

/** Newest first, ties broken by creation order (the later created first). */
const newestFirst = (created: Confirmation[]) =>
  created
    .map((c, i) => ({ c, i }))
    .sort((a, b) => Date.parse(b.c.createdAt) - Date.parse(a.c.createdAt) || b.i - a.i)
    .map(({ c }) => c.id);

/** Keyset pages: every store walks its list the same way (issue 8). */
export function pageCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, pages: ${name}`, () => {
    let store: ConfirmationStore;
    usesStore(open, (opened) => {
      store = opened;
    });

    const create = async (overrides: Partial<Confirmation>, at: number) => {
      const c = pendingConfirmation(overrides, at);
      await store.create(c);
      return c;
    };

    it('pages cover every match once, newest first, with filters and same-millisecond rows', async () => {
      const { from, to } = regionOf(0);
      const tool = `page.t${randomBytes(4).toString('hex')}`;
      const other = `${tool}.other`;
      const all: Confirmation[] = [];
      for (let i = 0; i < 30; i++) {
        // Three to a millisecond; some soon expiring, some claimed, some of another tool.
        const at = from + 1_000 + Math.floor(i / 3);
        const c = await create(
          { tool: i % 5 === 4 ? other : tool, expiresAt: iso(at + (i % 4 === 1 ? 60_000 : HOUR)) },
          at,
        );
        all.push(c);
      }
      const claimed = new Set<string>();
      for (const i of [2, 3, 10, 17, 29]) {
        const c = all[i] as Confirmation;
        expect((await store.claim(c.id, { now: from + 1_100 })).ok).toBe(true);
        claimed.add(c.id);
      }
      const isPending = (c: Confirmation) => !claimed.has(c.id);
      const soon = from + 1_000 + 10 + 60_000;
      const cases: { query: ConfirmationQuery; expected: Confirmation[]; bounded: boolean }[] = [
        { query: { tool }, expected: all.filter((c) => c.tool === tool), bounded: true },
        { query: { tool: other }, expected: all.filter((c) => c.tool === other), bounded: true },
        {
          query: { tool, status: 'pending' },
          expected: all.filter((c) => c.tool === tool && isPending(c)),
          bounded: true,
        },
        {
          query: { tool, status: 'pending', expiresAfter: soon },
          expected: all.filter((c) => c.tool === tool && isPending(c) && Date.parse(c.expiresAt) > soon),
          bounded: true,
        },
        { query: { status: 'delivering' }, expected: all.filter((c) => !isPending(c)), bounded: false },
        { query: { status: 'pending' }, expected: all.filter(isPending), bounded: false },
        { query: {}, expected: all, bounded: false },
      ];
      // Unfiltered lists hold other cases' rows too: start just above this case's span, stop below it.
      const top = encodeCursor({ createdAt: to, order: '0' });
      const below = (c: Confirmation) => Date.parse(c.createdAt) < from;
      for (const { query, expected, bounded } of cases) {
        for (const limit of [1, 2, 3, 7, 100]) {
          const q = bounded ? { ...query, limit } : { ...query, limit, cursor: top };
          const { pages, cursors } = await walk(store, q, bounded ? undefined : below);
          const ids = pages.flat().map((c) => c.id);
          expect(ids, `${JSON.stringify(query)} limit ${limit}`).toEqual(newestFirst(expected));
          for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
          if (bounded) {
            // limit + 1 read: no empty page at the end, and only the last page lacks a cursor.
            expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
            expect(cursors.at(-1)).toBeUndefined();
            expect(cursors.slice(0, -1).every((c) => typeof c === 'string')).toBe(true);
          }
        }
      }
    });

    it('a confirmation created or decided between pages neither shifts nor repeats a page', async () => {
      const { from } = regionOf(1);
      const tool = `page.live${randomBytes(4).toString('hex')}`;
      const first: Confirmation[] = [];
      for (let i = 0; i < 12; i++) first.push(await create({ tool }, from + 1_000 + Math.floor(i / 2)));
      const order = newestFirst(first);
      const page1 = await store.list({ tool, status: 'pending', limit: 4 });
      expect(page1.confirmations.map((c) => c.id)).toEqual(order.slice(0, 4));
      // Meanwhile: newer ones, one in the same millisecond as the page's last (made later, so newer
      // than it), one older than all; and one on the next page is confirmed.
      const last = page1.confirmations.at(-1) as Confirmation;
      const newer = [
        await create({ tool }, from + 2_000),
        await create({ tool }, Date.parse(last.createdAt)),
      ];
      const older = await create({ tool }, from + 10);
      const decided = order[5] as string;
      expect((await store.claim(decided, { now: from + 1_050 })).ok).toBe(true);

      const rest = await walk(store, {
        tool,
        status: 'pending',
        limit: 4,
        cursor: page1.nextCursor as string,
      });
      const seen = rest.pages.flat().map((c) => c.id);
      expect(seen).toEqual([...order.slice(4).filter((id) => id !== decided), older.id]);
      expect(seen.some((id) => newer.some((c) => c.id === id))).toBe(false);
      // A fresh first page shows what came meanwhile.
      const fresh = await store.list({ tool, status: 'pending', limit: 2 });
      expect(fresh.confirmations.map((c) => c.id)).toEqual([newer[0]?.id, order[0]]);
      expect(fresh.nextCursor).toBeDefined();
    });

    it('clamps the limit and starts from the top for a cursor past every position', async () => {
      const { from } = regionOf(2);
      const tool = `page.clamp${randomBytes(4).toString('hex')}`;
      const made: Confirmation[] = [];
      for (let i = 0; i < 3; i++) made.push(await create({ tool }, from + i));
      const order = newestFirst(made);
      const zero = await store.list({ tool, limit: 0 });
      expect(zero.confirmations.map((c) => c.id)).toEqual(order.slice(0, 1));
      expect(zero.nextCursor).toBeDefined();
      expect((await store.list({ tool, limit: -4 })).confirmations).toHaveLength(1);
      expect((await store.list({ tool, limit: 2.9 })).confirmations.map((c) => c.id)).toEqual(
        order.slice(0, 2),
      );
      const unbounded = await store.list({ tool, limit: Number.NaN });
      expect(unbounded.confirmations.map((c) => c.id)).toEqual(order);
      expect(unbounded.nextCursor).toBeUndefined();
      const past = encodeCursor({ createdAt: Number.MAX_SAFE_INTEGER, order: '99999999999999999999' });
      expect((await store.list({ tool, cursor: past })).confirmations.map((c) => c.id)).toEqual(order);
      const floor = encodeCursor({ createdAt: 0, order: '0' });
      expect(await store.list({ tool, cursor: floor })).toEqual({ confirmations: [] });
    });

    it('refuses a cursor no store made (the registry refuses it first)', async () => {
      await expect(store.list({ cursor: 'not a cursor' })).rejects.toThrow();
    });

    it('pages more than the most one list returns', async () => {
      const { from } = regionOf(3);
      const tool = `page.max${randomBytes(4).toString('hex')}`;
      for (let i = 0; i < 1_001; i += 13) {
        await Promise.all(
          Array.from({ length: Math.min(13, 1_001 - i) }, (_, j) =>
            create({ tool }, from + Math.floor((i + j) / 10)),
          ),
        );
      }
      const page = await store.list({ tool, limit: 100_000 });
      expect(page.confirmations).toHaveLength(1_000);
      const next = await store.list({ tool, limit: 100_000, cursor: page.nextCursor as string });
      expect(next.confirmations).toHaveLength(1);
      expect(next.nextCursor).toBeUndefined();
      const ids = new Set([...page.confirmations, ...next.confirmations].map((c) => c.id));
      expect(ids.size).toBe(1_001);
    });
  });
}
