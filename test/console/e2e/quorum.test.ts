// A refund the tool's rules send to two people holding `finance`, in Chromium on a SQLite file: the
// first approver is told their approval is recorded and how many more are needed (not an error), then
// sees no Confirm but why; one without the flag is told which one they lack; the second delivers it
// once; the card is clean under axe-core on a desktop and a phone. With CONSOLE_SCREENSHOTS=<dir> the
// approvers' views are saved there as PNGs, to look at.
import type { ConsolePerson } from 'graded-tools/console';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import { type BrowserGlobals, cardOf, openCard, outcomeOf } from './scenarios.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li', flags: { finance: true } };
const WU: ConsolePerson = { id: 'lead-wu', name: 'Wu', flags: { finance: true } };
const BO: ConsolePerson = { id: 'desk-bo', name: 'Bo' };
/** €1,200.00: over the rule's €500, so two finance approvers. */
const BIG = 120_000;

const openStore = sqliteStores('quorum');

describe('a refund two finance approvers must confirm, in Chromium', () => {
  const h = consoleHarness(openStore);

  const { openInbox, approveAs } = approverPages(h);
  const approving = (card: Locator) =>
    card.getByRole('button', { name: /^(Approve \(\d of \d\)|Confirm and send)$/ });

  it('the first approver is told it is recorded (1 of 2), then sees why not; the second delivers it once', async () => {
    const id = await h.app.askRefund('o-88', BIG);
    const li = await openInbox(LI);
    const row = cardOf(li, id);
    // The inbox row says how far the approvals are, compactly.
    await expect.poll(() => row.locator('.quorum-count').textContent()).toBe('Approvals: 0 of 2');
    const card = await openCard(row);
    expect(await card.locator('.effect').textContent()).toContain('Refunds €1200.00 on order o-88');
    expect(await card.locator('.quorum').textContent()).toBe('Needs 2 approvals from finance');
    // Before the click: where the app's limit stands for this call, in words.
    expect(await card.locator('.limits').textContent()).toBe(
      "Limit per-order: 120000 of 1000000 today for o-88 (this one's 120000 included)",
    );
    // Li's approval will not send it yet: the button says what it does, and which approval it is.
    expect(await approving(card).textContent()).toBe('Approve (1 of 2)');

    await approving(card).click();

    expect(await outcomeOf(card)).toBe(
      'Your approval is recorded (1 of 2). Nothing is sent until 1 more person approves.',
    );
    const outcome = card.getByRole('status');
    expect(await outcome.getAttribute('data-outcome')).toBe('AWAITING_APPROVALS');
    expect(await outcome.getAttribute('class')).not.toMatch(/\bbad\b/);
    await expect
      .poll(() => card.locator('.quorum').textContent())
      .toBe('Needs 2 approvals from finance — 1 of 2 approved: Li');
    expect(await card.locator('.quorum-count').textContent()).toBe('Approvals: 1 of 2');
    expect(await approving(card).count()).toBe(0);
    const already = 'You approved this already: it waits for another person to approve it.';
    expect(await card.locator('.why-not').textContent()).toBe(already);
    expect(await card.getAttribute('data-status')).toBe('pending');
    expect(h.app.refunds).toEqual([]);
    await screenshot(li, 'quorum-recorded');

    // Reloaded, the page offers Li no Confirm still, and says why; Reject stays (a no from anyone stops it).
    await li.reload();
    const reloaded = await openCard(cardOf(li, id));
    await expect.poll(() => reloaded.locator('.why-not').textContent()).toBe(already);
    expect(await approving(reloaded).count()).toBe(0);
    expect(await reloaded.getByRole('button', { name: 'Reject', exact: true }).count()).toBe(1);
    await li.goto(`${h.app.url}/confirmations/${id}`);
    await expect.poll(() => li.locator('ol.history').textContent()).toContain('Li approved (1 of 2)');

    // Someone without `finance` is told which permission approving it needs.
    const bo = await openInbox(BO);
    const boCard = await openCard(cardOf(bo, id));
    await expect
      .poll(() => boCard.locator('.why-not').textContent())
      .toBe(
        'Approving this needs the finance permission, which you do not have: someone who has it must approve.',
      );
    expect(await approving(boCard).count()).toBe(0);
    await screenshot(bo, 'quorum-without-the-flag');

    // Wu's approval completes it: the usual Confirm, and it is delivered once.
    const wu = await openInbox(WU);
    const wuCard = await openCard(cardOf(wu, id));
    expect(await wuCard.locator('.quorum').textContent()).toBe(
      'Needs 2 approvals from finance — 1 of 2 approved: Li',
    );
    await wuCard.getByRole('button', { name: 'Confirm and send', exact: true }).click();
    expect(await outcomeOf(wuCard)).toMatch(/^Delivered\./);
    expect(h.app.refunds).toEqual([{ orderId: 'o-88', amount: '€1200.00', approvedBy: 'lead-wu' }]);
    await expect.poll(() => wuCard.locator('.decided').textContent()).toBe('Approved by Li and Wu');
    await screenshot(wu, 'quorum-delivered');
    // Li's detail page follows live: both approvals in its history, and no button.
    await expect.poll(() => li.locator('ol.history').textContent()).toContain('Wu approved');
    expect(await li.locator('article.confirmation').getAttribute('data-status')).toBe('delivered');
    expect(await approving(li.locator('article.confirmation')).count()).toBe(0);
  });

  it('"Confirm selected" lists a send that needs more approvers as one approval of several, and records it', async () => {
    const big = await h.app.askRefund('o-90', BIG);
    const small = await h.app.askRefund('o-91', 4900);
    const li = await openInbox(LI);
    await cardOf(li, big).waitFor();
    await cardOf(li, small).waitFor();
    await li.getByRole('checkbox', { name: 'Select all pending' }).check();
    await li.getByRole('button', { name: 'Confirm selected' }).click();
    const fate = (id: string) => li.locator(`.send-list li[data-id="${id}"] .fate`).textContent();
    await expect.poll(() => li.locator('.bulk-step li').count()).toBe(2);
    expect(await fate(big)).toBe('Not sent yet: your approval makes 1 of 2; 1 more approval is needed.');
    expect(await fate(small)).toBe('Sent now.');
    await li.getByRole('button', { name: 'Confirm 2', exact: true }).click();
    await expect.poll(() => cardOf(li, small).getAttribute('data-status')).toBe('delivered');
    await expect.poll(() => cardOf(li, big).locator('.quorum-count').textContent()).toBe('Approvals: 1 of 2');
    expect(await cardOf(li, big).getAttribute('data-status')).toBe('pending');
    expect(h.app.refunds.map((r) => r.orderId)).toEqual(['o-91']);
  });

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'axe-core finds no violation on a quorum card at %i px (%s): the inbox, the open card, the detail page',
    async (width, locale) => {
      const first = await h.app.askRefund('o-88', BIG);
      const second = await h.app.askRefund('o-89', BIG + 35_000);
      await approveAs(first, LI, 'AWAITING_APPROVALS');
      await approveAs(second, LI, 'AWAITING_APPROVALS');
      const zh = locale === 'zh-CN';

      // Li, who approved both: the compact rows, then one open with why Confirm is not offered.
      const li = await openInbox(LI, { locale, width });
      await cardOf(li, second).waitFor();
      await expect
        .poll(() => cardOf(li, second).locator('.quorum-count').textContent())
        .toBe(zh ? '批准进度： 1/2' : 'Approvals: 1 of 2');
      expect(await violations(li), `inbox ${locale}`).toEqual([]);
      const open = await openCard(cardOf(li, first));
      await expect
        .poll(() => open.locator('.quorum').textContent())
        .toBe(
          zh
            ? '需要 2 位拥有 finance 权限的人批准 — 已有 1/2 人批准：Li'
            : 'Needs 2 approvals from finance — 1 of 2 approved: Li',
        );
      expect(await open.locator('.why-not').textContent()).toBe(
        zh
          ? '你已批准过此项：正在等待其他人批准。'
          : 'You approved this already: it waits for another person to approve it.',
      );
      expect(await violations(li), `open card ${locale}`).toEqual([]);
      await screenshot(li, `quorum-${width}-${locale}-first-approver`);

      // Wu, who can complete it: the detail page with its history and Confirm.
      const wu = await openInbox(WU, { locale, width });
      await wu.goto(`${h.app.url}/confirmations/${first}`);
      await expect
        .poll(() => wu.locator('ol.history').textContent())
        .toContain(zh ? 'Li 已批准（1/2）' : 'Li approved (1 of 2)');
      await wu.getByRole('button', { name: zh ? '确认发送' : 'Confirm and send', exact: true }).waitFor();
      await wu.locator('.tech summary').click();
      expect(await violations(wu), `detail ${locale}`).toEqual([]);
      await screenshot(wu, `quorum-${width}-${locale}-second-approver`);
      // Nothing wider than the screen.
      const scrollWidth = await wu.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
    },
    120_000,
  );
});
