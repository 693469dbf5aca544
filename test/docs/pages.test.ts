// The docs site in both languages: every English page has its Chinese page, with the same headings at
// the same levels and the same code blocks in the same order (as the READMEs are kept in step).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsPages } from './doc-pages.js';

const docs = join(import.meta.dirname, '..', '..', 'docs');
// Already Chinese: the rest is English.
const english = docsPages()
  .map((path) => path.replace(/^docs\//, ''))
  .filter((path) => !path.startsWith('zh-CN/'));

/** Heading levels and code fences, in order: what both languages share. */
const shapeOf = (path: string) =>
  [...readFileSync(join(docs, path), 'utf8').matchAll(/^(#{1,6} |```\w*)/gm)].map((match) => match[1]);

describe('docs pages in both languages', () => {
  it('has the guide, integrations, runtimes and benchmark pages', () => {
    expect(english.length).toBeGreaterThanOrEqual(39);
    for (const page of [
      'guide/runtimes.md',
      'integrations/d1.md',
      'integrations/mcp-server.md',
      'agentdojo.md',
    ])
      expect(english).toContain(page);
  });

  it.each(english)('%s: a Chinese page with the same headings and code blocks', (page) => {
    const chinese = join('zh-CN', page);
    expect(existsSync(join(docs, chinese))).toBe(true);
    expect(shapeOf(chinese)).toEqual(shapeOf(page));
  });
});
