import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  MAX_BACKOFF_MS,
  parseRetryAfter,
  retryPolicy,
  sendWithRetries,
} from '../../src/notify/retry-policy.js';

describe('backoffDelay', () => {
  it('doubles each retry, with jitter in the upper half, and never passes the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (backoffMs, retry, random) => {
          const ceiling = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (retry - 1));
          const delay = backoffDelay({ retries: 3, backoffMs }, retry, () => random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(Math.ceil(ceiling));
        },
      ),
    );
    expect(backoffDelay({ retries: 3, backoffMs: 500 }, 1, () => 0)).toBe(250);
    expect(backoffDelay({ retries: 3, backoffMs: 500 }, 3, () => 0.999_999)).toBe(2000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-12-01T14:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Dec 2026 14:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 13:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('retryPolicy', () => {
  it('takes defaults and refuses nonsense', () => {
    expect(retryPolicy('x', {}, { retries: 3, backoffMs: 500 })).toEqual({ retries: 3, backoffMs: 500 });
    expect(retryPolicy('x', { retries: 0 }, { retries: 3, backoffMs: 500 })).toEqual({
      retries: 0,
      backoffMs: 500,
    });
    expect(() => retryPolicy('x', { retries: 1.5 }, { retries: 3, backoffMs: 500 })).toThrow(/retries/);
    expect(() => retryPolicy('x', { backoffMs: Number.NaN }, { retries: 3, backoffMs: 500 })).toThrow(
      /backoffMs/,
    );
  });
});

describe('sendWithRetries', () => {
  it('tries 1 + retries times at most, and stops at the first final answer', async () => {
    let calls = 0;
    const retried = await sendWithRetries({
      channel: 'test',
      noticeId: 'n',
      policy: { retries: 4, backoffMs: 0 },
      options: undefined,
      attempt: async () => {
        calls += 1;
        return { ok: false, error: `try ${calls}`, retry: true };
      },
    });
    expect(retried).toEqual({ ok: false, error: 'try 5' });
    expect(calls).toBe(5);

    calls = 0;
    const final = await sendWithRetries({
      channel: 'test',
      noticeId: 'n',
      policy: { retries: 4, backoffMs: 0 },
      options: undefined,
      attempt: async () => {
        calls += 1;
        return { ok: false, error: 'no', retry: false };
      },
    });
    expect(final).toEqual({ ok: false, error: 'no' });
    expect(calls).toBe(1);
  });

  it('makes no attempt under a signal already aborted', async () => {
    let calls = 0;
    const result = await sendWithRetries({
      channel: 'test',
      noticeId: 'n',
      policy: { retries: 4, backoffMs: 0 },
      options: { signal: AbortSignal.abort(new Error('closing')) },
      attempt: async () => {
        calls += 1;
        return { ok: true };
      },
    });
    expect(result).toEqual({ ok: false, error: 'aborted: closing' });
    expect(calls).toBe(0);
  });
});
