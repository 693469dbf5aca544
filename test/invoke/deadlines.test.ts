import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** A read tool with its own timeout, whose run is whatever the test says. */
function readTool(name: string, timeoutMs: number, body: (signal: AbortSignal) => unknown) {
  return {
    name,
    description: 'x',
    sideEffect: 'read' as const,
    inputSchema: { type: 'object' },
    timeoutMs,
    run: (_input: unknown, ctx: { readonly signal: AbortSignal }) => body(ctx.signal),
  };
}

const never = () => new Promise<never>(() => {});

// Through the public API, and without wall-clock windows: what is asserted is which calls time out
// and in which order they answer, never how many milliseconds that took, so a loaded machine that
// fires every timer late still passes (timers of one process fire in deadline order).
describe('timeouts (registry.invoke with timeoutMs)', () => {
  it('times out concurrent calls with different timeouts independently, in timeout order', async () => {
    const answered: string[] = [];
    let bothTimedOut: () => void = () => {};
    const slowOnesDone = new Promise<void>((resolve) => {
      bothTimedOut = resolve;
    });
    const registry = new ToolRegistry()
      .register(readTool('b.slow', 300, never))
      .register(readTool('a.slow', 15, never))
      // Answers only once both slow calls have timed out: its own minute is never reached.
      .register(readTool('c.patient', 60_000, () => slowOnesDone.then(() => 'done')));
    const call = (name: string) =>
      registry.invoke(name, {}).then((result) => {
        answered.push(`${name} ${result.ok ? 'ok' : result.code}`);
        if (answered.length === 2) bothTimedOut();
        return result;
      });
    const results = await Promise.all(['c.patient', 'b.slow', 'a.slow'].map(call));
    expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual(['ok', 'TIMEOUT', 'TIMEOUT']);
    expect(answered).toEqual(['a.slow TIMEOUT', 'b.slow TIMEOUT', 'c.patient ok']);
    expect(results[0]).toMatchObject({ ok: true, data: 'done' });
  });

  it('aborts the signal of a call that timed out, and never that of one that answered in time', async () => {
    const signals = new Map<string, AbortSignal>();
    const registry = new ToolRegistry()
      .register(
        readTool('quick.answer', 10, (signal) => {
          signals.set('quick', signal);
          return Promise.resolve('in time');
        }),
      )
      .register(
        readTool('late.answer', 10, (signal) => {
          signals.set('late', signal);
          return never();
        }),
      )
      .register(readTool('long.wait', 80, never));
    await expect(registry.invoke('quick.answer', {})).resolves.toMatchObject({ ok: true, data: 'in time' });
    const late = await registry.invoke('late.answer', {});
    expect(late).toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(signals.get('late')?.aborted).toBe(true);
    // By the time a longer timeout has fired, the quick call's own 10 ms have long passed.
    await expect(registry.invoke('long.wait', {})).resolves.toMatchObject({ code: 'TIMEOUT' });
    expect(signals.get('quick')?.aborted).toBe(false);
  });

  it('lets a call that answers just before a shorter one times out keep its answer', async () => {
    let release: () => void = () => {};
    const registry = new ToolRegistry()
      .register(
        readTool(
          'held.call',
          60_000,
          () =>
            new Promise((resolve) => {
              release = () => resolve('released');
            }),
        ),
      )
      .register(readTool('short.call', 5, never));
    const held = registry.invoke('held.call', {});
    const short = await registry.invoke('short.call', {});
    expect(short).toMatchObject({ code: 'TIMEOUT' });
    release();
    await expect(held).resolves.toMatchObject({ ok: true, data: 'released' });
  });

  it('never keeps an idle process alive, and keeps a waiting one alive until the timeout answers', async () => {
    const script = join(root, 'test', 'fixtures', 'exit-after-call.ts');
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    // With a 60 s default timeout, a referenced timer would hold this process for a minute; the
    // 20 s limit below is a bound for a broken build, not a window a slow machine has to meet.
    const fast = await run(tsx, [script, 'fast'], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(fast.stdout)).toEqual({ ok: true });
    const hang = await run(tsx, [script, 'hang'], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(hang.stdout)).toEqual({ code: 'TIMEOUT' });
  });
});
