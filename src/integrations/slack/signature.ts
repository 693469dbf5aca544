import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now: Slack's own five minutes. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** Why a request is not Slack's, or that it is. */
export type SignatureVerdict = 'ok' | 'unsigned' | 'bad-signature' | 'stale';

/**
 * Slack's request signing: `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256, keyed by the app's
 * signing secret, of `v0:{X-Slack-Request-Timestamp}:{the raw body}`. Compared in constant time;
 * the timestamp must be within five minutes of `nowMs`, so a captured request cannot be sent later.
 *
 * @example
 * ```ts
 * import { createHmac } from 'node:crypto';
 * import { verifySlackSignature } from 'graded-tools/slack';
 *
 * const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
 * const body = 'payload=%7B%7D';
 * const timestamp = String(Math.floor(Date.now() / 1000));
 * const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
 * verifySlackSignature({ signingSecret, timestamp, signature, body, nowMs: Date.now() }); // 'ok'
 * ```
 */
export function verifySlackSignature(request: {
  readonly signingSecret: string;
  readonly timestamp: string | null;
  readonly signature: string | null;
  /** The raw body, as it arrived (a string is taken as its UTF-8 bytes). */
  readonly body: string | Uint8Array;
  readonly nowMs: number;
}): SignatureVerdict {
  const { timestamp, signature } = request;
  if (timestamp === null || signature === null || !/^\d{1,12}$/.test(timestamp)) return 'unsigned';
  const hmac = createHmac('sha256', request.signingSecret).update(`v0:${timestamp}:`).update(request.body);
  const expected = Buffer.from(`v0=${hmac.digest('hex')}`);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
  const skew = Math.abs(Math.floor(request.nowMs / 1000) - Number(timestamp));
  return skew > SIGNATURE_WINDOW_SECONDS ? 'stale' : 'ok';
}
