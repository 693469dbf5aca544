// Issue 25, item 1, in Chromium on a SQLite file: an agent proposes a refund and the email that tells
// the customer about it as one bundle. The approver sees one card listing both steps exactly as they
// will go out, in order, and one "Approve all 2 steps" decision; the refund needs two finance
// approvers, so the first approval is recorded and nothing goes out; the second delivers both, the
// refund first. Clean under axe-core at 1280 px (English) and 390 px (Chinese), nothing cut. With
// CONSOLE_SCREENSHOTS=<dir> the views are saved there as PNGs.
import type { ConsolePerson } from 'graded-tools/console';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import type { BrowserGlobals } from './scenarios.js';

const ANA: ConsolePerson = { id: 'fin-ana', name: 'Ana', flags: { finance: true } };
const LI: ConsolePerson = { id: 'fin-li', name: 'Li', flags: { finance: true } };

const WORDS = {
  'en-US': {
    heading: '2 steps, in order',
    step1: 'Step 1 of 2: Issue a refund',
    step2: 'Step 2 of 2: Reply to the customer',
    effect1: 'Refunds €600.00 on order o-42 to the card it was paid with',
    effect2: 'Emails the customer at ana@example.com',
    approveAll: 'Approve all 2 steps',
    reject: 'Reject all',
    recorded: 'Your approval is recorded; some steps still need other approvers.',
    delivered: 'All delivered',
  },
  'zh-CN': {
    heading: '按顺序共 2 步',
    step1: '第 1/2 步：Issue a refund',
    step2: '第 2/2 步：Reply to the customer',
    effect1: 'Refunds €600.00 on order o-42 to the card it was paid with',
    effect2: 'Emails the customer at ana@example.com',
    approveAll: '全部批准（共 2 步）',
    reject: '全部拒绝',
    recorded: '你的批准已记录；部分步骤还需要其他审批人。',
    delivered: '全部完成',
  },
} as const;

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth);
}

/** Lines the person decides on whose text overflows their box (cut, not wrapped). */
async function cutLines(page: Page): Promise<string[]> {
  return page
    .locator('.bundle .step-title, .bundle .effect, .bundle button, .bundle .badge')
    .evaluateAll((nodes) =>
      nodes
        .filter((n) => {
          const box = n as unknown as { scrollWidth: number; clientWidth: number };
          return box.scrollWidth > box.clientWidth + 1;
        })
        .map((n) => n.textContent ?? ''),
    );
}

const openStore = sqliteStores('bundles');

describe('a bundle is one card and one decision, in Chromium', () => {
  const h = consoleHarness(openStore);
  const { openInbox } = approverPages(h);

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'at %i px (%s): every step in order, approved whole, delivered in order',
    async (width, locale) => {
      const w = WORDS[locale];
      const { registry } = h.app;
      const asked = await registry.proposeBundle(
        [
          { tool: 'refund.issue', input: { orderId: 'o-42', amountCents: 60_000 } },
          {
            tool: 'message.send',
            input: {
              to: 'ana@example.com',
              subject: 'Your refund',
              text: 'We refunded €600.00 to your card.',
            },
          },
        ],
        { actor: 'agent-ana', note: 'Order o-42 was charged twice; refund, then tell the customer.' },
      );
      if (!asked.ok) throw new Error(asked.error);

      const ana = await openInbox(ANA, { locale, width });
      const card = ana.locator(`article.bundle[data-bundle="${asked.bundleId}"]`);
      await card.waitFor();
      // One card for the bundle: no second card for its second step.
      expect(await ana.locator('article.confirmation').count()).toBe(1);
      expect(await card.locator('h2.title').textContent()).toBe(w.heading);
      const steps = card.locator('li.bundle-step');
      expect(await steps.count()).toBe(2);
      expect(await steps.nth(0).locator('.step-title').textContent()).toBe(w.step1);
      expect(await steps.nth(1).locator('.step-title').textContent()).toBe(w.step2);
      expect(await steps.nth(0).locator('.effect').textContent()).toContain(w.effect1);
      expect(await steps.nth(1).locator('.effect').textContent()).toContain(w.effect2);
      // Exactly what goes out: the email's text, field by field.
      expect(await steps.nth(1).locator('.payload').textContent()).toContain(
        'We refunded €600.00 to your card.',
      );
      const approve = card.getByRole('button', { name: w.approveAll, exact: true });
      expect(await approve.isVisible()).toBe(true);
      expect(await card.getByRole('button', { name: w.reject, exact: true }).isVisible()).toBe(true);
      expect(await violations(ana), `pending ${locale}`).toEqual([]);
      expect(await pageWidth(ana)).toBeLessThanOrEqual(width);
      expect(await cutLines(ana)).toEqual([]);
      await screenshot(ana, `bundle-${width}-${locale}-pending`);

      // Ana's approval counts for both steps; the refund needs a second finance approver: nothing goes out.
      await approve.click();
      await expect.poll(() => card.locator('.outcome').textContent()).toBe(w.recorded);
      expect(h.app.refunds).toEqual([]);
      expect(h.app.deliveries).toEqual([]);
      // Still waiting for a person: the header still counts the bundle as pending.
      await expect
        .poll(() => ana.locator('.brand .count').textContent())
        .toBe(locale === 'zh-CN' ? '1 项待确认' : '1 pending');
      expect(await violations(ana), `recorded ${locale}`).toEqual([]);
      await screenshot(ana, `bundle-${width}-${locale}-recorded`);

      // Li approves it whole too (through the registry): the refund goes out, then the email.
      const second = await registry.confirmBundle(asked.bundleId, {
        approvedBy: LI.id,
        flags: { finance: true },
        digest: asked.digest,
      });
      expect(second).toMatchObject({ ok: true, bundle: { status: 'delivered' } });
      expect(h.app.refunds.map((r) => r.orderId)).toEqual(['o-42']);
      expect(h.app.deliveries.map((d) => d.subject)).toEqual(['Your refund']);
      // The open card follows it live.
      await expect.poll(() => card.locator('header .badge').textContent()).toBe(w.delivered);
      expect(await card.getByRole('button', { name: w.approveAll }).count()).toBe(0);
      expect(await violations(ana), `delivered ${locale}`).toEqual([]);
      expect(await pageWidth(ana)).toBeLessThanOrEqual(width);
      await screenshot(ana, `bundle-${width}-${locale}-delivered`);
    },
    120_000,
  );
});
