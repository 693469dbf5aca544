import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { docsPages } from './docs/doc-pages.js';
import { compileSnippets } from './helpers/compile-snippets.js';

// The READMEs and the docs pages are what a new user copies: every TypeScript block compiles against
// the sources, and the quick start prints exactly what its comments say.
const root = join(import.meta.dirname, '..');
const outDir = join(root, '.tmp', 'readme-quick-start');
const readmes = ['README.md', 'README.zh-CN.md'];

const blocksOf = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  );

describe('README and docs', () => {
  // One TypeScript program over every block and the SDKs they import: slow on a busy machine.
  it('compiles every TypeScript block of the READMEs and the docs pages, in both languages', {
    timeout: 360_000,
  }, () => {
    const pages = docsPages();
    expect(pages.length).toBeGreaterThanOrEqual(70);
    const snippets = [...readmes, ...pages].flatMap((file) =>
      blocksOf(file).map((code, index) => ({ name: `${file}_${index}`, code })),
    );
    expect(snippets.length).toBeGreaterThanOrEqual(100);
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
      // The contributor commands stay documented (CI runs them), in the last section, after what a user reads.
      const development = text.search(/^## (Development|开发)$/m);
      expect(development).toBeGreaterThan(text.search(/^## (Where to go next|下一步)$/m));
      expect(text.indexOf('\n## ', development + 1)).toBe(-1);
      expect(text.slice(development)).toContain('`npm test`');
      expect(text.slice(development)).toContain('`npm start`');
    },
  );

  it.each([
    {
      readme: 'README.md',
      headings: [
        'Install',
        'Quick start',
        'From draft to decision',
        'Approvals you can prove',
        'Runtimes',
        'Where to go next',
        'Development',
      ],
    },
    {
      readme: 'README.zh-CN.md',
      headings: ['安装', '快速上手', '从草稿到决定', '可证明的批准', '运行时', '下一步', '开发'],
    },
  ])('$readme: a short landing, its sections in order, the rest in the docs', ({ readme, headings }) => {
    const text = readFileSync(join(root, readme), 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(250);
    expect([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual(headings);
    // The details moved to the docs: the landing sends a newcomer there.
    expect(text).toMatch(/\]\(docs\/(zh-CN\/)?guide\/getting-started\.md\)/);
  });

  it.each([
    { readme: 'README.md', page: 'docs/guide/runtimes.md', heading: 'Runtimes' },
    { readme: 'README.zh-CN.md', page: 'docs/zh-CN/guide/runtimes.md', heading: '运行时' },
  ])(
    '$readme: the runtime table names each runtime and what tests it, as the docs page does',
    ({ readme, page, heading }) => {
      const tableOf = (text: string) => text.split('\n').filter((line) => line.startsWith('|'));
      const table = tableOf(sectionOf(readme, heading));
      const rows = table.slice(2).map((line) => line.split('|').map((cell) => cell.trim()));
      expect(rows.map((cells) => cells[1])).toEqual([
        'Node 20 / 24',
        'Bun 1.4',
        'Deno 2.9',
        expect.stringMatching(/^Cloudflare Workers/),
      ]);
      expect(rows.map((cells) => cells[5])).toEqual([
        expect.stringContaining('`npm test`'),
        '`test/runtimes/bun.test.ts`',
        '`test/runtimes/deno.test.ts`',
        '`test/runtimes/workerd.test.ts`',
      ]);
      // One table, written twice: the README's and the docs page's agree cell for cell.
      expect(tableOf(readFileSync(join(root, page), 'utf8'))).toEqual(table);
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

  const fileLink = /^(?:\.\/)?((?:docs|examples|src|test)\/[^#]+|README[^#]*)(?:#(.+))?$/;

  it.each(readmes)(
    '%s: every #link names a heading, every linked file exists, and an #anchor into a docs page names its heading',
    (readme) => {
      const text = readFileSync(join(root, readme), 'utf8');
      const anchors = anchorsOf(text);
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1] ?? '')
        .filter((link) => !/^https?:/.test(link));
      expect(links.filter((link) => link.startsWith('docs/') && link.endsWith('.md')).length).toBeGreaterThan(
        20,
      );
      const broken = links.filter((link) => {
        if (link.startsWith('#')) return !anchors.has(decodeURIComponent(link.slice(1)));
        const [, file = '', anchor] = fileLink.exec(link) ?? [];
        if (file === '' || !existsSync(join(root, file))) return true;
        return (
          anchor !== undefined &&
          !anchorsOf(readFileSync(join(root, file), 'utf8')).has(decodeURIComponent(anchor))
        );
      });
      expect(broken).toEqual([]);
    },
  );

  it('both READMEs link to the same docs pages, each in its own language', () => {
    const linked = (readme: string) =>
      [...readFileSync(join(root, readme), 'utf8').matchAll(/\]\((docs\/[^)#\s]+\.md)/g)].map(
        (match) => match[1] ?? '',
      );
    const english = linked('README.md');
    expect(linked('README.zh-CN.md')).toEqual(english.map((page) => page.replace(/^docs\//, 'docs/zh-CN/')));
    expect(english.length).toBeGreaterThan(20);
  });
});
