import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createSqliteStore } from 'graded-tools/sqlite';
import { pendingConfirmation } from 'graded-tools/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** A confirmation stored, then its `about` text set by hand, read back through the store. */
async function readWithAbout(about: string | null) {
  const path = join(dir.path, `origins-${Math.random().toString(36).slice(2)}.db`);
  const store = createSqliteStore({ path });
  const original = pendingConfirmation({ note: 'kept' });
  await store.create(original);
  const db = new BetterSqlite3(path);
  db.prepare('UPDATE graded_tools_confirmations SET about = ? WHERE id = ?').run(about, original.id);
  db.close();
  const read = await store.get(original.id);
  store.close();
  return { original, read };
}

describe('origins in the SQL `about` column', () => {
  it('reads a row written before origins existed as one without them', async () => {
    const { original, read } = await readWithAbout(JSON.stringify({ note: 'kept', ref: 'r-1' }));
    expect(read).toEqual({ ...original, ref: 'r-1' });
    expect(read !== undefined && 'origins' in read).toBe(false);
  });

  it('keeps only the documented shape of stored origins, dropping the rest without failing', async () => {
    const origins = {
      to: [
        { from: 'tool', tool: 'inbox.read', extra: 'dropped' },
        { from: 'tool' },
        { from: 'elsewhere' },
        'request',
        { from: 'request', tool: 'not on a request' },
        { from: 'none' },
      ],
      cc: 'not a list',
      '': [{ from: 'request' }],
    };
    const { read } = await readWithAbout(JSON.stringify({ note: 'kept', origins }));
    expect(read?.note).toBe('kept');
    expect(read?.origins).toEqual({
      to: [{ from: 'tool', tool: 'inbox.read' }, { from: 'request' }, { from: 'none' }],
    });
  });

  it('drops origins that are not an object at all', async () => {
    for (const origins of [null, 'to', 7, [{ from: 'request' }], { cc: 1 }]) {
      const { read } = await readWithAbout(JSON.stringify({ note: 'kept', origins }));
      expect(read?.note).toBe('kept');
      expect(read?.origins).toBeUndefined();
    }
  });
});
