import { getEventListeners } from 'node:events';
import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { CallSignals } from '../../../src/adapters/mcp/call-signals.js';

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('CallSignals', () => {
  it('aborts a call still running when its request aborts, before or after the turn ends', async () => {
    const signals = new CallSignals();
    const early = new AbortController();
    const late = new AbortController();
    const a = signals.follow(early.signal, undefined);
    const b = signals.follow(late.signal, undefined);
    early.abort('cancelled');
    await endOfTurn();
    expect(a.signal.aborted).toBe(true);
    expect(a.signal.reason).toBe('cancelled');
    expect(b.signal.aborted).toBe(false);
    late.abort('closed');
    expect(b.signal.reason).toBe('closed');
    a.release();
    b.release();
  });

  it("follows the app's signal too, and hands out an already aborted one as it is", async () => {
    const signals = new CallSignals();
    const app = new AbortController();
    const call = signals.follow(new AbortController().signal, app.signal);
    await endOfTurn();
    app.abort('app stopped');
    expect(call.signal.reason).toBe('app stopped');
    const gone = AbortSignal.abort('gone');
    expect(signals.follow(gone, undefined).signal).toBe(gone);
    // Not a signal at all: handed on as it is, for the registry to refuse.
    const odd = { aborted: false } as unknown as AbortSignal;
    expect(signals.follow(new AbortController().signal, odd).signal).toBe(odd);
  });

  it('reuses the signal of a finished call without passing on an abort meant for another', async () => {
    const signals = new CallSignals();
    const first = signals.follow(new AbortController().signal, undefined);
    const reused = first.signal;
    first.release();
    const request = new AbortController();
    const second = signals.follow(request.signal, undefined);
    expect(second.signal).toBe(reused);
    await endOfTurn();
    second.release();
    // Released: its request aborting later reaches nobody, and the signal can serve a third call.
    request.abort();
    expect(reused.aborted).toBe(false);
    const cancelled = new AbortController();
    const third = signals.follow(cancelled.signal, undefined);
    await endOfTurn();
    cancelled.abort();
    expect(third.signal.aborted).toBe(true);
    third.release();
    expect(signals.follow(new AbortController().signal, undefined).signal).not.toBe(third.signal);
  });

  it('relies on the registry leaving no listener on a signal once the call is answered', async () => {
    // A pooled signal serves call after call: a listener left behind would pile up on it.
    const registry = new ToolRegistry().register({
      name: 'kb.search',
      description: 'Search.',
      sideEffect: 'read',
      inputSchema: { type: 'object' },
      run: async (_input: unknown, runContext: { signal: AbortSignal }) => runContext.signal.aborted,
    });
    const signals = new CallSignals();
    const request = new AbortController();
    for (let i = 0; i < 20; i += 1) {
      const call = signals.follow(request.signal, undefined);
      expect(await registry.invokeReadOnly('kb__search', {}, { signal: call.signal })).toEqual({
        ok: true,
        data: false,
      });
      expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
      call.release();
    }
  });
});
