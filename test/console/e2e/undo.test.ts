// A payment reminder held 30 s after it is approved, in Chromium on a SQLite file: the approver is told
// when it goes (not an error), the card counts down "Sending in 0:29 — Undo", Undo takes it back and the
// card says who cancelled it and that nothing was sent; the sweep then sends nothing. Someone who did
// not approve it sees the countdown without Undo; a reload shows it under "Sending soon"; one left alone
// is delivered by the sweep and the card follows live. The card is clean under axe-core on a desktop and
// a phone. With CONSOLE_SCREENSHOTS=<dir> the views are saved there as PNGs, to look at.
import type { ConsolePerson } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import { type BrowserGlobals, cardOf, openCard, outcomeOf } from './scenarios.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li' };
const WU: ConsolePerson = { id: 'lead-wu', name: 'Wu' };
const HOLD = 30_000;

const openStore = sqliteStores('undo');

describe('a send held for its undo window, in Chromium', () => {
  const h = consoleHarness(openStore);

  const { openInbox, approveAs } = approverPages(h);

  it('approve → "Sending in 0:29 — Undo" → Undo: cancelled by Li, and nothing is ever sent', async () => {
    const id = await h.app.askHeld('ana@example.com');
    const li = await openInbox(LI);
    const card = await openCard(cardOf(li, id));
    // Before the click, the button says it will not go out at once, and when it will.
    const approve = card.getByRole('button', { name: /^Approve — sends at .+ unless undone$/ });
    expect(await approve.count()).toBe(1);
    await screenshot(li, 'undo-before-approve');
    await approve.click();

    // Told when it goes, as what happened: not an error.
    expect(await outcomeOf(card)).toMatch(/^Approved — sending at .+ unless someone presses Undo\.$/);
    const outcome = card.getByRole('status');
    expect(await outcome.getAttribute('data-outcome')).toBe('SCHEDULED');
    expect(await outcome.getAttribute('class')).not.toMatch(/\bbad\b/);
    expect(await card.getAttribute('data-status')).toBe('scheduled');
    await expect.poll(() => card.locator('.held .countdown').textContent()).toMatch(/^Sending in 0:[0-3]\d$/);
    const undo = card.getByRole('button', { name: 'Undo', exact: true });
    expect(await undo.count()).toBe(1);
    expect(await card.locator('.held').textContent()).toMatch(/^Sending in 0:\d\d — Undo$/);
    expect(await card.locator('.decided').textContent()).toBe('Approved by Li');
    expect(h.app.reminders).toEqual([]);
    await screenshot(li, 'undo-held');

    // Wu did not approve it: the countdown, no Undo. A reload shows it under "Sending soon".
    const wu = await openInbox(WU);
    const wuCard = cardOf(wu, id);
    await expect.poll(() => wu.locator('section.soon h2.soon-title').textContent()).toBe('Sending soon');
    expect(await wu.locator(`section.soon article[data-id="${id}"]`).count()).toBe(1);
    await expect.poll(() => wuCard.locator('.held .countdown').textContent()).toMatch(/^Sending in /);
    expect(await wuCard.getByRole('button', { name: 'Undo' }).count()).toBe(0);

    await undo.click();
    expect(await outcomeOf(card)).toBe('Undone: nothing was sent.');
    expect(await card.getAttribute('data-status')).toBe('cancelled');
    expect(await card.locator('.decided').textContent()).toBe('Cancelled by Li; nothing was sent');
    expect(await card.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(await card.locator('.held').count()).toBe(0);
    await screenshot(li, 'undo-cancelled');
    // Wu's page follows live.
    await expect.poll(() => wuCard.getAttribute('data-status')).toBe('cancelled');

    // Its time passes: the sweep sends nothing.
    h.app.advanceClock(HOLD + 1_000);
    expect(await h.app.registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(h.app.reminders).toEqual([]);
    await li.goto(`${h.app.url}/confirmations/${id}`);
    await expect
      .poll(() => li.locator('ol.history').textContent())
      .toContain('Cancelled by Li; nothing was sent');
    expect(await li.locator('ol.history').textContent()).toMatch(
      /Li approved; held until .+ so it can be undone/,
    );
  });

  it('left alone, the sweep delivers it once its time came, and the card follows live', async () => {
    const id = await h.app.askHeld('bo@example.com');
    await approveAs(id, LI, 'SCHEDULED');
    const li = await openInbox(LI);
    const card = cardOf(li, id);
    await expect.poll(() => card.getAttribute('data-status')).toBe('scheduled');
    h.app.advanceClock(HOLD);
    const swept = await h.app.registry.sweep();
    expect(swept.ok && swept.delivered.map((c) => c.status)).toEqual(['delivered']);
    expect(h.app.reminders).toEqual([{ to: 'bo@example.com', approvedBy: 'lead-li' }]);
    await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
    expect(await card.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(await card.locator('.decided').textContent()).toBe('Approved by Li');
  });

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'axe-core finds no violation on a held card at %i px (%s): the inbox, the open card, the detail page',
    async (width, locale) => {
      const id = await h.app.askHeld('ana@example.com');
      await h.app.askHeld('wu@example.com');
      await approveAs(id, LI, 'SCHEDULED');
      const zh = locale === 'zh-CN';
      const li = await openInbox(LI, { locale, width });
      const card = cardOf(li, id);
      await expect
        .poll(() => card.locator('.held').textContent())
        .toMatch(zh ? /^0:\d\d 后发送 — 撤销$/ : /^Sending in 0:\d\d — Undo$/);
      expect(await li.locator('section.soon h2.soon-title').textContent()).toBe(
        zh ? '即将发送' : 'Sending soon',
      );
      expect(await violations(li), `inbox ${locale}`).toEqual([]);
      await openCard(card);
      expect(await violations(li), `open card ${locale}`).toEqual([]);
      await screenshot(li, `undo-${width}-${locale}-inbox`);

      await li.goto(`${h.app.url}/confirmations/${id}`);
      await li.getByRole('button', { name: zh ? '撤销' : 'Undo', exact: true }).waitFor();
      await expect
        .poll(() => li.locator('ol.history').textContent())
        .toMatch(
          zh ? /Li 已批准；将于 .+ 发送，此前可撤销/ : /Li approved; held until .+ so it can be undone/,
        );
      await li.locator('.tech summary').click();
      expect(await violations(li), `detail ${locale}`).toEqual([]);
      await screenshot(li, `undo-${width}-${locale}-detail`);
      const scrollWidth = await li.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
    },
    120_000,
  );
});
