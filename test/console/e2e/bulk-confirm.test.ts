// "Confirm selected" over four different sends, in Chromium on a SQLite file: a plain reply (sent now),
// a payment reminder held 30 s for its undo window, a refund that needs two finance approvers, and one
// the approver already approved. Before the click the dialog lists every selected one with what will
// happen to it; after, it says what did. Clean under axe-core on a desktop (English) and a phone
// (Chinese). With CONSOLE_SCREENSHOTS=<dir> the dialog and the result are saved there as PNGs.
import type { ConsolePerson } from 'graded-tools/console';
import { describe, expect, it } from 'vitest';
import { approverPages, screenshot, sqliteStores, violations } from './approver-pages.js';
import { consoleHarness } from './harness.js';
import type { BrowserGlobals } from './scenarios.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li', flags: { finance: true } };
/** €1,200.00: over the rule's €500, so two finance approvers. */
const BIG = 120_000;

const WORDS = {
  'en-US': {
    selectAll: 'Select all pending',
    confirmSelected: 'Confirm selected',
    title: 'What confirming these 4 selected will do:',
    button: 'Confirm 3',
    now: 'Sent now.',
    held: /^Held for 30 seconds \(until about .+\) so it can be undone, then sent\.$/,
    approval: 'Not sent yet: your approval makes 1 of 2; 1 more approval is needed.',
    leftOut:
      'Left out, you cannot confirm it: You approved this already: it waits for another person to approve it.',
    sent: 'Delivered.',
    scheduled: /^Approved — sending at .+ unless someone presses Undo\.$/,
    recorded: 'Your approval is recorded (1 of 2). Nothing is sent until 1 more person approves.',
    done: '3 done, 0 not done: see each card.',
  },
  'zh-CN': {
    selectAll: '全选待确认项',
    confirmSelected: '确认所选',
    title: '确认所选的这 4 项将会：',
    button: '确认 3 项',
    now: '立即发送。',
    held: /^先保留 30 ?秒钟?（约到 .+），此前可撤销，之后发送。$/,
    approval: '暂不发送：加上你的批准为 1/2，还需 1 人批准。',
    leftOut: '不包括在内，你不能确认它：你已批准过此项：正在等待其他人批准。',
    sent: '已送达。',
    scheduled: /^已批准 — 将于 .+ 发送，除非有人点击撤销。$/,
    recorded: '你的批准已记录（1/2）。还需 1 人批准后才会发送。',
    done: '3 项已完成，0 项未完成：请看各卡片。',
  },
} as const;

const openStore = sqliteStores('bulk');

describe('"Confirm selected" says what will happen to every selected send, in Chromium', () => {
  const h = consoleHarness(openStore);
  const { openInbox, approveAs } = approverPages(h);

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'at %i px (%s): sent now, held until, one more approval needed, left out and why — before and after',
    async (width, locale) => {
      const w = WORDS[locale];
      const reply = await h.app.ask({ to: 'ana@example.com', subject: 'Refund', text: 'It is on its way.' });
      const reminder = await h.app.askHeld('bo@example.com');
      const refund = await h.app.askRefund('o-90', BIG);
      const approved = await h.app.askRefund('o-91', BIG + 10_000);
      await approveAs(approved, LI, 'AWAITING_APPROVALS');

      const li = await openInbox(LI, { locale, width });
      for (const id of [reply, reminder, refund, approved])
        await li.locator(`article.confirmation[data-id="${id}"]`).waitFor();
      await li.getByRole('checkbox', { name: w.selectAll }).check();
      await li.getByRole('button', { name: w.confirmSelected }).click();

      // Before the click: every selected send, each with what will happen to it.
      const step = li.locator('.bulk-step');
      await expect.poll(() => step.locator('h2').textContent()).toBe(w.title);
      const fate = (id: string) => step.locator(`li[data-id="${id}"] .fate`).textContent();
      expect(await step.locator('li').count()).toBe(4);
      expect(await fate(reply)).toBe(w.now);
      expect(await fate(reminder)).toMatch(w.held);
      expect(await fate(refund)).toBe(w.approval);
      expect(await fate(approved)).toBe(w.leftOut);
      const confirm = step.getByRole('button', { name: w.button, exact: true });
      expect(await confirm.count()).toBe(1);
      expect(h.app.deliveries).toEqual([]);
      expect(await violations(li), `dialog ${locale}`).toEqual([]);
      const scrollWidth = await li.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
      await screenshot(li, `bulk-${width}-${locale}-dialog`);

      // After the click: the same list, with what happened to each.
      await confirm.click();
      const outcome = li.locator('.bulk-outcome');
      await expect.poll(() => outcome.locator('.bulk-summary').textContent()).toBe(w.done);
      const result = (id: string) => outcome.locator(`li[data-id="${id}"] .fate`).textContent();
      expect(await outcome.locator('li').count()).toBe(4);
      expect(await result(reply)).toBe(w.sent);
      expect(await result(reminder)).toMatch(w.scheduled);
      expect(await result(refund)).toBe(w.recorded);
      expect(await result(approved)).toBe(w.leftOut);
      expect(h.app.deliveries.map((m) => m.to)).toEqual(['ana@example.com']);
      expect(h.app.reminders).toEqual([]);
      expect(h.app.refunds).toEqual([]);
      const stored = await h.app.registry.confirmations.get(reminder);
      expect(stored.ok && stored.confirmation.status).toBe('scheduled');
      expect(await violations(li), `result ${locale}`).toEqual([]);
      await screenshot(li, `bulk-${width}-${locale}-result`);
    },
    120_000,
  );
});
