import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileSnippets } from './helpers/compile-snippets.js';

// The READMEs are what a new user copies: every TypeScript block compiles against the sources, and
// the quick start prints exactly what its comments say.
const root = join(import.meta.dirname, '..');
const outDir = join(root, '.tmp', 'readme-quick-start');
const readmes = ['README.md', 'README.zh-CN.md'];

const blocksOf = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );

describe('README', () => {
  // One TypeScript program over every block and the SDKs they import: slow on a busy machine.
  it('compiles every TypeScript block in both languages', { timeout: 360_000 }, () => {
    const snippets = readmes.flatMap((readme) =>
      blocksOf(readme).map((code, index) => ({ name: `${readme}_${index}`, code })),
    );
    expect(snippets.length).toBeGreaterThanOrEqual(6);
    expect(compileSnippets('readme', snippets)).toEqual([]);
  });

  it.each(readmes)('%s: the quick start prints what its comments promise', async (readme) => {
    const quickStart = blocksOf(readme)[0] ?? '';
    const promised = [...quickStart.matchAll(/^\/\/ ([[{].*)$/gm)].map((match) => match[1]);
    expect(promised.length).toBeGreaterThanOrEqual(3);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `quick-start-${readme.replace(/\W/g, '_')}.ts`);
    // One line per printed value, as the comments show them.
    writeFileSync(
      file,
      `import { inspect } from 'node:util';\ninspect.defaultOptions.breakLength = Infinity;\n${quickStart}`,
    );
    const { stdout } = await promisify(execFile)(join(root, 'node_modules', '.bin', 'tsx'), [file], {
      cwd: root,
      timeout: 30_000,
    });
    expect(stdout.trim().split('\n')).toEqual(promised);
  });
});

/** The text of one `## ` section: from its heading to the next `## `. */
const sectionOf = (file: string, heading: string) => {
  const text = readFileSync(join(root, file), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) return '';
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
};

describe('README: what a newcomer reads first', () => {
  const loops = [
    {
      readme: 'README.md',
      heading: 'From draft to decision',
      printed: /^Sent at \d{4}-\S+: a person approved it\.$/,
    },
    { readme: 'README.zh-CN.md', heading: '从草稿到决定', printed: /^已于 \d{4}-\S+ 发送：有人批准了它。$/ },
  ];

  it.each(readmes)(
    '%s: says why, with the console picture, before Install and before any contributor command',
    (readme) => {
      const text = readFileSync(join(root, readme), 'utf8');
      const install = text.search(/^## (Install|安装)$/m);
      expect(text.indexOf('](docs/console.png)')).toBeGreaterThan(0);
      expect(text.indexOf('](docs/console.png)')).toBeLessThan(install);
      expect(text.slice(0, install)).toMatch(/propos|提议/);
      // The contributor commands stay documented (CI runs them), below the concepts.
      const concepts = text.search(/^## (Concepts|概念)$/m);
      expect(text.indexOf('`npm test`')).toBeGreaterThan(concepts);
      expect(text.lastIndexOf('`npm start`')).toBeGreaterThan(concepts);
    },
  );

  it('keeps both languages in step: the same heading levels in the same order, the same code blocks', () => {
    const shape = (file: string) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/^(#{1,4} |```\w*)/gm)].map((match) => match[1]);
    expect(shape('README.zh-CN.md')).toEqual(shape('README.md'));
  });

  it.each(loops)(
    '$readme: the "$heading" block runs the loop and prints the decision',
    async ({ readme, heading, printed }) => {
      const block = /```ts\n([\s\S]*?)```/.exec(sectionOf(readme, heading))?.[1] ?? '';
      expect(block).toContain('registry.propose(');
      expect(block).toContain('registry.confirmations.waitFor(');
      mkdirSync(outDir, { recursive: true });
      const file = join(outDir, `draft-to-decision-${readme.replace(/\W/g, '_')}.ts`);
      writeFileSync(file, block);
      const { stdout } = await promisify(execFile)(join(root, 'node_modules', '.bin', 'tsx'), [file], {
        cwd: root,
        timeout: 30_000,
      });
      expect(stdout.trim()).toMatch(printed);
    },
  );
});

describe('README links', () => {
  /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
  const anchorsOf = (text: string) => {
    const seen = new Map<string, number>();
    const anchors = new Set<string>();
    const outsideCode = text.replace(/```[\s\S]*?```/g, '');
    for (const [, heading = ''] of outsideCode.matchAll(/^#{1,6} (.+)$/gm)) {
      const slug = heading
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    return anchors;
  };

  it.each(readmes)('%s: every #link names a heading, and every linked file exists', (readme) => {
    const text = readFileSync(join(root, readme), 'utf8');
    const anchors = anchorsOf(text);
    const links = [...text.matchAll(/\]\((#[^)\s]+|\.\/[^)#\s]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(10);
    const broken = links.filter((link) =>
      link.startsWith('#') ? !anchors.has(decodeURIComponent(link.slice(1))) : !existsSync(join(root, link)),
    );
    expect(broken).toEqual([]);
  });
});
