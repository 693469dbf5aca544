import { join } from 'node:path';
import { createSqliteStore } from 'graded-tools/sqlite';
import { pendingConfirmation } from 'graded-tools/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../../helpers/app-process.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { heardNotices, pause } from './notices.js';

const dir = tempDir();
afterAll(() => dir.remove());
const T = Date.parse('2030-01-01T00:00:00.000Z');

describe('createSqliteStore: watch', () => {
  it("hears another connection's commit as 'read again', and not its own writes", async () => {
    const path = join(dir.path, 'two-connections.db');
    const watching = createSqliteStore({ path, watchIntervalMs: 20 });
    const writing = createSqliteStore({ path });
    const notices = heardNotices();
    const unwatch = watching.watch(notices.listener);

    await watching.create(pendingConfirmation({}, T));
    await pause(200);
    expect(notices.heard).toEqual([]);

    const original = pendingConfirmation({}, T);
    const heard = notices.next();
    await writing.create(original);
    expect(await heard).toEqual({});
    // What the notice says to do: read again, and the other connection's confirmation is there.
    expect(await watching.get(original.id)).toEqual(original);

    const claimed = notices.next();
    await writing.claim(original.id, { now: T + 1, by: 'lead-2' });
    await claimed;

    unwatch();
    const count = notices.heard.length;
    await writing.reject((await writing.list({ status: 'pending' })).confirmations[0]?.id ?? '', {
      now: T + 2,
      by: 'x',
    });
    await pause(200);
    expect(notices.heard).toHaveLength(count);
    watching.close();
    writing.close();
  });

  it('hears a confirmation another OS process asked for', async () => {
    const path = join(dir.path, 'two-processes.db');
    const watching = createSqliteStore({ path, watchIntervalMs: 50 });
    const notices = heardNotices();
    watching.watch(notices.listener);
    const heard = notices.next(undefined, 120_000);
    const app = startApp({
      mode: 'invoke',
      store: { kind: 'sqlite', path },
      deliveries: { kind: 'file', path: join(dir.path, 'deliveries.txt') },
    });
    const { id } = await app.waitFor<{ id: string }>('id');
    expect((await app.exited).code).toBe(0);
    expect(await heard).toEqual({});
    const listed = await watching.list({ status: 'pending' });
    expect(listed.confirmations.map((c) => c.id)).toContain(id);
    watching.close();
  }, 180_000);

  it('calls every listener once per change with one timer, survives one that throws, stops on close', async () => {
    const path = join(dir.path, 'listeners.db');
    const watching = createSqliteStore({ path, watchIntervalMs: 20 });
    const writing = createSqliteStore({ path });
    const first = heardNotices();
    const second = heardNotices();
    watching.watch(() => {
      throw new Error('a listener that fails');
    });
    watching.watch(first.listener);
    const unwatchSecond = watching.watch(second.listener);
    const both = Promise.all([first.next(), second.next()]);
    await writing.create(pendingConfirmation({}, T));
    await both;
    await pause(100);
    // One commit, one notice each: the version is read once per interval for all of them.
    expect(first.heard).toHaveLength(1);
    expect(second.heard).toHaveLength(1);
    unwatchSecond();
    unwatchSecond();
    const again = first.next();
    await writing.create(pendingConfirmation({}, T));
    await again;
    expect(second.heard).toHaveLength(1);

    watching.close();
    await writing.create(pendingConfirmation({}, T));
    await pause(150);
    expect(first.heard).toHaveLength(2);
    // Watching a closed store is a no-op, not a crash.
    const late = heardNotices();
    watching.watch(late.listener)();
    writing.close();
  });

  it('checks watchIntervalMs', () => {
    const path = join(dir.path, 'interval.db');
    for (const watchIntervalMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createSqliteStore({ path, watchIntervalMs })).toThrow(RangeError);
    }
  });
});
