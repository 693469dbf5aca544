// A change the agent proposed (a `write`, no rule needed), in Chromium on a SQLite file: the card says
// what confirming does in the tool's `effect`, filled from the input, and words it as a change, never a
// send — "Confirm and apply" / "确认执行", "Applied" / "已执行" — and confirming runs it once. Clean under
// axe-core on a desktop and a phone. With CONSOLE_SCREENSHOTS=<dir> the views are saved there as PNGs.
import type { ConsolePerson } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import { type BrowserGlobals, cardOf, openCard, outcomeOf } from './scenarios.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li' };
const WHY = {
  note: 'Ana asked to move the standup to Monday: she is out on Friday.',
  links: [{ label: 'Her message', url: 'https://mail.example/t/1' }],
};

describe('a change the agent proposed, in Chromium', () => {
  const h = consoleHarness(sqliteStores('writes'));
  const { openInbox } = approverPages(h);

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'at %i px (%s) the card words it as a change, axe finds nothing, and Confirm applies it once',
    async (width, locale) => {
      const zh = locale === 'zh-CN';
      const send = await h.app.ask({ to: 'ana@example.com', subject: 'Your refund', text: 'Refunded.' });
      const id = await h.app.askChange('standup', '2026-03-02', WHY);
      const page = await openInbox(LI, { locale, width });

      // The compact row: the write's effect beside a send's, each in its own words.
      const row = cardOf(page, id);
      await expect.poll(() => row.locator('.effect').textContent()).toContain('Moves standup to 2026-03-02');
      await cardOf(page, send).waitFor();
      expect(await violations(page), `inbox ${locale}`).toEqual([]);
      await screenshot(page, `write-${width}-${locale}-inbox`);

      const card = await openCard(row);
      const apply = card.getByRole('button', { name: zh ? '确认执行' : 'Confirm and apply', exact: true });
      await apply.waitFor();
      expect(await card.locator('.payload').getAttribute('aria-label')).toBe(
        zh ? '请求执行的更改' : 'The change asked for',
      );
      expect(await card.locator('.note').textContent()).toBe(WHY.note);
      // The send's card keeps its own button.
      const sendCard = await openCard(cardOf(page, send));
      await sendCard
        .getByRole('button', { name: zh ? '确认发送' : 'Confirm and send', exact: true })
        .waitFor();
      expect(await violations(page), `open cards ${locale}`).toEqual([]);
      await screenshot(page, `write-${width}-${locale}-open`);
      const scrollWidth = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);

      await apply.click();
      expect(await outcomeOf(card)).toBe(zh ? '已执行。' : 'Applied.');
      await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
      expect(await card.locator('.badge').textContent()).toBe(zh ? '已执行' : 'Applied');
      expect(h.app.changes).toEqual([{ meeting: 'standup', date: '2026-03-02' }]);
      expect(h.app.deliveries).toEqual([]);
      expect(await violations(page), `applied ${locale}`).toEqual([]);
      await screenshot(page, `write-${width}-${locale}-applied`);

      // The detail page's history says it was applied, not delivered.
      await page.goto(`${h.app.url}/confirmations/${id}`);
      await expect
        .poll(() => page.locator('ol.history').textContent())
        .toContain(zh ? 'Li 已批准' : 'Li approved');
      expect(await page.locator('ol.history').textContent()).not.toMatch(/Deliver|送达|发送/);
      expect(await violations(page), `detail ${locale}`).toEqual([]);
      await screenshot(page, `write-${width}-${locale}-detail`);
    },
    120_000,
  );

  it('"Confirm selected" says a write is applied and a send is sent, before and after', async () => {
    const send = await h.app.ask({ to: 'ana@example.com', subject: 'Your refund', text: 'Refunded.' });
    const change = await h.app.askChange('standup', '2026-03-02');
    const page = await openInbox(LI);
    await cardOf(page, send).waitFor();
    await cardOf(page, change).waitFor();
    await page.getByRole('checkbox', { name: 'Select all pending' }).check();
    await page.getByRole('button', { name: 'Confirm selected' }).click();
    const step = page.locator('.bulk-step');
    const fate = (id: string) => step.locator(`li[data-id="${id}"] .fate`).textContent();
    await expect.poll(() => page.locator('.bulk-step li').count()).toBe(2);
    expect(await fate(change)).toBe('Applied now.');
    expect(await fate(send)).toBe('Sent now.');
    expect(await step.locator(`li[data-id="${change}"] strong`).textContent()).toBe(
      'Moves standup to 2026-03-02',
    );
    expect(await violations(page), 'bulk dialog').toEqual([]);
    await screenshot(page, 'write-bulk-before');
    await page.getByRole('button', { name: 'Confirm 2', exact: true }).click();
    const outcome = page.locator('.bulk-outcome');
    const result = (id: string) => outcome.locator(`li[data-id="${id}"] .fate`).textContent();
    await expect.poll(() => result(change)).toBe('Applied.');
    expect(await result(send)).toBe('Delivered.');
    expect(h.app.changes).toHaveLength(1);
    expect(h.app.deliveries).toHaveLength(1);
    await screenshot(page, 'write-bulk-after');
  }, 120_000);
});
