import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConfirmationStore, RunReadBounds, RunRecord, RunStore } from '../stores/store.js';
import { hasCapability } from '../stores/store-capabilities.js';
import { type StoreUnderTest, usesStore } from './contract-setup.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const HOUR = 3_600_000;
const BOUNDS: RunReadBounds = { now: T0 + 1, maxValues: 1_000, maxTextChars: 10_000 };

/** A new run started at `at`, for an hour unless told otherwise. */
function runRecord(overrides: Partial<RunRecord> = {}, at = T0): RunRecord {
  return {
    id: `run_${randomBytes(16).toString('hex')}`,
    request:
      'Pay the March rent to DE89 3704 0044 0532 0130 00 — 中文 🎉, quotes \' " \\, a NUL \u0000 and a\nline break',
    trusted: {
      payees: ['GB33BUKB20201555555555'],
      contacts: ['ana@example.com', 'li@example.com'],
      empty: [],
    },
    startedAt: at,
    expiresAt: at + HOUR,
    full: false,
    ...overrides,
  };
}

/** Agent runs (`RunStore`): begun, read in one read, fed one write per read, bounded, ended, pruned. */
export function runCases(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConfirmationStore contract, agent runs: ${name}`, () => {
    let store: ConfirmationStore;
    let subject: StoreUnderTest;
    usesStore(
      open,
      (opened, under) => {
        store = opened;
        subject = under;
      },
      'runs',
    );
    const runs = (): RunStore => {
      if (!hasCapability(store, 'runs')) throw new Error(`${name} has no runs`);
      return store;
    };
    const begun = async (overrides: Partial<RunRecord> = {}) => {
      const run = runRecord(overrides);
      await runs().beginRun(run, { maxRuns: 10_000 });
      return run;
    };
    const lookup = (keys: string[] = [], texts = false, now = T0 + 1) => ({ now, keys, texts });

    it('keeps a run as begun, with or without an actor, and finds no other', async () => {
      const run = await begun({ actor: 'agent-7' });
      expect(await runs().readRun(run.id, lookup())).toEqual({ run, read: [], texts: [] });
      const bare = await begun();
      const read = await runs().readRun(bare.id, lookup());
      expect(read?.run).toEqual(bare);
      expect(read !== undefined && 'actor' in read.run).toBe(false);
      expect(await runs().readRun('run_never_begun', lookup())).toBeUndefined();
      await expect(runs().beginRun(run, { maxRuns: 10_000 })).rejects.toThrow();
    });

    it('remembers each read whole, in one write, and gives back only the asked keys', async () => {
      const run = await begun();
      const inbox = {
        tool: 'inbox.read',
        keys: ['e:mallory@evil.test', 'v:hello'],
        texts: ['hello from mallory'],
      };
      const web = { tool: 'web.fetch', keys: ['e:mallory@evil.test', 'h:evil.test'], texts: [] };
      expect(await runs().rememberRead(run.id, inbox, BOUNDS)).toBe(true);
      expect(await runs().rememberRead(run.id, web, BOUNDS)).toBe(true);
      // The same read again changes nothing.
      expect(await runs().rememberRead(run.id, inbox, BOUNDS)).toBe(true);
      const read = await runs().readRun(run.id, lookup(['e:mallory@evil.test', 'h:nowhere.test']));
      expect(read?.read.map((r) => `${r.key} ${r.tool}`).sort()).toEqual([
        'e:mallory@evil.test inbox.read',
        'e:mallory@evil.test web.fetch',
      ]);
      expect(read?.texts).toEqual([]);
      const withTexts = await runs().readRun(run.id, lookup(['h:evil.test'], true));
      expect(withTexts?.read).toEqual([{ key: 'h:evil.test', tool: 'web.fetch' }]);
      expect(withTexts?.texts.map((t) => t.tool)).toEqual(['inbox.read', 'inbox.read']);
      expect(withTexts?.texts[0]).toEqual({ tool: 'inbox.read', text: 'hello from mallory' });
      const two = { tool: 'mail.read', keys: [], texts: ['first text', 'second text \u0000 中文'] };
      expect(await runs().rememberRead(run.id, two, BOUNDS)).toBe(true);
      const joined = await runs().readRun(run.id, lookup([], true));
      expect(joined?.texts).toContainEqual({
        tool: 'mail.read',
        text: 'first text\nsecond text \u0000 中文',
      });
    });

    it('keeps a long read whole: 700,000 characters of Chinese text come back as they went in', async () => {
      const run = await begun();
      const texts = Array.from({ length: 7 }, (_, i) => `第${i}段 ${'中文字'.repeat(33_333)}`);
      const read = { tool: 'long.read', keys: ['v:中文'], texts };
      expect(await runs().rememberRead(run.id, read, { ...BOUNDS, maxTextChars: 1_000_000 })).toBe(true);
      const back = await runs().readRun(run.id, lookup(['v:中文'], true));
      const kept = back?.texts.filter((t) => t.tool === 'long.read').map((t) => t.text);
      expect(kept?.join('\n')).toBe(texts.join('\n'));
    });

    it('forgets a run at its expiry and at endRun: nothing is read or remembered after', async () => {
      const run = await begun({ expiresAt: T0 + 1_000 });
      const read = { tool: 'inbox.read', keys: ['v:x'], texts: [] };
      expect(await runs().readRun(run.id, lookup([], false, T0 + 999))).toBeDefined();
      expect(await runs().readRun(run.id, lookup([], false, T0 + 1_000))).toBeUndefined();
      expect(await runs().rememberRead(run.id, read, { ...BOUNDS, now: T0 + 1_000 })).toBe(false);
      const ended = await begun();
      expect(await runs().rememberRead(ended.id, read, BOUNDS)).toBe(true);
      expect(await runs().endRun(ended.id)).toBe(true);
      expect(await runs().endRun(ended.id)).toBe(false);
      expect(await runs().readRun(ended.id, lookup(['v:x']))).toBeUndefined();
      expect(await runs().rememberRead(ended.id, read, BOUNDS)).toBe(false);
    });

    it('never keeps more than its bounds: a read that would pass them is refused whole, and the run is full', async () => {
      const run = await begun();
      const bounds = { ...BOUNDS, maxValues: 3, maxTextChars: 20 };
      expect(await runs().rememberRead(run.id, { tool: 'a', keys: ['v:1', 'v:2'], texts: [] }, bounds)).toBe(
        true,
      );
      expect(await runs().rememberRead(run.id, { tool: 'a', keys: ['v:3', 'v:4'], texts: [] }, bounds)).toBe(
        false,
      );
      expect(await runs().rememberRead(run.id, { tool: 'a', keys: ['v:5'], texts: [] }, bounds)).toBe(false);
      const read = await runs().readRun(run.id, lookup(['v:1', 'v:2', 'v:3', 'v:4', 'v:5']));
      expect(read?.run.full).toBe(true);
      expect(read?.read.map((r) => r.key).sort()).toEqual(['v:1', 'v:2']);

      const wordy = await begun();
      const text = (t: string) => ({ tool: 'b', keys: [], texts: [t] });
      expect(await runs().rememberRead(wordy.id, text('ten chars.'), bounds)).toBe(true);
      expect(await runs().rememberRead(wordy.id, text('eleven chars'), bounds)).toBe(false);
      const after = await runs().readRun(wordy.id, lookup([], true));
      expect(after?.run.full).toBe(true);
      expect(after?.texts).toEqual([{ tool: 'b', text: 'ten chars.' }]);
    });

    it('shares runs between two instances on one database: begun in one, fed and ended in the other', async ({
      skip,
    }) => {
      if (subject.another === undefined) {
        const why = `${name} gave no second instance (\`another\`), so runs shared between two instances are not tried`;
        console.warn(`[graded-tools/testing] skipping: ${why}`);
        return skip(why);
      }
      const other = await subject.another();
      if (!hasCapability(other, 'runs')) throw new Error(`the second instance of ${name} has no runs`);
      const run = await begun({ actor: 'agent-7' });
      expect((await other.readRun(run.id, lookup()))?.run).toEqual(run);
      const read = { tool: 'inbox.read', keys: ['e:mallory@evil.test'], texts: ['from mallory'] };
      expect(await other.rememberRead(run.id, read, BOUNDS)).toBe(true);
      const seen = await runs().readRun(run.id, lookup(['e:mallory@evil.test'], true));
      expect(seen?.read).toEqual([{ key: 'e:mallory@evil.test', tool: 'inbox.read' }]);
      expect(seen?.texts).toEqual([{ tool: 'inbox.read', text: 'from mallory' }]);
      expect(await other.endRun(run.id)).toBe(true);
      expect(await runs().readRun(run.id, lookup())).toBeUndefined();
    });

    it('prunes the runs expired at the sweep, with what their agents read, and keeps the live ones', async () => {
      const old = await begun({ startedAt: T0 - 2 * HOUR, expiresAt: T0 - HOUR });
      const read = { tool: 'inbox.read', keys: ['v:kept'], texts: ['some text'] };
      expect(await runs().rememberRead(old.id, read, { ...BOUNDS, now: T0 - 2 * HOUR })).toBe(true);
      const live = await begun();
      expect(await runs().rememberRead(live.id, read, BOUNDS)).toBe(true);
      expect(await runs().pruneRuns({ now: T0 })).toBeGreaterThanOrEqual(1);
      expect(await runs().readRun(old.id, lookup(['v:kept'], true, T0 - 2 * HOUR))).toBeUndefined();
      const kept = await runs().readRun(live.id, lookup(['v:kept'], true));
      expect(kept?.read).toEqual([{ key: 'v:kept', tool: 'inbox.read' }]);
      expect(kept?.texts).toEqual([{ tool: 'inbox.read', text: 'some text' }]);
    });
  });
}
