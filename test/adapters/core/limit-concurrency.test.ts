import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../src/adapters/core/limit-concurrency.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('never runs more than the limit, even when newcomers arrive as a place frees', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
      // A newcomer on every finish, racing the task waiting in line.
      if (n < 20) void limit(task(n + 100));
      return n;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => limit(task(n))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(most).toBe(2);
    expect(started.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('frees the place of a task that throws or rejects', async () => {
    const limit = createLimiter(1);
    await expect(
      limit(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(limit(() => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(await limit(async () => 'free')).toBe('free');
  });
});
