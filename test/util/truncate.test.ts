import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateText, truncationMarker } from '../../src/util/truncate.js';

describe('truncateText', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateText('hello', 5)).toBe('hello');
  });

  it('cuts to the limit, marker included, saying how much was left out', () => {
    const text = 'x'.repeat(1_000);
    const cut = truncateText(text, 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    const kept = cut.indexOf('…');
    expect(cut.slice(kept)).toBe(truncationMarker(1_000 - kept));
  });

  it('never exceeds the limit, keeps a prefix and never splits a surrogate pair (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 600 }),
        fc.integer({ min: 60, max: 400 }),
        (text, max) => {
          const cut = truncateText(text, max);
          expect(cut.length).toBeLessThanOrEqual(max);
          if (text.length <= max) {
            expect(cut).toBe(text);
            return;
          }
          const marker = cut.lastIndexOf('…[truncated: ');
          const kept = cut.slice(0, marker);
          expect(text.startsWith(kept)).toBe(true);
          expect(cut.slice(marker)).toBe(truncationMarker(text.length - kept.length));
          expect(() => encodeURIComponent(kept)).not.toThrow();
        },
      ),
    );
  });
});
