// The console's end-to-end scenarios in real Chromium, shared by the SQLite and the PostgreSQL files:
// a person opens the inbox and decides, and every outcome the issue names is checked both in the page
// (in words, inside the card) and in what `deliver` actually sent. Every wait is on DOM state.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Message, NAMES } from './console-app.js';
import { consoleHarness, type TestStore } from './harness.js';

export type { TestStore } from './harness.js';

/** The little of the page's globals the tests touch inside `page.evaluate` (the Node tsconfig has no DOM). */
export interface BrowserGlobals {
  readonly document: {
    querySelector(selector: string): { click(): void } | null;
    readonly activeElement: { matches(selector: string): boolean } | null;
    readonly documentElement: { readonly scrollWidth: number };
  };
  getComputedStyle(element: unknown): { readonly outlineStyle: string };
}

const LI = { id: 'lead-li', name: 'Li' };
const WU = { id: 'lead-wu', name: 'Wu' };

export const refund: Message = {
  to: 'ana@example.com',
  subject: 'Your duplicate charge',
  text: 'We refunded the duplicate charge of €49.00; it will show on your card within 5 days.',
};

/** The card of confirmation `id`: the one element holding its title, payload and buttons. */
export function cardOf(page: Page, id: string): Locator {
  return page.locator(`article.confirmation[data-id="${id}"]`);
}

/** Opens an inbox row (its "Review" button) so its buttons show; an open card stays open. */
export async function openCard(card: Locator): Promise<Locator> {
  await card.waitFor();
  if ((await card.getAttribute('data-expanded')) !== 'true')
    await card.getByRole('button', { name: /^(Review|查看)$/ }).click();
  await expect.poll(() => card.getAttribute('data-expanded')).toBe('true');
  return card;
}

/** The card's outcome line (role=status), once it says something other than "Working…". */
export async function outcomeOf(card: Locator): Promise<string> {
  const status = card.getByRole('status');
  await expect
    .poll(async () => (await status.textContent()) ?? '', { timeout: 20_000 })
    .toMatch(/^(?!Working|处理中).+/);
  return (await status.textContent()) ?? '';
}

export function describeConsoleScenarios(name: string, openStore: () => Promise<TestStore>): void {
  describe(`approvals console in Chromium (${name})`, () => {
    const h = consoleHarness(openStore);

    /** A browser context signed in as `person`, on the inbox. */
    const openInbox = async (person = LI): Promise<Page> => {
      const context = await h.newContext({ locale: 'en-US' });
      await h.app.signIn(context, person);
      const page = await context.newPage();
      await page.goto(`${h.app.url}/`);
      await page.locator('.live[data-live="on"]').waitFor();
      return page;
    };
    const confirmButton = (card: Locator) =>
      card.getByRole('button', { name: 'Confirm and send', exact: true });

    it('a person opens the inbox, sees the pending send as it will go out, confirms: deliver ran once', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      const card = cardOf(page, id);
      await expect.poll(() => card.textContent()).toContain(refund.text);
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Reply to the customer');
      expect(text).toContain('Emails the customer at ana@example.com');
      expect(text).toContain('Asked by Desk bot Ana');
      expect(await card.getAttribute('data-status')).toBe('pending');
      await expect.poll(() => card.locator('.countdown').textContent()).toMatch(/^Expires in \d+:\d\d/);
      // A compact row offers no button until opened: what is sent is seen first.
      expect(await confirmButton(card).count()).toBe(0);
      await openCard(card);
      expect(await card.locator('.payload').textContent()).toContain(refund.text);

      await confirmButton(card).click();

      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
      expect(h.app.deliveries).toEqual([refund]);
      const stored = await h.app.registry.confirmations.get(id);
      expect(stored.ok && stored.confirmation.history.find((h) => h.status === 'delivering')?.by).toBe(
        'lead-li',
      );
      expect(await card.textContent()).toContain('Approved by Li');
    });

    it('why and who: the asker’s note and links, the app’s names, the labels, and the history in words', async () => {
      const id = await h.app.ask(refund, 'agent-ana', {
        note: 'The customer asked twice about the duplicate charge; this confirms the refund.',
        links: [
          { label: 'Conversation #4411', url: 'https://desk.example/c/4411' },
          { label: 'Order o-77', url: 'https://shop.example/orders/o-77' },
        ],
        ref: 'conv-4411',
      });
      const page = await openInbox();
      const card = await openCard(cardOf(page, id));
      const why = card.locator('.why');
      expect(await why.textContent()).toContain(
        'The customer asked twice about the duplicate charge; this confirms the refund.',
      );
      const link = why.getByRole('link', { name: 'Conversation #4411' });
      expect(await link.getAttribute('href')).toBe('https://desk.example/c/4411');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await why.getByRole('link').count()).toBe(2);
      // The note is labelled as the asker's words, and each link says where it really goes.
      expect(await why.locator('.why-label').textContent()).toBe("Why, in Desk bot Ana's words");
      expect(await why.locator('.link-host').allTextContents()).toEqual([
        ' (desk.example)',
        ' (shop.example)',
      ]);
      expect(await card.locator('.meta').textContent()).toContain('Asked by Desk bot Ana');
      expect(await card.locator('.payload dt').evaluateAll((all) => all.map((dt) => dt.textContent))).toEqual(
        ['To', 'Subject', 'Text'],
      );
      expect(await card.locator('.tech .ref').textContent()).toBe('conv-4411');
      // Plain words first: the digest and canonical JSON wait behind "Technical details".
      expect(await card.locator('.tech').getAttribute('open')).toBeNull();
      expect(await card.locator('.tech summary').textContent()).toBe('Technical details');

      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      await page.goto(`${h.app.url}/confirmations/${id}`);
      const history = page.locator('ol.history .words');
      await expect
        .poll(() => history.evaluateAll((all) => all.map((w) => w.textContent)))
        .toEqual(['Desk bot Ana asked for it', 'Li approved', 'Delivered']);
      // The result as fields, not JSON.
      expect(await page.locator('.result dt').first().textContent()).toBe('messageId');
    });

    it('a double click on Confirm sends one request and delivers once', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url());
      });
      const card = await openCard(cardOf(page, id));
      await confirmButton(card).dblclick();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toHaveLength(1);
      expect(posts).toEqual([`${h.app.url}/api/confirmations/${id}/confirm`]);
    });

    it('two people confirm the same send at once: one delivery, and each page says who won', async () => {
      const id = await h.app.ask(refund);
      const [li, wu] = [await openInbox(LI), await openInbox(WU)];
      const cards = [cardOf(li, id), cardOf(wu, id)];
      for (const card of cards) await openCard(card);
      await Promise.all(cards.map((card) => confirmButton(card).waitFor()));
      // Both clicks land in the same instant when the machine allows; whichever page loses is told,
      // by the server's ALREADY_DECIDED answer or by the live update that arrived first.
      await Promise.all(
        [li, wu].map((page) =>
          page.evaluate((cardId) => {
            const { document } = globalThis as unknown as BrowserGlobals;
            document.querySelector(`article[data-id="${cardId}"] button.primary`)?.click();
          }, id),
        ),
      );
      for (const card of cards) await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
      expect(h.app.deliveries).toHaveLength(1);
      const stored = await h.app.registry.confirmations.get(id);
      const winner = stored.ok ? stored.confirmation.history.find((h) => h.status === 'delivering')?.by : '';
      expect([LI.id, WU.id]).toContain(winner);
      for (const card of cards)
        await expect.poll(() => card.textContent()).toContain(`Approved by ${NAMES[winner ?? '']}`);
    });

    it('a page whose live updates are cut off confirms late: ALREADY_DECIDED, and it names who decided', async () => {
      const id = await h.app.ask(refund);
      const li = await openInbox(LI);
      const context = await h.newContext({ locale: 'en-US' });
      await h.app.signIn(context, WU);
      const wu = await context.newPage();
      await wu.route('**/api/events', (route) => route.abort());
      await wu.goto(`${h.app.url}/`);
      const stale = await openCard(cardOf(wu, id));
      await confirmButton(stale).waitFor();

      await confirmButton(await openCard(cardOf(li, id))).click();
      expect(await outcomeOf(cardOf(li, id))).toMatch(/^Delivered\./);
      await confirmButton(stale).click();

      expect(await outcomeOf(stale)).toBe('Already decided by Li (Delivered). Nothing was sent again.');
      expect(await stale.getAttribute('data-status')).toBe('delivered');
      expect(h.app.deliveries).toHaveLength(1);
    });

    it('a send past its expiry: Confirm says it expired, nothing is delivered', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      const card = await openCard(cardOf(page, id));
      await confirmButton(card).waitFor();
      h.app.advanceClock(25 * 60 * 60 * 1000);
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toBe('Expired: nobody decided in time; nothing was sent.');
      await expect.poll(() => card.getAttribute('data-status')).not.toBe('pending');
      expect(h.app.deliveries).toEqual([]);
    });

    it('a payload changed after it was shown: Confirm says so, nothing is delivered, and it is not offered again', async () => {
      const id = await h.app.ask(refund);
      // No live updates on this page: the change must not reach it before the click (a live update
      // would take the button away first, which the reload below checks).
      const context = await h.newContext({ locale: 'en-US' });
      await h.app.signIn(context, LI);
      const page = await context.newPage();
      await page.route('**/api/events', (route) => route.abort());
      await page.goto(`${h.app.url}/`);
      const card = await openCard(cardOf(page, id));
      await confirmButton(card).waitFor();
      await h.store.tamperPayload(id, { ...refund, to: 'attacker@example.net' });
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toBe(
        'The payload changed since it was shown: nothing was sent. Review it again.',
      );
      expect(h.app.deliveries).toEqual([]);
      await page.reload();
      const again = await openCard(cardOf(page, id));
      await expect
        .poll(() => again.locator('.why-not').textContent())
        .toBe('What is stored changed since it was asked for: it cannot be confirmed as it is.');
      expect(await confirmButton(again).count()).toBe(0);
    });

    it('reject with a reason: the reason is recorded, the card says rejected, nothing is delivered', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      const card = await openCard(cardOf(page, id));
      await card.getByLabel('Reason for rejecting (optional)').fill('The refund was already sent by phone.');
      await card.getByRole('button', { name: 'Reject', exact: true }).click();
      expect(await outcomeOf(card)).toBe('Rejected: nothing was sent.');
      await expect.poll(() => card.getAttribute('data-status')).toBe('rejected');
      await expect
        .poll(() => card.textContent())
        .toContain('Rejected by Li: The refund was already sent by phone.');
      const stored = await h.app.registry.confirmations.get(id);
      expect(stored.ok && stored.confirmation.history.at(-1)).toMatchObject({
        status: 'rejected',
        by: 'lead-li',
        note: 'The refund was already sent by phone.',
      });
      expect(h.app.deliveries).toEqual([]);
    });

    it('edit then confirm on the detail page: the edited payload is what deliver gets, and the history says so', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      await cardOf(page, id).getByRole('link', { name: 'Reply to the customer' }).click();
      await page.waitForURL(`${h.app.url}/confirmations/${id}`);
      const canonical = page.locator('.tech pre.canonical');
      await expect.poll(() => canonical.textContent()).toContain('"subject":"Your duplicate charge"');
      const edited = 'We refunded the duplicate charge of €49.00. Sorry for the trouble!';
      await page.getByLabel('Text', { exact: true }).fill(edited);
      await page.getByRole('button', { name: 'Preview edit' }).click();
      const preview = page.locator('.preview');
      await expect.poll(() => preview.textContent()).toContain('Changed: Text');
      expect(await preview.locator('code.digest').textContent()).toMatch(/^[0-9a-f]{64}$/);
      await expect.poll(() => canonical.textContent()).toContain(edited);

      const card = cardOf(page, id);
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toEqual([{ ...refund, text: edited }]);
      const stored = await h.app.registry.confirmations.get(id);
      const claim = stored.ok
        ? stored.confirmation.history.find((h) => h.status === 'delivering')
        : undefined;
      expect(claim?.edit?.fields).toEqual(['text']);
      await expect
        .poll(() => page.locator('ol.history').textContent())
        .toContain('Li approved, after editing Text');
    });

    it('an edit typed but not previewed is never sent: Confirm waits for Preview, then sends what the card shows', async () => {
      const id = await h.app.ask(refund);
      const page = await openInbox();
      await page.goto(`${h.app.url}/confirmations/${id}`);
      const card = cardOf(page, id);
      const send = confirmButton(card);
      await send.waitFor();
      const edited = 'We refunded the duplicate charge. Sorry!';
      await page.getByLabel('Text', { exact: true }).fill(edited);
      // Not previewed: the card still shows the original, so Confirm is not offered, and says why.
      await expect.poll(() => send.isDisabled()).toBe(true);
      const why = card.locator('.why-not');
      await expect.poll(() => why.textContent()).toMatch(/Preview/);
      expect(await card.locator('.payload').textContent()).toContain(refund.text);
      await send.click({ force: true });
      expect(h.app.deliveries).toEqual([]);

      await page.getByRole('button', { name: 'Preview edit' }).click();
      // Previewed: the card shows the edited payload and its digest, and Confirm sends exactly that.
      await expect.poll(() => card.locator('.payload').textContent()).toContain(edited);
      const previewed = await page.locator('.preview code.digest').textContent();
      await expect.poll(() => card.locator('code.digest').first().textContent()).toBe(previewed);
      await expect.poll(() => send.isDisabled()).toBe(false);
      await send.click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toEqual([{ ...refund, text: edited }]);
    });

    it('select several, Confirm selected: each is delivered and gets its own result; the rest stay pending', async () => {
      const ids = [
        await h.app.ask({ ...refund, to: 'a@example.com' }),
        await h.app.ask({ ...refund, to: 'b@example.com' }),
        await h.app.ask({ ...refund, to: 'c@example.com' }),
      ];
      const page = await openInbox();
      for (const id of ids.slice(0, 2)) await cardOf(page, id).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Confirm selected' }).click();
      // First each selected one with what will happen to it, then "Confirm 2".
      const step = page.locator('.bulk-step');
      await expect.poll(() => step.textContent()).toContain('What confirming these 2 selected will do:');
      for (const id of ids.slice(0, 2))
        expect(await step.locator(`li[data-id="${id}"] .fate`).textContent()).toBe('Sent now.');
      expect(await step.textContent()).toContain('Emails the customer at a@example.com');
      expect(await step.textContent()).toContain('Emails the customer at b@example.com');
      expect(h.app.deliveries).toEqual([]);
      await page.getByRole('button', { name: 'Confirm 2', exact: true }).click();
      for (const id of ids.slice(0, 2)) expect(await outcomeOf(cardOf(page, id))).toMatch(/^Delivered\./);
      await expect
        .poll(() => page.locator('.bulk-outcome .bulk-summary').textContent())
        .toBe('2 done, 0 not done: see each card.');
      expect(await cardOf(page, ids[2] ?? '').getAttribute('data-status')).toBe('pending');
      expect(h.app.deliveries.map((m) => m.to).sort()).toEqual(['a@example.com', 'b@example.com']);
    });

    it('a payload holding HTML is shown as those characters and runs nothing', async () => {
      const xss = '<img src=x onerror=window.__xss=1>';
      const id = await h.app.ask({ ...refund, subject: xss, text: `Hello ${xss}` });
      const page = await openInbox();
      const card = cardOf(page, id);
      await expect.poll(() => card.textContent()).toContain(`Hello ${xss}`);
      expect(await card.locator('img').count()).toBe(0);
      await page.goto(`${h.app.url}/confirmations/${id}`);
      await expect.poll(() => page.locator('.tech pre.canonical').textContent()).toContain(xss);
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
    });

    it('a send that failed offers Retry and Mark delivered; Retry delivers it', async () => {
      h.app.failNextDelivery();
      const id = await h.app.ask(refund);
      const page = await openInbox();
      const card = await openCard(cardOf(page, id));
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toContain('Delivery failed');
      await expect.poll(() => card.getAttribute('data-status')).toBe('failed');
      expect(await card.getByRole('button', { name: 'Mark delivered', exact: true }).count()).toBe(1);
      await card.getByRole('button', { name: 'Retry', exact: true }).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toEqual([refund]);
    });

    it('a new send appears in an open inbox without a reload', async () => {
      const page = await openInbox();
      await page.locator('.empty').waitFor();
      const id = await h.app.ask(refund);
      await expect.poll(() => cardOf(page, id).textContent()).toContain(refund.text);
    });
  });
}
