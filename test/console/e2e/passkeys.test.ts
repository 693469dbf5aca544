// Passkey approvals in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain):
// a person registers a passkey on the Passkeys page, approves a payout with it ("Approve with passkey",
// said before the click), two people each sign their own approval of a big one, a bundle is approved
// with one assertion over the bundle digest, and the bulk dialog leaves such a card to its card. At
// 1280 px in English and 390 px in Chinese, clean under axe-core.
import type { ConsolePerson } from 'graded-tools/console';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screenshot, sqliteStores, violations } from './approver-pages.js';
import { launchBrowser, PATIENT_POLLS } from './browser.js';
import type { TestStore } from './harness.js';
import { type PasskeyApp, startPasskeyApp } from './passkey-app.js';
import { type BrowserGlobals, cardOf, openCard, outcomeOf } from './scenarios.js';
import { addVirtualAuthenticator } from './virtual-authenticator.js';

const LI: ConsolePerson = { id: 'lead-li', name: 'Li' };
const WU: ConsolePerson = { id: 'lead-wu', name: 'Wu' };

const WORDS = {
  'en-US': {
    passkeys: 'Passkeys',
    add: 'Add a passkey',
    added: 'Passkey “work laptop” added.',
    removed: 'Passkey removed.',
    remove: 'Remove: work laptop',
    approve: 'Approve with passkey',
    approveFirst: 'Approve with passkey (1 of 2)',
    approveAll: 'Approve all 2 steps with passkey',
    before: 'A passkey is required: your browser will ask for yours, and it signs exactly this payload.',
    recorded: 'Your approval is recorded (1 of 2). Nothing is sent until 1 more person approves.',
    bulk: 'Needs a passkey: approve it on its card.',
  },
  'zh-CN': {
    passkeys: '通行密钥',
    add: '添加通行密钥',
    added: '已添加通行密钥“work laptop”。',
    removed: '已移除通行密钥。',
    remove: '移除: work laptop',
    approve: '使用通行密钥批准',
    approveFirst: '使用通行密钥批准（第 1/2 个）',
    approveAll: '使用通行密钥全部批准（共 2 步）',
    before: '需要通行密钥：浏览器会请你使用你的通行密钥，它只对这份内容签名。',
    recorded: '',
    bulk: '需要通行密钥：请在它的卡片上批准。',
  },
} as const;

const openStore = sqliteStores('passkeys');

describe('passkey approvals in Chromium, with a virtual authenticator', () => {
  let browser: Browser;
  let store: TestStore;
  let app: PasskeyApp;
  beforeAll(async () => {
    vi.setConfig(PATIENT_POLLS);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    store = await openStore();
    app = await startPasskeyApp(store.store);
  });
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
    await app?.close();
    await store?.close();
  });

  /** `person` signed in, with an authenticator of their own, on `path`. */
  const signedIn = async (
    person: ConsolePerson,
    view: { locale?: 'en-US' | 'zh-CN'; width?: number } = {},
    path = '/',
  ): Promise<Page> => {
    const width = view.width ?? 1280;
    const context = await browser.newContext({
      locale: view.locale ?? 'en-US',
      viewport: { width, height: width < 500 ? 844 : 800 },
    });
    await app.signIn(context, person);
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    await page.goto(`${app.url}${path}`);
    return page;
  };

  /** Registers a passkey named `label` on the Passkeys page; the page lists it. */
  const register = async (page: Page, label: string, locale: 'en-US' | 'zh-CN' = 'en-US') => {
    const w = WORDS[locale];
    await page.goto(`${app.url}/passkeys`);
    await page.getByRole('heading', { name: w.passkeys, level: 1 }).waitFor();
    await page.locator('#passkey-label').fill(label);
    await page.getByRole('button', { name: w.add, exact: true }).click();
    await expect.poll(() => page.locator('section.passkeys .outcome').textContent()).not.toBe('');
    await expect.poll(() => page.locator('li.passkey').count()).toBe(1);
  };

  it('registers a passkey, lists it as the person’s own, and removes it', async () => {
    const li = await signedIn(LI, {}, '/passkeys');
    await li.getByText('You have no passkey yet.').waitFor();
    await register(li, 'work laptop');
    const w = WORDS['en-US'];
    expect(await li.locator('section.passkeys .outcome').textContent()).toBe(w.added);
    expect(await li.locator('li.passkey .passkey-name').textContent()).toBe('work laptop');
    const listed = await app.registry.passkeys.list({ approver: LI.id });
    expect(listed.ok && listed.credentials.map((c) => c.label)).toEqual(['work laptop']);
    // Wu sees none of Li's.
    const wu = await signedIn(WU, {}, '/passkeys');
    await wu.getByText('You have no passkey yet.').waitFor();
    expect(await wu.locator('li.passkey').count()).toBe(0);

    await li.getByRole('button', { name: w.remove, exact: true }).click();
    await expect.poll(() => li.locator('section.passkeys .outcome').textContent()).toBe(w.removed);
    await expect.poll(() => li.locator('li.passkey').count()).toBe(0);
    const after = await app.registry.passkeys.list({ approver: LI.id });
    expect(after.ok && after.credentials).toEqual([]);
  });

  it('approves a payout with the passkey: said before the click, signed, delivered once', async () => {
    const li = await signedIn(LI);
    await register(li, 'work laptop');
    const id = await app.askPayout('Acme Paper GmbH', 1200);
    await li.goto(`${app.url}/`);
    const card = await openCard(cardOf(li, id));
    const w = WORDS['en-US'];
    expect(await card.locator('.passkey-note').textContent()).toBe(w.before);
    const approve = card.getByRole('button', { name: w.approve, exact: true });
    await approve.click();
    expect(await outcomeOf(card)).toMatch(/^Delivered\./);
    expect(app.payouts).toEqual([{ to: 'Acme Paper GmbH', amount: 1200, approvedBy: LI.id }]);
    // The decision's audit entry keeps the assertion: provable offline from the log alone.
    const verified = await app.registry.audit.verify({ approvals: true });
    expect(verified).toMatchObject({ ok: true });
  });

  it('without a passkey registered, the card says where to add one and nothing is sent', async () => {
    const li = await signedIn(LI);
    const id = await app.askPayout('Acme Paper GmbH', 300);
    await li.goto(`${app.url}/`);
    const card = await openCard(cardOf(li, id));
    await card.getByRole('button', { name: WORDS['en-US'].approve, exact: true }).click();
    const said = await outcomeOf(card);
    expect(said).not.toBe('');
    expect(await card.getByRole('status').getAttribute('data-outcome')).toMatch(/^PASSKEY_/);
    expect(app.payouts).toEqual([]);
  });

  it('a quorum of two: each approver signs their own approval; the second delivers it', async () => {
    const li = await signedIn(LI);
    await register(li, 'li laptop');
    const wu = await signedIn(WU);
    await register(wu, 'wu laptop');
    const id = await app.askPayout('Nordic Ink AB', 9000);
    const w = WORDS['en-US'];

    await li.goto(`${app.url}/`);
    const liCard = await openCard(cardOf(li, id));
    await liCard.getByRole('button', { name: w.approveFirst, exact: true }).click();
    expect(await outcomeOf(liCard)).toBe(w.recorded);
    expect(app.payouts).toEqual([]);

    await wu.goto(`${app.url}/`);
    const wuCard = await openCard(cardOf(wu, id));
    await wuCard.getByRole('button', { name: w.approve, exact: true }).click();
    expect(await outcomeOf(wuCard)).toMatch(/^Delivered\./);
    expect(app.payouts).toEqual([{ to: 'Nordic Ink AB', amount: 9000, approvedBy: WU.id }]);
  });

  it('a bundle is approved with one assertion over the bundle digest, its steps delivered in order', async () => {
    const li = await signedIn(LI);
    await register(li, 'work laptop');
    const { bundleId } = await app.askBundle();
    await li.goto(`${app.url}/`);
    const card = li.locator(`article.bundle[data-bundle="${bundleId}"]`);
    await card.waitFor();
    expect(await card.locator('.passkey-note').textContent()).toBe(WORDS['en-US'].before);
    await card.getByRole('button', { name: WORDS['en-US'].approveAll, exact: true }).click();
    await expect.poll(() => app.payouts.map((p) => p.to)).toEqual(['Acme Paper GmbH', 'Nordic Ink AB']);
    await expect.poll(() => card.getAttribute('data-status')).toBe('delivered');
  });

  it.each([
    [1280, 'en-US'],
    [390, 'zh-CN'],
  ] as const)(
    'at %i px (%s): the Passkeys page, the card, the bulk dialog — axe-clean, nothing wider than the screen',
    async (width, locale) => {
      const w = WORDS[locale];
      const li = await signedIn(LI, { locale, width }, '/passkeys');
      await register(li, 'work laptop', locale);
      expect(await li.locator('section.passkeys .outcome').textContent()).toBe(w.added);
      expect(await violations(li), `passkeys page ${locale}`).toEqual([]);
      expect(await pageWidth(li)).toBeLessThanOrEqual(width);
      await screenshot(li, `passkeys-${width}-${locale}-page`);

      const id = await app.askPayout('Acme Paper GmbH', 1200);
      const other = await app.askPayout('Nordic Ink AB', 300);
      await li.goto(`${app.url}/`);
      const card = await openCard(cardOf(li, id));
      expect(await card.locator('.passkey-note').textContent()).toBe(w.before);
      expect(await card.getByRole('button', { name: w.approve, exact: true }).isVisible()).toBe(true);
      expect(await violations(li), `card ${locale}`).toEqual([]);
      expect(await pageWidth(li)).toBeLessThanOrEqual(width);
      await screenshot(li, `passkeys-${width}-${locale}-card`);

      // Selected for a bulk confirm, each such card is said to be left to its own card.
      await cardOf(li, other).waitFor();
      await li.locator('#select-all').check();
      await li.locator('.bulk > .buttons > button.primary').click();
      const fate = (cid: string) => li.locator(`.send-list li[data-id="${cid}"] .fate`).textContent();
      await expect.poll(() => fate(id)).toBe(w.bulk);
      expect(await fate(other)).toBe(w.bulk);
      expect(await violations(li), `bulk ${locale}`).toEqual([]);
      await screenshot(li, `passkeys-${width}-${locale}-bulk`);

      await card.getByRole('button', { name: w.approve, exact: true }).click();
      await expect.poll(() => app.payouts.map((p) => p.to)).toEqual(['Acme Paper GmbH']);
      expect(await violations(li), `approved ${locale}`).toEqual([]);
      await screenshot(li, `passkeys-${width}-${locale}-approved`);
    },
    120_000,
  );
});

function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth);
}
