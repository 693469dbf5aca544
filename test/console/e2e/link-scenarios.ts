// One-time approval links in real Chromium, shared by the SQLite and the PostgreSQL files: a person
// with no session opens the emailed URL, sees that one send, and decides once. Every outcome is
// checked in the page and in what `deliver` actually sent; every wait is on DOM state.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cspViolations, recordCspViolations } from './browser.js';
import { consoleHarness } from './harness.js';
import { type BrowserGlobals, cardOf, outcomeOf, refund, type TestStore } from './scenarios.js';

const LI = { id: 'lead-li', name: 'Li' };
/** Where the link tests mount the console, so the page's base path is exercised too. */
const BASE = '/approvals';

export function describeLinkScenarios(name: string, openStore: () => Promise<TestStore>): void {
  describe(`approval links in Chromium (${name})`, () => {
    const h = consoleHarness(openStore, { basePath: BASE });

    /** A link to `id` for Li; fails the test when none is made. */
    const linkTo = async (id: string, ttlMs?: number): Promise<{ url: string; token: string }> => {
      const made = await h.app.createApprovalLink(id, { approver: LI, ...(ttlMs ? { ttlMs } : {}) });
      if (!made.ok) throw new Error(`no link: ${JSON.stringify(made)}`);
      expect(made.url).toMatch(new RegExp(`^${h.app.url}/link/${id}#[A-Za-z0-9_-]{43}$`));
      return { url: made.url, token: made.url.split('#')[1] ?? '' };
    };
    /** A fresh browser context, never signed in. */
    const newContext = (viewport = { width: 1280, height: 800 }) =>
      h.newContext({ locale: 'en-US', viewport });
    /** Opens `url` in a new context with no session; resolves once the page shows a card or a refusal. */
    const openLink = async (url: string, context?: BrowserContext): Promise<Page> => {
      const page = await (context ?? (await newContext())).newPage();
      await page.goto(url);
      await page.locator('article.confirmation, p.refused').first().waitFor();
      return page;
    };
    const confirmButton = (card: Locator) =>
      card.getByRole('button', { name: 'Confirm and send', exact: true });
    const rejectButton = (card: Locator) => card.getByRole('button', { name: 'Reject', exact: true });
    /** The page refuses the link: the server's code, its words, and no card or button at all. */
    const refusalOf = async (page: Page): Promise<{ code: string | null; text: string }> => {
      const refused = page.locator('p.refused[role="status"]');
      await refused.waitFor();
      expect(await page.locator('article.confirmation').count()).toBe(0);
      expect(await page.getByRole('button').count()).toBe(0);
      expect(await page.locator('body').textContent()).not.toContain(refund.text);
      return { code: await refused.getAttribute('data-code'), text: (await refused.textContent()) ?? '' };
    };
    const statusOf = async (id: string) => {
      const stored = await h.app.registry.confirmations.get(id);
      return stored.ok ? stored.confirmation.status : stored.code;
    };

    it('opened with no session: the card shows the send, Confirm delivers it once as the link’s approver', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      // Opening changes nothing (a mail scanner's prefetch): a first look, then the real visit.
      await cardOf(await openLink(url), id).waitFor();
      const page = await openLink(url);
      expect(await page.context().cookies()).toEqual([]);
      const card = cardOf(page, id);
      await expect.poll(() => card.textContent()).toContain(refund.text);
      expect(await card.textContent()).toContain('ana@example.com');
      expect(await page.locator('.person').textContent()).toBe(
        'Approval link for Li (lead-li): it works once',
      );
      expect(await page.getByRole('link').count()).toBe(0);
      expect(await page.locator('form.edit, textarea').count()).toBe(0);
      // The token left the address bar (history, bookmarks, screenshots); a reload still opens the page.
      expect(page.url()).toBe(url.split('#')[0]);
      await page.reload();
      await confirmButton(card).waitFor();

      await confirmButton(card).click();

      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
      expect(await card.getByRole('button').count()).toBe(0);
      expect(h.app.deliveries).toEqual([refund]);
      const stored = await h.app.registry.confirmations.get(id);
      expect(stored.ok && stored.confirmation.history.find((h) => h.status === 'delivering')?.by).toBe(LI.id);
      expect(h.app.answered.filter((a) => a.withSession)).toEqual([]);
    });

    it('a used link opens nothing the second time: LINK_REFUSED, no buttons, still one delivery', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const firstPage = await openLink(url);
      const first = cardOf(firstPage, id);
      await confirmButton(first).click();
      expect(await outcomeOf(first)).toMatch(/^Delivered\./);
      // Decided: the page leads on to the console.
      const onward = firstPage.getByRole('link', { name: 'Open the approvals console' });
      await onward.waitFor();
      expect(await onward.getAttribute('href')).toBe(`${new URL(h.app.url).pathname.replace(/\/$/, '')}/`);

      const usedPage = await openLink(url);
      const refusal = await refusalOf(usedPage);

      expect(refusal.code).toBe('LINK_REFUSED');
      expect(refusal.text).toContain('already used');
      expect(
        await usedPage.getByRole('link', { name: 'Open the approvals console' }).getAttribute('href'),
      ).toBe(`${new URL(h.app.url).pathname.replace(/\/$/, '')}/`);
      expect(h.app.deliveries).toEqual([refund]);
    });

    it('two tabs confirm the same link at once: one delivery, the other tab is refused and offers nothing', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const context = await newContext();
      const tabs = [await openLink(url, context), await openLink(url, context)];
      await Promise.all(tabs.map((tab) => confirmButton(cardOf(tab, id)).waitFor()));
      // Both clicks in the same instant when the machine allows; either way one use wins.
      await Promise.all(
        tabs.map((tab) =>
          tab.evaluate((cardId) => {
            const { document } = globalThis as unknown as BrowserGlobals;
            document.querySelector(`article[data-id="${cardId}"] button.primary`)?.click();
          }, id),
        ),
      );
      const outcomes = await Promise.all(tabs.map((tab) => outcomeOf(cardOf(tab, id))));
      const codes = await Promise.all(
        tabs.map((tab) => cardOf(tab, id).getByRole('status').getAttribute('data-outcome')),
      );
      expect([...codes].sort()).toEqual(['LINK_REFUSED', 'delivered']);
      const loser = tabs[codes.indexOf('LINK_REFUSED')] as Page;
      expect(outcomes[codes.indexOf('LINK_REFUSED')]).toContain('already used');
      expect(await cardOf(loser, id).getByRole('button').count()).toBe(0);
      expect(h.app.deliveries).toEqual([refund]);
    });

    it('a link moved to another confirmation’s id opens nothing, spends nothing, and still works for its own', async () => {
      const a = await h.app.ask(refund);
      const b = await h.app.ask({ ...refund, to: 'bo@example.com' });
      const { url, token } = await linkTo(a);
      const stray = url.replace(`/link/${a}#`, `/link/${b}#`);

      const page = await openLink(stray);
      const refusal = await refusalOf(page);
      expect(refusal.code).toBe('LINK_REFUSED');
      expect(refusal.text).toContain('not valid here');
      // The page offers no button; a hand-made confirm of B with A's token is refused the same way.
      const storedB = await h.app.registry.confirmations.get(b);
      const digestB = storedB.ok ? storedB.confirmation.digest : '';
      const answer = await page.evaluate(
        async ({ path, link, digest }) => {
          const response = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-approval-link': link },
            body: JSON.stringify({ digest }),
          });
          return { status: response.status, body: (await response.json()) as unknown };
        },
        { path: `${BASE}/api/confirmations/${b}/confirm`, link: token, digest: digestB },
      );
      expect(answer).toEqual({
        status: 404,
        body: expect.objectContaining({ ok: false, code: 'LINK_REFUSED', reason: 'unknown' }),
      });
      expect(await statusOf(b)).toBe('pending');
      expect(await statusOf(a)).toBe('pending');
      expect(h.app.deliveries).toEqual([]);

      const own = cardOf(await openLink(url), a);
      await confirmButton(own).click();
      expect(await outcomeOf(own)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toEqual([refund]);
      expect(await statusOf(b)).toBe('pending');
    });

    it('a link past its own expiry: Confirm is refused as expired, a reload opens nothing, nothing is delivered', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id, 60_000);
      const page = await openLink(url);
      const card = cardOf(page, id);
      await confirmButton(card).waitFor();
      h.app.advanceClock(2 * 60_000);

      const answered = page.waitForResponse((r) => r.request().method() === 'POST');
      await confirmButton(card).click();
      const response = await answered;
      expect(response.status()).toBe(410);
      expect(await response.json()).toMatchObject({ code: 'LINK_REFUSED', reason: 'expired' });
      expect(await outcomeOf(card)).toContain('expired');
      expect(await card.getByRole('button').count()).toBe(0);

      const refusal = await refusalOf(await openLink(url));
      expect(refusal).toEqual({ code: 'LINK_REFUSED', text: expect.stringContaining('expired') });
      // The link expired, not the confirmation: it still waits for someone in the console.
      expect(await statusOf(id)).toBe('pending');
      expect(h.app.deliveries).toEqual([]);
    });

    it('a payload changed behind the registry’s back after the link was made: PAYLOAD_CHANGED, nothing delivered', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const page = await openLink(url);
      const card = cardOf(page, id);
      await confirmButton(card).waitFor();
      await h.store.tamperPayload(id, { ...refund, to: 'attacker@example.net' });

      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^The payload changed/);
      expect(await card.getByRole('status').getAttribute('data-outcome')).toBe('PAYLOAD_CHANGED');
      expect(await card.getByRole('button').count()).toBe(0);

      const refusal = await refusalOf(await openLink(url));
      expect(refusal.code).toBe('PAYLOAD_CHANGED');
      expect(await statusOf(id)).toBe('pending');
      expect(h.app.deliveries).toEqual([]);
    });

    it('Reject through the link: rejected with the reason, nothing delivered, and the link is spent', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const card = cardOf(await openLink(url), id);
      await card.getByLabel('Reason for rejecting (optional)').fill('Already refunded by phone.');
      await rejectButton(card).click();
      expect(await outcomeOf(card)).toBe('Rejected: nothing was sent.');
      await expect.poll(() => card.getAttribute('data-status')).toBe('rejected');
      const stored = await h.app.registry.confirmations.get(id);
      expect(stored.ok && stored.confirmation.history.at(-1)).toMatchObject({
        status: 'rejected',
        by: LI.id,
        note: 'Already refunded by phone.',
      });

      const refusal = await refusalOf(await openLink(url));
      expect(refusal.code).toBe('LINK_REFUSED');
      expect(h.app.deliveries).toEqual([]);
    });

    it('a delivery that fails spends the link and offers no Retry on its page (the console can retry)', async () => {
      h.app.failNextDelivery();
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const card = cardOf(await openLink(url), id);
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toContain('Delivery failed');
      await expect.poll(() => card.getAttribute('data-status')).toBe('failed');
      expect(await card.getByRole('button').count()).toBe(0);
      expect((await refusalOf(await openLink(url))).code).toBe('LINK_REFUSED');
      expect(await statusOf(id)).toBe('failed');
      expect(h.app.deliveries).toEqual([]);
    });

    it('a confirm lost on the network keeps the buttons: the link was not spent, the next click delivers', async () => {
      const id = await h.app.ask(refund);
      const { url } = await linkTo(id);
      const page = await openLink(url);
      const card = cardOf(page, id);
      await confirmButton(card).waitFor();
      await page.route('**/confirm', (route) => route.abort());
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^The console could not be reached/);
      expect(h.app.deliveries).toEqual([]);
      await page.unroute('**/confirm');
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(h.app.deliveries).toEqual([refund]);
    });

    it('the token never travels in a URL or a Referer: only in the x-approval-link header of API calls', async () => {
      const id = await h.app.ask(refund);
      const { url, token } = await linkTo(id);
      const context = await newContext();
      const seen: { url: string; referer: string; header: string | undefined }[] = [];
      context.on('request', (request) => {
        const headers = request.headers();
        seen.push({ url: request.url(), referer: headers.referer ?? '', header: headers['x-approval-link'] });
      });
      const card = cardOf(await openLink(url, context), id);
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);

      expect(seen.length).toBeGreaterThanOrEqual(4);
      for (const request of seen) {
        expect(request.url).not.toContain(token);
        expect(request.referer).not.toContain(token);
      }
      expect(h.app.answered.length).toBeGreaterThanOrEqual(4);
      for (const answered of h.app.answered) expect(answered.path).not.toContain(token);
      const api = h.app.answered.filter((a) => a.path.startsWith(`${BASE}/api/`));
      expect(api.map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual([
        `GET ${BASE}/api/confirmations/${id} 200`,
        `POST ${BASE}/api/confirmations/${id}/confirm 200`,
      ]);
      for (const call of api) expect(call.linkHeader).toBe(token);
      // The page and its assets are fetched without the token: they are public and hold nothing.
      for (const other of h.app.answered.filter((a) => !api.includes(a)))
        expect(other.linkHeader).toBeUndefined();
      expect(h.app.deliveries).toEqual([refund]);
    });

    it('runs under the strict CSP without one violation, and fits a 375 px phone', async () => {
      const id = await h.app.ask({ ...refund, text: `A very long line without spaces: ${'x'.repeat(300)}` });
      const { url } = await linkTo(id);
      const context = await newContext({ width: 375, height: 740 });
      await recordCspViolations(context);
      const page = await context.newPage();
      const shell = await page.goto(url);
      expect(shell?.headers()['content-security-policy']).toContain("script-src 'self'");
      const card = cardOf(page, id);
      await confirmButton(card).waitFor();
      const box = await confirmButton(card).boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(40);
      const width = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(375);
      await confirmButton(card).click();
      expect(await outcomeOf(card)).toMatch(/^Delivered\./);
      expect(await cspViolations(page)).toEqual([]);
      expect(h.app.deliveries).toHaveLength(1);
    });
  });
}
