// The Teams cards as an approver sees them: drawn by Microsoft's reference Adaptive Cards renderer
// (adaptivecards' UMD bundle and CSS, served on loopback) in Chromium, in English and Chinese at
// 1280 and 390 px (the host page gives the h1 Teams would), clean under axe-core, nothing wider than the window, and — read from the drawn
// page — every field, the undo window and the approvals still needed said before the Approve button.
// With TEAMS_SCREENSHOTS=<dir>, each view is saved there as a PNG to look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violations } from '../../console/e2e/approver-pages.js';
import { launchBrowser } from '../../console/e2e/browser.js';
import { cardProblem } from './support/adaptive-card-schema.js';
import { type FakeBotFramework, startFakeBotFramework } from './support/fake-bot-framework.js';
import { teamsDesk } from './support/teams-desk.js';
import { type InvokeBody, press } from './support/teams-requests.js';

type Card = Record<string, unknown>;
type Locale = 'en' | 'zh-CN';

const require = createRequire(import.meta.url);
const AC_JS = readFileSync(require.resolve('adaptivecards/dist/adaptivecards.min.js'));
const AC_CSS = readFileSync(require.resolve('adaptivecards/dist/adaptivecards.css'));

/** One page per card: the renderer and its stylesheet, nothing else. */
function pageHtml(lang: Locale): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Teams card</title>
<link rel="stylesheet" href="/ac.css"><script src="/ac.js"></script>
<style>body{margin:0;padding:8px;font-family:sans-serif}.host{font-size:14px;margin:0 0 8px}</style></head><body><main><h1 class="host">A message in a Teams chat</h1><div id="card"></div></main></body></html>`;
}

/** What each card must say, in order, before its Approve button (whose words end the list). */
interface View {
  readonly name: string;
  readonly card: Card;
  readonly before: readonly string[];
  readonly approve: string | undefined;
}

const cardOf = (body: InvokeBody): Card => body.value as Card;

async function viewsIn(fake: FakeBotFramework, locale: Locale): Promise<View[]> {
  const zh = locale === 'zh-CN';
  const { teams, ask, registry } = teamsDesk(fake, { locale, consoleUrl: 'https://desk.example/approvals' });
  const views: View[] = [];
  const send = await fake.posted((await ask()).confirmationId);
  views.push({
    name: 'send',
    card: send.card,
    before: ['ana@example.com', 'Your refund is on its way.', 'Customer asked twice.'],
    approve: zh ? '批准' : 'Approve',
  });
  const pay = await fake.posted((await ask('payment.send', { amount: 900 })).confirmationId);
  const quorum = cardOf((await press(fake, teams, pay, 'approve', 'li-guid')).body);
  views.push({
    name: 'quorum',
    card: quorum,
    before: [
      '900',
      zh
        ? '需要 2 位拥有 finance 权限的人批准 — 已有 1/2 人批准：Li'
        : 'Needs 2 approvals from finance — 1 of 2 approved: Li',
    ],
    approve: zh ? '批准（第 2/2 个）' : 'Approve (2 of 2)',
  });
  const reminder = await fake.posted((await ask('reminder.send', { to: 'bo@example.com' })).confirmationId);
  views.push({
    name: 'held',
    card: reminder.card,
    before: [
      'bo@example.com',
      zh
        ? '批准后会等待 30 秒，期间可以撤销，然后发送。'
        : 'Once approved, it waits 30 s so it can be undone, then it is sent.',
    ],
    approve: zh ? '批准 — 30 秒后发送，除非撤销' : 'Approve — sends 30 s later unless undone',
  });
  const scheduled = cardOf((await press(fake, teams, reminder, 'approve', 'li-guid')).body);
  views.push({ name: 'scheduled', card: scheduled, before: [zh ? '撤销' : 'Undo'], approve: undefined });
  const tooLong = await fake.posted((await ask('letter.send', { body: 'x'.repeat(20_000) })).confirmationId);
  views.push({
    name: 'too-long',
    card: tooLong.card,
    before: [zh ? '此内容太长' : 'This payload is too long to show whole in Teams'],
    approve: undefined,
  });
  const bundle = await registry.proposeBundle(
    [
      { tool: 'message.send', input: { to: 'ana@example.com', text: 'First.' } },
      { tool: 'message.send', input: { to: 'ana@example.com', text: 'Second.' } },
    ],
    { actor: 'agent:desk-bot', note: 'Two replies, in order.' },
  );
  if (!bundle.ok) throw new Error(bundle.error);
  const steps = await fake.posted(bundle.confirmations[0]?.confirmationId ?? '');
  views.push({
    name: 'bundle',
    card: steps.card,
    before: ['First.', 'Second.', zh ? '第 2/2 步' : 'Step 2 of 2'],
    approve: zh ? '全部批准（共 2 步）' : 'Approve all 2 steps',
  });
  const decided = cardOf((await press(fake, teams, send, 'approve', 'li-guid')).body);
  views.push({
    name: 'decided',
    card: decided,
    before: [zh ? 'Li 已批准' : 'Approved by Li'],
    approve: undefined,
  });
  for (const view of views) expect(cardProblem(view.card), view.name).toBeUndefined();
  return views;
}

describe('the Teams cards as Microsoft’s renderer draws them in Chromium', () => {
  let fake: FakeBotFramework;
  let browser: Browser;
  let server: Server;
  let base = '';
  const shots = process.env.TEAMS_SCREENSHOTS;

  beforeAll(async () => {
    fake = await startFakeBotFramework();
    browser = await launchBrowser();
    server = createServer((req, res) => {
      const [type, body] =
        req.url === '/ac.js'
          ? ['text/javascript', AC_JS]
          : req.url === '/ac.css'
            ? ['text/css', AC_CSS]
            : ['text/html; charset=utf-8', pageHtml(req.url === '/zh-CN' ? 'zh-CN' : 'en')];
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
    await fake?.close();
  });

  async function render(page: Page, card: Card): Promise<string> {
    await page.evaluate((json) => {
      const AC = (globalThis as unknown as { AdaptiveCards: AdaptiveCardsApi }).AdaptiveCards;
      // Teams reads Markdown in a TextBlock (only our own words are TextBlocks): bold is all they use.
      AC.AdaptiveCard.onProcessMarkdown = (text, result) => {
        const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        result.outputHtml = escaped.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
        result.didProcess = true;
      };
      const card = new AC.AdaptiveCard();
      card.parse(json);
      const page = globalThis as unknown as {
        document: { getElementById(id: string): { replaceChildren(...nodes: unknown[]): void } | null };
      };
      page.document.getElementById('card')?.replaceChildren(card.render() ?? '');
    }, card);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what the approver reads
    return page.locator('#card').innerText();
  }

  for (const locale of ['en', 'zh-CN'] as const)
    for (const width of [1280, 390])
      it(`${locale} at ${width} px: every card drawn whole, clean under axe, saying all before Approve`, async () => {
        const views = await viewsIn(fake, locale);
        const context = await browser.newContext({
          locale: locale === 'en' ? 'en-US' : 'zh-CN',
          viewport: { width, height: width < 500 ? 844 : 800 },
        });
        const page = await context.newPage();
        await page.goto(`${base}/${locale}`);
        for (const view of views) {
          const text = await render(page, view.card);
          const buttons = await page.locator('#card button').allInnerTexts();
          if (view.approve === undefined)
            expect(
              buttons.some((b) => /^(Approve|批准)/.test(b)),
              view.name,
            ).toBe(false);
          else expect(buttons, view.name).toContain(view.approve);
          const approveAt = view.approve === undefined ? text.length : text.indexOf(view.approve);
          for (const said of view.before) {
            const at = text.indexOf(said);
            expect(at, `${view.name}: "${said}" in ${text}`).toBeGreaterThanOrEqual(0);
            expect(at, `${view.name}: "${said}" before Approve`).toBeLessThan(approveAt);
          }
          expect(await violations(page), view.name).toEqual([]);
          const wide = await page.evaluate(
            () =>
              (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
                .documentElement.scrollWidth,
          );
          expect(wide, `${view.name} wider than the window`).toBeLessThanOrEqual(width);
          if (shots !== undefined && shots !== '') {
            mkdirSync(shots, { recursive: true });
            await page.screenshot({
              path: join(shots, `teams-${view.name}-${locale}-${width}.png`),
              fullPage: true,
            });
          }
        }
        await context.close();
      }, 120_000);
});

/** The part of the renderer's API the page uses. */
interface AdaptiveCardsApi {
  AdaptiveCard: {
    new (): { parse(json: unknown): void; render(): unknown };
    onProcessMarkdown?: (text: string, result: { outputHtml?: string; didProcess: boolean }) => void;
  };
}
