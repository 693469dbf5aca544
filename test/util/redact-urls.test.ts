import { describe, expect, it } from 'vitest';
import { redactUrls } from '../../src/util/redact-urls.js';

describe('redactUrls', () => {
  it('masks userinfo and query values in every URL of a text, and leaves the rest', () => {
    const text =
      'Request cannot be constructed from a URL that includes credentials: https://ana:hunter2@hooks.example/a?token=s3cret&x=1#top; then smtp://mail:pw@smtp.example:587 too';
    const redacted = redactUrls(text);
    expect(redacted).toBe(
      'Request cannot be constructed from a URL that includes credentials: https://***@hooks.example/a?token=***&x=***#top; then smtp://***@smtp.example:587 too',
    );
    expect(redacted).not.toMatch(/hunter2|s3cret|pw@/);
  });

  it('leaves a text without URLs alone', () => {
    expect(redactUrls('HTTP 500: try again at 10:00')).toBe('HTTP 500: try again at 10:00');
  });
});
