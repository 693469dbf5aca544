import { createHmac } from 'node:crypto';
import { verifySlackSignature } from 'graded-tools/slack';
import { describe, expect, it } from 'vitest';

const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
const sign = (timestamp: string, body: string | Uint8Array) =>
  `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;

describe('verifySlackSignature', () => {
  const nowMs = Date.parse('2030-01-01T00:00:00Z');
  const timestamp = String(nowMs / 1000);
  const body = 'payload=%7B%22type%22%3A%22block_actions%22%7D';

  it('takes Slack’s signature over the raw bytes within five minutes either way', () => {
    expect(
      verifySlackSignature({ signingSecret, timestamp, signature: sign(timestamp, body), body, nowMs }),
    ).toBe('ok');
    const bytes = new Uint8Array([0x70, 0xff, 0xfe]); // not UTF-8: signed as the bytes that arrived
    expect(
      verifySlackSignature({
        signingSecret,
        timestamp,
        signature: sign(timestamp, bytes),
        body: bytes,
        nowMs,
      }),
    ).toBe('ok');
    const edge = String(nowMs / 1000 - 300);
    expect(
      verifySlackSignature({ signingSecret, timestamp: edge, signature: sign(edge, body), body, nowMs }),
    ).toBe('ok');
    const late = String(nowMs / 1000 + 301);
    expect(
      verifySlackSignature({ signingSecret, timestamp: late, signature: sign(late, body), body, nowMs }),
    ).toBe('stale');
  });

  it('refuses a changed body, another secret, a malformed or missing header', () => {
    const signature = sign(timestamp, body);
    expect(verifySlackSignature({ signingSecret, timestamp, signature, body: `${body}x`, nowMs })).toBe(
      'bad-signature',
    );
    expect(verifySlackSignature({ signingSecret: 'other', timestamp, signature, body, nowMs })).toBe(
      'bad-signature',
    );
    expect(verifySlackSignature({ signingSecret, timestamp, signature: 'v0=abc', body, nowMs })).toBe(
      'bad-signature',
    );
    expect(verifySlackSignature({ signingSecret, timestamp: null, signature, body, nowMs })).toBe('unsigned');
    expect(verifySlackSignature({ signingSecret, timestamp: '1e9', signature, body, nowMs })).toBe(
      'unsigned',
    );
    expect(verifySlackSignature({ signingSecret, timestamp, signature: null, body, nowMs })).toBe('unsigned');
  });
});
