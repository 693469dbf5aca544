import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorJson, toToolReply } from '../../../src/adapters/core/tool-reply.js';

describe('toToolReply', () => {
  it('sends data as JSON text', () => {
    expect(toToolReply({ ok: true, data: { a: [1, 'b'] } }, 't__x', 1_000, undefined)).toEqual({
      ok: true,
      text: '{"a":[1,"b"]}',
      truncated: false,
    });
  });

  it.each([
    ['a BigInt', { n: 1n }],
    [
      'a cycle',
      (() => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      })(),
    ],
    [
      'a throwing toJSON',
      {
        toJSON: () => {
          throw new Error('nope');
        },
      },
    ],
    ['a function', () => 1],
  ])('turns %s into RUN_FAILED instead of throwing', (_label, data) => {
    const reply = toToolReply({ ok: true, data }, 't__x', 1_000, 'zh-CN');
    expect(reply).toMatchObject({ ok: false, code: 'RUN_FAILED' });
    expect(!reply.ok && reply.message).toContain('t__x');
  });

  it('passes failures through with their code, cut to the limit', () => {
    const reply = toToolReply(
      { ok: false, code: 'INVALID_INPUT', error: 'y'.repeat(500) },
      't',
      200,
      undefined,
    );
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.message.length).toBeLessThanOrEqual(200);
  });
});

describe('errorJson', () => {
  it('stays valid JSON within the limit, however the message escapes (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), fc.integer({ min: 200, max: 1_500 }), (message, max) => {
        const text = errorJson('INVALID_INPUT', message, max);
        expect(text.length).toBeLessThanOrEqual(max);
        const parsed = JSON.parse(text);
        expect(parsed.error.code).toBe('INVALID_INPUT');
        if (JSON.stringify({ error: { code: 'INVALID_INPUT', message } }).length <= max)
          expect(parsed.error.message).toBe(message);
      }),
    );
  });
});
