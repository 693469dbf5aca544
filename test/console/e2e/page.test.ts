// The console page's own promises in Chromium, on a SQLite file: refused without a session and from
// another origin, Chinese, keyboard only, readable on a phone — and the README's screenshot.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { createSqliteStore, type SqliteConfirmationStore } from 'graded-tools/sqlite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { cspViolations, launchBrowser, PATIENT_POLLS, recordCspViolations } from './browser.js';
import { type ConsoleApp, startConsoleApp } from './console-app.js';
import { type BrowserGlobals, cardOf, openCard, outcomeOf, refund } from './scenarios.js';

const LI = { id: 'lead-li', name: 'Li' };
const dir = tempDir('graded-tools-console-page-');
let browser: Browser;
let store: SqliteConfirmationStore;
let app: ConsoleApp;
let files = 0;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  vi.setConfig(PATIENT_POLLS);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  dir.remove();
});
beforeEach(async () => {
  store = createSqliteStore({ path: join(dir.path, `page-${++files}.db`) });
  app = await startConsoleApp({ store });
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  await app?.close();
  store?.close();
});

const newContext = async (options: { locale?: string; width?: number; height?: number } = {}) => {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  contexts.push(context);
  return context;
};
const openInbox = async (
  options: { locale?: string; width?: number; height?: number } = {},
): Promise<Page> => {
  const context = await newContext(options);
  await app.signIn(context, LI);
  const page = await context.newPage();
  await page.goto(`${app.url}/`);
  await page.locator('.live[data-live="on"]').waitFor();
  return page;
};

describe('security in the browser', () => {
  it('without a session the page and the API answer 401, and the page says to sign in', async () => {
    const id = await app.ask(refund);
    const page = await (await newContext()).newPage();
    const shell = await page.goto(`${app.url}/`);
    expect(shell?.status()).toBe(401);
    expect(await page.locator('body').textContent()).toMatch(/sign in/i);
    expect(await page.locator('article.confirmation').count()).toBe(0);
    const api = await page.goto(`${app.url}/api/confirmations/${id}`);
    expect(api?.status()).toBe(401);
    expect(await api?.json()).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(app.deliveries).toEqual([]);
  });

  it('a page on another loopback port cannot confirm, even with the session cookie sent along', async () => {
    const id = await app.ask(refund);
    const digest = (await app.registry.confirmations.get(id)).ok
      ? ((await app.registry.confirmations.get(id)) as { confirmation: { digest: string } }).confirmation
          .digest
      : '';
    const target = `${app.url}/api/confirmations/${id}/confirm`;
    // The other site: a page whose script POSTs to the console with the person's credentials.
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>win a prize</title><p>hello</p>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
    try {
      const context = await newContext();
      await app.signIn(context, LI);
      const page = await context.newPage();
      await page.goto(`${evilOrigin}/`);
      const outcomes = await page.evaluate(
        async ({ url, body }) => {
          const attempt = async (init: RequestInit) => {
            try {
              const response = await fetch(url, { method: 'POST', credentials: 'include', body, ...init });
              return `answered ${response.type} ${response.status}`;
            } catch (error) {
              return `refused ${(error as Error).name}`;
            }
          };
          return [
            await attempt({ headers: { 'content-type': 'application/json' } }),
            await attempt({ headers: { 'content-type': 'text/plain' }, mode: 'no-cors' }),
            await attempt({ mode: 'no-cors' }),
          ];
        },
        { url: target, body: JSON.stringify({ digest }) },
      );
      // The JSON POST needs a preflight the console does not grant; the simple ones reach it, are refused,
      // and their answers are withheld from the other page (Cross-Origin-Resource-Policy: same-origin).
      expect(outcomes).toEqual(['refused TypeError', 'refused TypeError', 'refused TypeError']);
      const posts = app.answered.filter((a) => a.method === 'POST' && a.path.endsWith('/confirm'));
      expect(posts).toHaveLength(2);
      for (const post of posts)
        expect(post).toMatchObject({ origin: evilOrigin, withSession: true, status: 403 });
      expect(app.answered.filter((a) => a.status < 300 && a.method !== 'GET')).toEqual([]);
      // The same POST as JSON with the other origin (what a browser without preflight would send).
      const direct = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: evilOrigin },
        body: JSON.stringify({ digest }),
      });
      expect(direct.status).toBe(403);
      expect(await direct.json()).toMatchObject({ ok: false, code: 'FORBIDDEN_ORIGIN' });
      const stored = await app.registry.confirmations.get(id);
      expect(stored.ok && stored.confirmation.status).toBe('pending');
      expect(app.deliveries).toEqual([]);
    } finally {
      evil.closeAllConnections();
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
  });
});

describe('the page', () => {
  it('speaks Chinese to a zh-CN browser: 确认发送 and 拒绝, and the outcome in Chinese', async () => {
    const first = await app.ask(refund);
    const second = await app.ask({ ...refund, to: 'li@example.com' });
    const page = await openInbox({ locale: 'zh-CN' });
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.getByRole('button', { name: '确认所选' }).waitFor();
    const card = await openCard(cardOf(page, first));
    expect(await card.textContent()).toContain('收件人');
    await card.getByRole('button', { name: '确认发送', exact: true }).click();
    expect(await outcomeOf(card)).toMatch(/^已送达。/);
    const other = await openCard(cardOf(page, second));
    await other.getByLabel('拒绝理由（可选）').fill('客户已经电话确认');
    await other.getByRole('button', { name: '拒绝', exact: true }).click();
    expect(await outcomeOf(other)).toBe('已拒绝：没有发送任何内容。');
    // Nothing left to decide here: the bulk bar is gone.
    await expect.poll(() => page.getByRole('button', { name: '确认所选' }).isHidden()).toBe(true);
    expect(app.deliveries).toEqual([refund]);
  });

  it('zh-CN: a failed send offers 重试 and 标记为已送达', async () => {
    app.failNextDelivery();
    const id = await app.ask(refund);
    const page = await openInbox({ locale: 'zh-CN' });
    const card = await openCard(cardOf(page, id));
    await card.getByRole('button', { name: '确认发送', exact: true }).click();
    expect(await outcomeOf(card)).toMatch(/^发送失败/);
    await card.getByRole('button', { name: '重试', exact: true }).waitFor();
    await card.getByRole('button', { name: '标记为已送达', exact: true }).click();
    expect(await outcomeOf(card)).toBe('已标记为已送达。');
    expect(app.deliveries).toEqual([]);
  });

  it('works with the keyboard only: Enter opens a row, Enter confirms, Space rejects, the focus ring is visible (≥ 3:1)', async () => {
    const older = await app.ask({ ...refund, to: 'older@example.com' });
    const newer = await app.ask({ ...refund, to: 'newer@example.com' });
    const page = await openInbox();
    await cardOf(page, older).waitFor();
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const reached = await page.evaluate(
          (s) => (globalThis as unknown as BrowserGlobals).document.activeElement?.matches(s) ?? false,
          selector,
        );
        if (reached) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo(`article[data-id="${newer}"] button.review`);
    await page.keyboard.press('Enter');
    await tabTo(`article[data-id="${newer}"] button.primary`);
    const ring = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as BrowserGlobals;
      const style = getComputedStyle(document.activeElement) as unknown as {
        outlineStyle: string;
        outlineColor: string;
        outlineWidth: string;
      };
      const page = getComputedStyle((document as unknown as { body: unknown }).body) as unknown as {
        backgroundColor: string;
      };
      return {
        style: style.outlineStyle,
        width: style.outlineWidth,
        color: style.outlineColor,
        bg: page.backgroundColor,
      };
    });
    expect(ring.style).not.toBe('none');
    expect(Number.parseFloat(ring.width)).toBeGreaterThanOrEqual(2);
    expect(contrast(ring.color, ring.bg)).toBeGreaterThanOrEqual(3);
    expect(contrast(ring.color, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Enter');
    expect(await outcomeOf(cardOf(page, newer))).toMatch(/^Delivered\./);
    await tabTo(`article[data-id="${older}"] button.review`);
    await page.keyboard.press('Enter');
    await tabTo(`article[data-id="${older}"] button.danger`);
    await page.keyboard.press('Space');
    expect(await outcomeOf(cardOf(page, older))).toBe('Rejected: nothing was sent.');
    expect(app.deliveries.map((m) => m.to)).toEqual(['newer@example.com']);
  });

  it('filters by tool and status, and pages through with Load more, newest first', async () => {
    const asked = [
      await app.ask({ ...refund, to: 'one@example.com' }),
      await app.askRefund('o-77', 4900),
      await app.ask({ ...refund, to: 'two@example.com' }),
      await app.ask({ ...refund, to: 'three@example.com' }),
    ];
    const listed = await app.registry.confirmations.list({ status: 'pending' });
    const newestFirst = listed.ok ? listed.confirmations.map((c) => c.id) : [];
    expect([...newestFirst].sort()).toEqual([...asked].sort());

    const context = await newContext();
    await app.signIn(context, LI);
    const page = await context.newPage();
    await page.goto(`${app.url}/?limit=3`);
    const cards = page.locator('article.confirmation');
    await expect.poll(() => cards.count()).toBe(3);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => cards.count()).toBe(4);
    expect(
      await cards.evaluateAll((all) =>
        all.map((c) => (c as unknown as { dataset: { id: string } }).dataset.id),
      ),
    ).toEqual(newestFirst);
    expect(await page.getByRole('button', { name: 'Load more' }).isHidden()).toBe(true);

    await page.getByLabel('Tool').selectOption({ label: 'Issue a refund' });
    await expect.poll(() => cards.count()).toBe(1);
    const refundCard = await openCard(cardOf(page, asked[1] ?? ''));
    expect(await refundCard.textContent()).toContain('Refunds €49.00 on order o-77');
    await refundCard.getByRole('button', { name: 'Confirm and send', exact: true }).click();
    expect(await outcomeOf(refundCard)).toMatch(/^Delivered\./);

    await page.getByLabel('Tool').selectOption({ label: 'All tools' });
    await page.getByLabel('Status').selectOption({ label: 'Delivered' });
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cardOf(page, asked[1] ?? '').getAttribute('data-status')).toBe('delivered');
    expect(page.url()).toBe(`${app.url}/?status=delivered&limit=3`);
  });

  it('four eyes: the person who asked is offered no Confirm, and is told why; another person confirms', async () => {
    await app.close();
    app = await startConsoleApp({ store, requireDifferentApprover: true });
    const id = await app.ask(refund, 'lead-li');
    const page = await openInbox();
    const card = await openCard(cardOf(page, id));
    await expect
      .poll(() => card.locator('.why-not').textContent())
      .toBe('You asked for this send yourself: another person must confirm it.');
    expect(await card.getByRole('button', { name: 'Confirm and send' }).count()).toBe(0);
    // Rejecting needs no second person: that button stays.
    expect(await card.getByRole('button', { name: 'Reject', exact: true }).count()).toBe(1);
    // The server refuses it all the same.
    const digest = await card.locator('code.digest').textContent();
    const refused = await page.evaluate(
      async ({ url, digest }) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ digest }),
        });
        return (await response.json()) as { code: string };
      },
      { url: `${app.url}/api/confirmations/${id}/confirm`, digest },
    );
    expect(refused.code).toBe('SAME_PERSON');
    expect(app.deliveries).toEqual([]);

    const context = await newContext();
    await app.signIn(context, { id: 'lead-wu', name: 'Wu' });
    const wu = await context.newPage();
    await wu.goto(`${app.url}/`);
    await (await openCard(cardOf(wu, id)))
      .getByRole('button', { name: 'Confirm and send', exact: true })
      .click();
    expect(await outcomeOf(cardOf(wu, id))).toMatch(/^Delivered\./);
    expect(app.deliveries).toEqual([refund]);
  });

  it('a person authorize lets view but not confirm sees no Confirm and no bulk bar', async () => {
    await app.close();
    app = await startConsoleApp({
      store,
      authorize: (person, action) => action === 'view' || person.id !== 'lead-li',
    });
    const id = await app.ask(refund);
    const page = await openInbox();
    const card = await openCard(cardOf(page, id));
    await expect
      .poll(() => card.locator('.why-not').textContent())
      .toBe('You may not confirm this one: another person must.');
    expect(await card.getByRole('button').evaluateAll((all) => all.map((b) => b.textContent))).toEqual([
      'Hide',
    ]);
    expect(await card.getByRole('textbox').count()).toBe(0);
    expect(await card.getByRole('checkbox').count()).toBe(0);
    expect(await page.locator('.bulk').isHidden()).toBe(true);
  });

  it('an edit offers only the editable fields; an invalid one is refused with its issues in words, and Confirm waits', async () => {
    const id = await app.ask(refund);
    const context = await newContext();
    await app.signIn(context, LI);
    const page = await context.newPage();
    await page.goto(`${app.url}/confirmations/${id}`);
    const form = page.locator('form.edit');
    await form.getByLabel('Text', { exact: true }).waitFor();
    expect(
      await form
        .locator('textarea')
        .evaluateAll((all) => all.map((t) => (t as unknown as { name: string }).name)),
    ).toEqual(['subject', 'text']);
    await form.getByLabel('Subject', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Preview edit' }).click();
    await expect
      .poll(() => form.locator('.preview').textContent())
      .toContain('This edit cannot be sent: Not sent: some fields are not valid.');
    expect(await form.locator('.preview li').first().textContent()).toMatch(/^Subject: /);
    // Words for a person only: no code, no words meant for a model.
    expect(await page.locator('body').textContent()).not.toMatch(/INVALID_INPUT|call again|\/subject/);
    const card = cardOf(page, id);
    const send = card.getByRole('button', { name: 'Confirm and send', exact: true });
    await expect.poll(() => send.isDisabled()).toBe(true);
    expect(await card.locator('.why-not').textContent()).toMatch(/not valid/);
    expect(await card.getAttribute('data-status')).toBe('pending');
    expect(app.deliveries).toEqual([]);
  });

  it('runs under its strict Content-Security-Policy without one violation (inbox, detail, preview)', async () => {
    const id = await app.ask(refund);
    const context = await newContext();
    await recordCspViolations(context);
    await app.signIn(context, LI);
    const page = await context.newPage();
    const shell = await page.goto(`${app.url}/`);
    expect(shell?.headers()['content-security-policy']).toContain("script-src 'self'");
    await cardOf(page, id).getByRole('link', { name: 'Reply to the customer' }).click();
    await page.getByLabel('Text', { exact: true }).fill('Edited under the CSP.');
    await page.getByRole('button', { name: 'Preview edit' }).click();
    await expect.poll(() => page.locator('.preview').textContent()).toContain('Changed: Text');
    expect(await cspViolations(page)).toEqual([]);
  });

  it('is readable on a phone: nothing wider than the screen, buttons large enough to tap', async () => {
    const id = await app.ask({
      ...refund,
      text: `A very long line without spaces: ${'x'.repeat(300)}`,
    });
    const page = await openInbox({ width: 375, height: 740 });
    const card = await openCard(cardOf(page, id));
    const width = await page.evaluate(
      () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
    );
    expect(width).toBeLessThanOrEqual(375);
    const box = await card.getByRole('button', { name: 'Confirm and send', exact: true }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(40);
  });

  it('takes the screenshots for the README: the inbox at 1280×800 (docs/console.png) and a phone (docs/console-phone.png)', async () => {
    const asks: { message: typeof refund; note: string; conversation: number }[] = [
      {
        message: {
          to: 'ana@example.com',
          subject: 'Your duplicate charge',
          text: 'We refunded the duplicate charge of €49.00 on your March invoice; it will show on your card within 5 days.',
        },
        note: 'Ana wrote twice about being charged twice in March; the refund went out this morning, so this tells her when to expect it.',
        conversation: 4411,
      },
      {
        message: {
          to: 'li.wei@example.com',
          subject: 'Exporting your data',
          text: 'Go to Settings → Data → Export: you get a ZIP file with every conversation and invoice.',
        },
        note: 'Answers the export question with the current menu path.',
        conversation: 4415,
      },
      {
        message: {
          to: 'marco@example.org',
          subject: 'New invoice address',
          text: 'Done: your invoices now go to Via Roma 12, Milano. The next one will show the new address.',
        },
        note: 'Confirms the address change made in billing.',
        conversation: 4420,
      },
      {
        message: {
          to: 'sam@example.net',
          subject: 'Your plan downgrade',
          text: 'Your plan moves to Starter on 1 January; you keep every feature of Team until then.',
        },
        note: 'Sam asked what happens to Team features after the downgrade.',
        conversation: 4423,
      },
      {
        message: {
          to: 'noor@example.com',
          subject: 'Two-factor sign-in',
          text: 'You can turn on two-factor sign-in under Settings → Security; it takes a minute with any authenticator app.',
        },
        note: 'Noor asked how to secure the account.',
        conversation: 4427,
      },
      {
        message: {
          to: 'jonas@example.de',
          subject: 'Your invoice in euros',
          text: 'From the next invoice on, amounts are shown in euros; past invoices stay in dollars.',
        },
        note: 'Jonas asked for euro invoices.',
        conversation: 4430,
      },
      {
        message: {
          to: 'priya@example.in',
          subject: 'Seats on your plan',
          text: 'Your plan has 12 seats; 10 are in use. You can add more under Billing → Seats.',
        },
        note: 'Priya asked how many seats are left.',
        conversation: 4434,
      },
      {
        message: {
          to: 'tom@example.co.uk',
          subject: 'Your data export is ready',
          text: 'The export you asked for is ready: it stays available for 7 days under Settings → Data.',
        },
        note: 'Tells Tom his export finished.',
        conversation: 4440,
      },
      {
        message: {
          to: 'mei@example.cn',
          subject: 'Cancelling your trial',
          text: 'Your trial is cancelled and nothing will be charged. Your workspace stays readable for 30 days.',
        },
        note: 'Mei asked to cancel before the trial ends.',
        conversation: 4446,
      },
    ];
    // One frozen instant for the server and the page, so the picture (times, countdowns) is the same
    // on every run and the committed PNG only changes when the page does.
    const instant = new Date('2026-03-02T09:30:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: instant });
    try {
      const ids: string[] = [];
      for (const [i, { message, note, conversation }] of asks.entries()) {
        vi.setSystemTime(instant.getTime() - (asks.length - i) * 4 * 60_000);
        ids.push(
          await app.ask(message, ['agent-ana', 'agent-bo'][i % 2], {
            note,
            links: [
              { label: `Conversation #${conversation}`, url: `https://desk.example/c/${conversation}` },
            ],
            ref: `conv-${conversation}`,
          }),
        );
      }
      vi.setSystemTime(instant);
      const docs = join(import.meta.dirname, '..', '..', '..', 'docs');
      mkdirSync(docs, { recursive: true });
      for (const [file, width, height] of [
        ['console.png', 1280, 800],
        ['console-phone.png', 390, 844],
      ] as const) {
        const context = await browser.newContext({
          locale: 'en-US',
          timezoneId: 'UTC',
          viewport: { width, height },
        });
        contexts.push(context);
        await context.clock.setFixedTime(instant);
        await app.signIn(context, LI);
        const page = await context.newPage();
        await page.goto(`${app.url}/`);
        await page.locator('.live[data-live="on"]').waitFor();
        for (const id of ids) await cardOf(page, id).waitFor();
        await expect.poll(() => page.locator('.person').textContent()).toBe('Signed in as Li (lead-li)');
        await expect.poll(() => page.title()).toBe('(9) Approvals');
        // The newest one open, as an approver reviews it; the rest as compact rows.
        const newest = await openCard(cardOf(page, ids.at(-1) ?? ''));
        await expect.poll(() => newest.locator('.countdown').textContent()).toBe('Expires in 56:00');
        await page.mouse.move(0, 0);
        const png = await page.screenshot({ path: join(docs, file) });
        expect(png.subarray(1, 4).toString()).toBe('PNG');
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('orientation, density and accessibility', () => {
  /** axe-core's violations on `page` (WCAG 2.x A and AA rules), as "rule: target" lines. */
  const violations = async (page: Page): Promise<string[]> => {
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  };
  const askMany = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(await app.ask({ ...refund, to: `customer-${i}@example.com`, subject: `Question ${i}` }));
    return ids;
  };

  it('an h1, the pending count in the header and the tab title, and a favicon', async () => {
    await askMany(3);
    const page = await openInbox();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Approvals 3 pending');
    await expect.poll(() => page.title()).toBe('(3) Approvals');
    expect(await page.locator('h1').count()).toBe(1);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toMatch(/^data:image\/svg\+xml,/);
    // The count follows the decisions.
    const first = await openCard(page.locator('article.confirmation').first());
    await first.getByRole('button', { name: 'Confirm and send', exact: true }).click();
    await expect.poll(() => page.title()).toBe('(2) Approvals');
  });

  it('is compact: at least 8 pending sends are in view at 1280×800 without scrolling', async () => {
    const ids = await askMany(10);
    const page = await openInbox();
    for (const id of ids) await cardOf(page, id).waitFor();
    const inView = await page.locator('article.confirmation').evaluateAll(
      (cards) =>
        cards.filter((card) => {
          const box = (
            card as unknown as { getBoundingClientRect(): { top: number; bottom: number } }
          ).getBoundingClientRect();
          return box.top >= 0 && box.bottom <= 800;
        }).length,
    );
    expect(inView).toBeGreaterThanOrEqual(8);
  });

  it.each([
    [1280, 800],
    [390, 844],
  ] as const)(
    'axe-core finds no violation on the inbox, an open card, the detail page and the link page at %i×%i',
    async (width, height) => {
      const id = await app.ask(refund);
      await askMany(2);
      const made = await app.createApprovalLink(id, { approver: { id: 'lead-wu', name: 'Wu' } });
      expect(made.ok).toBe(true);
      for (const locale of ['en-US', 'zh-CN']) {
        const page = await openInbox({ width, height, locale });
        await cardOf(page, id).waitFor();
        expect(await violations(page), `inbox ${locale}`).toEqual([]);
        await openCard(cardOf(page, id));
        expect(await violations(page), `open card ${locale}`).toEqual([]);
        await page.goto(`${app.url}/confirmations/${id}`);
        await page.locator('form.edit').waitFor();
        await page.locator('.tech summary').click();
        expect(await violations(page), `detail ${locale}`).toEqual([]);
      }
      const link = await (await newContext({ width, height })).newPage();
      await link.goto(made.ok ? made.url : '');
      await cardOf(link, id).waitFor();
      expect(await violations(link), 'link page').toEqual([]);
    },
    120_000,
  );
});

/** The WCAG contrast ratio of two CSS `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}
