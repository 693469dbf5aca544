// The docs site as a newcomer meets it: built from the repository (`npm run docs:build`), served from
// docs/.vitepress/dist on loopback, and opened in Chromium — navigation, the language switch, search,
// no broken link or asset, llms.txt, and axe-core on a home, a guide and an API page at two widths.
// With DOCS_SCREENSHOTS=<dir>, what the browser showed is saved there as PNGs to look at.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, PATIENT_POLLS } from '../console/e2e/browser.js';
import { type StaticSite, serveStatic } from './static-server.js';

const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'docs', '.vitepress', 'dist');
const shots = process.env.DOCS_SCREENSHOTS;

/** What the tests read of the page's own globals (the project's types have no DOM). */
interface BrowserGlobals {
  document: { fonts: { ready: Promise<unknown> }; documentElement: { scrollWidth: number } };
}

let site: StaticSite;
let browser: Browser;

beforeAll(async () => {
  vi.setConfig(PATIENT_POLLS);
  // TypeDoc, then VitePress, then llms.txt: a minute or two on a busy machine.
  if (!process.env.ITER)
    await promisify(execFile)('npm', ['run', 'docs:build'], {
      cwd: root,
      timeout: 540_000,
      maxBuffer: 64 << 20,
    });
  site = await serveStatic(dist);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const open = async (path: string, width = 1280): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 800 } });
  const page = await context.newPage();
  page.on('close', () => void context.close());
  await page.goto(new URL(path, site.url).href);
  await page.locator('.VPContent').waitFor();
  return page;
};

/** The page's heading as a person reads it (without the zero-width space of its `#` anchor). */
const h1Of = async (page: Page) =>
  ((await page.locator('.vp-doc h1').first().textContent()) ?? '').replace(/\u200b/g, '').trim();

/** The path of the page's URL with its `.html` and any `index.html`, so `/a/` and `/a/index.html` match. */
const pathOf = (href: string) => new URL(href, site.url).pathname.replace(/(index)?\.html$/, '');

describe('navigation', () => {
  // A page a link: about forty, each waited for (a busy machine takes its time).
  it('every sidebar link of the guide opens its page, with its own heading', {
    timeout: 120_000,
  }, async () => {
    const page = await open('/guide/getting-started.html');
    const links = page.locator('.VPSidebar a.VPLink');
    const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThanOrEqual(38);
    const headings = new Set<string>();
    let previous = await h1Of(page);
    for (const href of hrefs) {
      await page.locator(`.VPSidebar a.VPLink[href="${href}"]`).click();
      await expect.poll(() => pathOf(page.url())).toBe(pathOf(href));
      if (href === '/api/') {
        await expect.poll(() => h1Of(page)).toBe('graded-tools');
        // The API reference has a sidebar of its own: back to the guide's.
        await page.goBack();
        await expect.poll(() => h1Of(page)).toBe(previous);
        continue;
      }
      // The new page's own heading, not the one before it (the first link is the page itself).
      if (href !== hrefs[0]) await expect.poll(() => h1Of(page)).not.toBe(previous);
      expect(await page.locator('.NotFound').count()).toBe(0);
      previous = await h1Of(page);
      headings.add(previous);
    }
    // Each page is a different page: no link opens another's content.
    expect(headings.size).toBe(hrefs.length - 1);
    await page.close();
  });

  it('the language switch goes to the same page in 中文 and back to English', async () => {
    const page = await open('/guide/concepts.html');
    expect(await h1Of(page)).toBe('Concepts');
    await page.locator('.VPNavBarTranslations button').hover();
    await page.locator('.VPNavBarTranslations a', { hasText: '中文' }).click();
    await expect.poll(() => pathOf(page.url())).toBe('/zh-CN/guide/concepts');
    await expect.poll(() => h1Of(page)).toBe('概念');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.locator('.VPNavBarTranslations button').hover();
    await page.locator('.VPNavBarTranslations a', { hasText: 'English' }).click();
    await expect.poll(() => pathOf(page.url())).toBe('/guide/concepts');
    await expect.poll(() => h1Of(page)).toBe('Concepts');
    await page.close();
  });
});

describe('search', () => {
  it('finds "quorum" and its result opens the page that explains it', async () => {
    const page = await open('/');
    await page.locator('#local-search button').click();
    const input = page.locator('.VPLocalSearchBox input');
    await input.fill('quorum');
    const first = page.locator('.VPLocalSearchBox .results a.result').first();
    await first.waitFor();
    const href = (await first.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/guide\/confirming\.html#/);
    await first.click();
    await expect.poll(() => pathOf(page.url())).toBe('/guide/confirming');
    await expect.poll(() => h1Of(page)).toBe('Confirming sends');
    expect(await page.locator('.vp-doc').textContent()).toMatch(/quorum/i);
    await page.close();
  });

  it('searches the Chinese pages from the Chinese site', async () => {
    const page = await open('/zh-CN/');
    await page.locator('#local-search button').click();
    await page.locator('.VPLocalSearchBox input').fill('四眼');
    const first = page.locator('.VPLocalSearchBox .results a.result').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toMatch(/^\/zh-CN\//);
    await page.close();
  });
});

describe('links', () => {
  it('every page reachable from / and /zh-CN/, every internal link, anchor and asset answers', async () => {
    const pages = new Map<string, string>(); // path → HTML
    const answered = new Map<string, number>(); // URL without fragment → status
    const fragments: { from: string; to: string; id: string }[] = [];
    const queue = ['/', '/zh-CN/'];
    const fetchOnce = async (path: string) => {
      if (!answered.has(path)) {
        const response = await fetch(new URL(path, site.url));
        answered.set(path, response.status);
        const type = response.headers.get('content-type') ?? '';
        if (response.ok && type.startsWith('text/html')) pages.set(path, await response.text());
        else await response.arrayBuffer();
      }
      return answered.get(path);
    };
    while (queue.length > 0) {
      const path = queue.shift() ?? '/';
      if (answered.has(path)) continue;
      await fetchOnce(path);
      const html = pages.get(path);
      if (html === undefined) continue;
      for (const [, attribute = ''] of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        const url = new URL(attribute.replace(/&amp;/g, '&'), new URL(path, site.url));
        if (url.origin !== site.url.origin) continue;
        const target = decodeURIComponent(url.pathname);
        if (url.hash.length > 1)
          fragments.push({ from: path, to: target, id: decodeURIComponent(url.hash.slice(1)) });
        queue.push(target);
      }
    }
    const htmlPages = [...pages.keys()];
    expect(htmlPages.length).toBeGreaterThanOrEqual(90);
    expect(htmlPages.filter((path) => path.startsWith('/zh-CN/')).length).toBeGreaterThanOrEqual(39);
    expect([...answered].filter(([, status]) => status !== 200)).toEqual([]);
    // An #anchor names an element of the page it points into.
    const missing = fragments.filter(({ to, id }) => {
      const html = pages.get(to);
      return html !== undefined && !html.includes(` id="${id}"`) && !html.includes(` id="${encodeURI(id)}"`);
    });
    expect(missing).toEqual([]);

    // llms.txt: a title, a summary, and a link to each page's Markdown, each answering, each a page of the site.
    const llms = await (await fetch(new URL('/llms.txt', site.url))).text();
    expect(llms).toMatch(/^# graded-tools\n\n> \S/);
    const listed = [...llms.matchAll(/\]\((\/[^)]+\.md)\)/g)].map((match) => match[1] ?? '');
    expect(listed.length).toBeGreaterThanOrEqual(90);
    for (const md of listed) expect([md, await fetchOnce(md)]).toEqual([md, 200]);
    const htmlOf = (md: string) => md.replace(/(index)?\.md$/, '');
    expect(listed.map(htmlOf).filter((path) => !htmlPages.map(pathOf).includes(path))).toEqual([]);
    const full = await (await fetch(new URL('/llms-full.txt', site.url))).text();
    expect(full).toContain('# Confirming sends');
    expect(full).toContain('# 确认发送');
  }, 120_000);
});

describe('accessibility and looks', () => {
  /** axe-core's violations on `page` (WCAG 2.x A and AA rules and best practices), as "rule: target" lines. */
  const violations = async (page: Page): Promise<string[]> => {
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  };

  const views = [
    { name: 'home', path: '/' },
    { name: 'guide-confirming', path: '/guide/confirming.html' },
    { name: 'api-sqlite', path: '/api/graded-tools/sqlite.html' },
    { name: 'zh-home', path: '/zh-CN/' },
    { name: 'zh-guide-concepts', path: '/zh-CN/guide/concepts.html' },
  ];
  const cases = views.flatMap((view) => [1280, 390].map((width) => ({ ...view, width })));

  it.each(cases)(
    '$name at $width px: no axe-core violations',
    { timeout: 90_000 },
    async ({ name, path, width }) => {
      const page = await open(path, width);
      await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.fonts.ready);
      if (shots !== undefined) {
        mkdirSync(shots, { recursive: true });
        await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: name.includes('home') });
      }
      // Nothing wider than the screen: a phone never scrolls sideways.
      const scrollWidth = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
      expect(await violations(page)).toEqual([]);
      await page.close();
    },
  );
});
