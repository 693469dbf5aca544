import { ToolRegistry } from 'graded-tools';
import { describe, expect, it } from 'vitest';
import { resolveAdapterOptions } from '../../../src/adapters/core/options.js';
import { createFrameworkRunner } from '../../../src/adapters/core/run-call.js';

function registryWith(run: (input: { n: number }, signal: AbortSignal | undefined) => unknown) {
  return new ToolRegistry().register({
    name: 'job.run',
    description: 'Run a job.',
    sideEffect: 'read',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    run: (input: { n: number }, { signal }) => run(input, signal),
  });
}

describe('createFrameworkRunner', () => {
  it('answers results and refusals as the text the model reads, with the result for the app', async () => {
    const runCall = createFrameworkRunner(
      registryWith(({ n }) => ({ n })),
      {},
      resolveAdapterOptions({ maxResultChars: 300 }),
    );
    expect(await runCall('job__run', { n: 1 })).toEqual({
      result: { ok: true, data: { n: 1 } },
      text: '{"n":1}',
    });
    const invalid = await runCall('job__run', { n: 'one' });
    expect(invalid.result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(JSON.parse(invalid.text)).toMatchObject({ error: { code: 'INVALID_INPUT', message: /\/n/ } });
    const unknown = await runCall('job__delete', {});
    expect(JSON.parse(unknown.text)).toMatchObject({ error: { code: 'UNKNOWN_TOOL' } });
  });

  it('hands the framework’s call id to the registry as ctx.callId, and leaves ctx alone without one', async () => {
    const registry = registryWith(({ n }) => ({ n }));
    const seen: unknown[] = [];
    const spy = new Proxy(registry, {
      get(target, key) {
        if (key === 'invokeReadOnly')
          return (name: string, args: unknown, ctx: { callId?: string }) => {
            seen.push(ctx.callId);
            return target.invokeReadOnly(name, args, ctx);
          };
        // Read on the registry itself: its private fields are not the proxy's.
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runCall = createFrameworkRunner(spy, { scope: 'desk' }, resolveAdapterOptions({}));
    await runCall('job__run', { n: 1 }, undefined, 'call_1');
    await runCall('job__run', { n: 2 });
    expect(seen).toEqual(['call_1', undefined]);
  });

  it('runs at most `concurrency` calls of one set at once', async () => {
    let running = 0;
    let most = 0;
    const registry = registryWith(async ({ n }) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return n;
    });
    const runCall = createFrameworkRunner(registry, {}, resolveAdapterOptions({ concurrency: 2 }));
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => runCall('job__run', { n })));
    expect(answers.map((answer) => answer.text)).toEqual(['1', '2', '3', '4', '5']);
    expect(most).toBe(2);
  });

  it("hands the tool a signal that aborts when the framework's or the context's does", async () => {
    const registry = registryWith(
      (_input, signal) =>
        new Promise((resolve) => {
          if (signal?.aborted) resolve('aborted');
          signal?.addEventListener('abort', () => resolve('aborted'));
          setTimeout(() => resolve('ran out'), 2_000);
        }),
    );
    const own = new AbortController();
    const framework = new AbortController();
    const runCall = createFrameworkRunner(registry, { signal: own.signal }, resolveAdapterOptions());
    const byFramework = runCall('job__run', { n: 1 }, framework.signal);
    setTimeout(() => framework.abort(), 10);
    expect((await byFramework).result).toMatchObject({ ok: false, code: 'ABORTED' });
    const byContext = runCall('job__run', { n: 1 });
    setTimeout(() => own.abort(), 10);
    expect((await byContext).result).toMatchObject({ ok: false, code: 'ABORTED' });
  });

  it('never rejects, even when a custom registry throws', async () => {
    const registry = registryWith(() => 'ok');
    registry.invokeReadOnly = () => {
      throw new Error('broken registry');
    };
    const runCall = createFrameworkRunner(registry, {}, resolveAdapterOptions());
    const answer = await runCall('job__run', { n: 1 });
    expect(answer.result).toMatchObject({ ok: false, code: 'RUN_FAILED' });
    expect(answer.text).toMatch(/broken registry/);
  });
});
