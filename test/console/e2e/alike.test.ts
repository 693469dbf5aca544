// Issue 32, in Chromium on a SQLite file: an agent proposes the same refund twice without a key; the
// second card says "another pending Refund with the same payload: #<id>" on its compact inbox row and
// once opened, in English (1280 px) and Chinese (390 px), clean under axe-core, nothing wider than the
// page. The first card, proposed when there was no other, says nothing.
import type { ConsolePerson } from 'graded-tools/console';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import type { BrowserGlobals } from './scenarios.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li' };

const WORDS = {
  'en-US': {
    said: (id: string) => `⚠ another pending Refund with the same payload: #${id}`,
    review: 'Review',
  },
  'zh-CN': { said: (id: string) => `⚠ 另一条待确认的 Refund 内容相同：#${id}`, review: '查看' },
} as const;

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth);
}

const openStore = sqliteStores('alike');

describe('a card flags another pending one with the same payload, in Chromium', () => {
  const h = consoleHarness(openStore);
  const { openInbox } = approverPages(h);

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'at %i px (%s): on the compact row and the opened card, clean under axe',
    async (width, locale) => {
      const w = WORDS[locale];
      const { registry } = h.app;
      registry.register({
        name: 'order.refund',
        title: 'Refund',
        description: 'Refunds an order.',
        sideEffect: 'send',
        inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
        prepare: (input) => input,
        deliver: () => 'refunded',
      });
      const first = await registry.propose('order.refund', { order: '1001' }, { actor: 'agent-ana' });
      const second = await registry.propose('order.refund', { order: '1001' }, { actor: 'agent-ana' });
      if (!first.ok || !second.ok) throw new Error('proposals refused');
      const li = await openInbox(LI, { locale, width });
      const card = (id: string) => li.locator(`article.confirmation[data-id="${id}"]`);
      await card(first.confirmationId).waitFor();
      await card(second.confirmationId).waitFor();
      expect(await card(first.confirmationId).locator('.alike').count()).toBe(0);
      const flag = card(second.confirmationId).locator('p.alike');
      expect(await flag.textContent()).toBe(w.said(first.confirmationId));
      expect(await flag.getAttribute('role')).toBe('note');
      expect(await violations(li), `compact ${locale}`).toEqual([]);
      expect(await pageWidth(li)).toBeLessThanOrEqual(width);
      await screenshot(li, `alike-${width}-${locale}-inbox`);

      await card(second.confirmationId).getByRole('button', { name: w.review, exact: true }).click();
      await card(second.confirmationId).locator('.payload').waitFor();
      expect(await card(second.confirmationId).locator('p.alike').textContent()).toBe(
        w.said(first.confirmationId),
      );
      expect(await violations(li), `opened ${locale}`).toEqual([]);
      expect(await pageWidth(li)).toBeLessThanOrEqual(width);
      await screenshot(li, `alike-${width}-${locale}-card`);
    },
  );
});
