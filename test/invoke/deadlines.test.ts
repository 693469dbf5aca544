import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { Deadlines, Expiring } from '../../src/invoke/deadlines.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

class Waiting extends Expiring {
  expired = false;
  constructor(readonly deadline: number) {
    super();
  }
  override expire(): void {
    this.expired = true;
  }
}

describe('Deadlines (one timer for every pending call)', () => {
  it('expires what is due, keeps the rest, and forgets what was unwatched', async () => {
    const deadlines = new Deadlines();
    const now = deadlines.now();
    const soon = new Waiting(now + 10);
    const later = new Waiting(now + 60);
    const cancelled = new Waiting(now + 5);
    const never = new Waiting(now + 60_000);
    for (const entry of [later, soon, cancelled, never]) deadlines.watch(entry);
    deadlines.unwatch(cancelled);
    expect(deadlines.size).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect([soon.expired, later.expired, cancelled.expired]).toEqual([true, false, false]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(later.expired).toBe(true);
    expect(deadlines.size).toBe(1);
    deadlines.unwatch(never);
    deadlines.unwatch(never);
    expect(deadlines.size).toBe(0);
  });

  it('in deadline order, expires the due ones from the front and keeps every later one', async () => {
    const deadlines = new Deadlines({ ordered: true, keepAlive: false });
    const now = deadlines.now();
    const entries = [5, 10, 15, 60_000].map((ms) => new Waiting(now + ms));
    for (const entry of entries) deadlines.watch(entry);
    deadlines.unwatch(entries[1] as Waiting);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(entries.map((e) => e.expired)).toEqual([true, false, true, false]);
    expect(deadlines.size).toBe(1);
    deadlines.unwatch(entries[3] as Waiting);
  });

  it('times out concurrent calls with different timeouts independently', async () => {
    const registry = new ToolRegistry();
    for (const [name, timeoutMs] of [
      ['a.slow', 15],
      ['b.slow', 40],
      ['c.fast', 1_000],
    ] as const) {
      registry.register({
        name,
        description: 'x',
        sideEffect: 'read',
        inputSchema: { type: 'object' },
        timeoutMs,
        run: () =>
          new Promise((resolve) => (name === 'c.fast' ? setTimeout(() => resolve('done'), 20) : undefined)),
      });
    }
    const results = await Promise.all(
      ['a.slow', 'b.slow', 'c.fast'].map((name) => registry.invoke(name, {})),
    );
    expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual(['TIMEOUT', 'TIMEOUT', 'ok']);
  });

  it('never keeps an idle process alive, and keeps a waiting one alive until the timeout answers', async () => {
    const script = join(root, 'test', 'fixtures', 'exit-after-call.ts');
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    // With a 60 s default timeout, a referenced timer would hold this process for a minute.
    const fast = await run(tsx, [script, 'fast'], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(fast.stdout)).toEqual({ ok: true });
    const hang = await run(tsx, [script, 'hang'], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(hang.stdout)).toEqual({ code: 'TIMEOUT' });
  });
});
