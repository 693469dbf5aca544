// After `vitepress build docs`: each page's Markdown beside its HTML (`guide/rules.md`), and at the
// site root `llms.txt` (https://llmstxt.org: title, summary, a link to each page's .md) and
// `llms-full.txt` (every page's Markdown, one after another), for language models reading the docs.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const docs = join(import.meta.dirname, '..', 'docs');
const dist = join(docs, '.vitepress', 'dist');

/** Every Markdown file under `dir`, skipping VitePress's own folder; sorted for a stable output. */
const pagesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(docs, join(entry.parentPath, entry.name)))
    // The Chinese API pages only point to the English ones.
    .filter((path) => !path.startsWith('.vitepress') && !path.startsWith('zh-CN/api/'))
    .sort();

const titleOf = (text, fallback) => {
  const hero = /^\s+name: (.+)$/m.exec(text);
  const heading = /^# (.+)$/m.exec(text.replace(/```[\s\S]*?```/g, ''));
  return (heading?.[1] ?? hero?.[1] ?? fallback).replace(/`/g, '');
};

const pages = pagesUnder(docs).map((path) => {
  const text = readFileSync(join(docs, path), 'utf8');
  return { path, url: `/${path}`, title: titleOf(text, path), text };
});
for (const page of pages) {
  mkdirSync(dirname(join(dist, page.path)), { recursive: true });
  copyFileSync(join(docs, page.path), join(dist, page.path));
}

const sections = [
  { heading: 'Guide', test: (path) => path.startsWith('guide/') || !path.includes('/') },
  { heading: 'Integrations', test: (path) => path.startsWith('integrations/') },
  { heading: '中文 (Chinese)', test: (path) => path.startsWith('zh-CN/') },
  // llmstxt.org: what is under "Optional" may be skipped when a shorter context is needed.
  { heading: 'Optional', test: (path) => path.startsWith('api/') },
];
const list = sections.map(({ heading, test }) => {
  const links = pages.filter((page) => test(page.path)).map((page) => `- [${page.title}](${page.url})`);
  return `## ${heading}\n\n${links.join('\n')}\n`;
});
const packageJson = JSON.parse(readFileSync(join(docs, '..', 'package.json'), 'utf8'));
writeFileSync(
  join(dist, 'llms.txt'),
  [
    '# graded-tools',
    `> ${packageJson.description}`,
    'A tool is graded `read`, `write` or `send`. The model is shown read tools only; anything else it calls is answered like a tool that does not exist. A send becomes a proposal that a person confirms, on exactly the payload they saw, delivered exactly once. The API reference (under Optional) is generated from the TypeScript types.',
    ...list,
  ].join('\n\n'),
);
writeFileSync(
  join(dist, 'llms-full.txt'),
  pages.map((page) => `<!-- ${page.url} -->\n\n${page.text.trim()}\n`).join('\n'),
);
console.log(`llms.txt: ${pages.length} pages`);
