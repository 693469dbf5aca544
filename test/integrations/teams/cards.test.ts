import { createMemoryStore } from 'graded-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { referenceProblem } from './support/adaptive-card-reference.js';
import { cardProblem } from './support/adaptive-card-schema.js';
import { type FakeBotFramework, startFakeBotFramework } from './support/fake-bot-framework.js';
import { teamsDesk } from './support/teams-desk.js';
import { actionOf, press, textOf } from './support/teams-requests.js';

type Card = Record<string, unknown>;

/** Every TextBlock's text: the only place Teams reads Markdown. */
function markdownTexts(card: Card): string[] {
  const texts: string[] = [];
  const walk = (elements: unknown) => {
    for (const element of (elements as Card[] | undefined) ?? []) {
      if (element.type === 'TextBlock') texts.push(String(element.text));
      if (element.type === 'Container') walk(element.items);
    }
  };
  walk(card.body);
  return texts;
}

describe("Microsoft's reference parser, as the cards' check uses it", () => {
  // The serializer writes $schema back: a card without it would read back with one.
  const $schema = 'http://adaptivecards.io/schemas/adaptive-card.json';
  const card = (body: unknown[]) => ({ type: 'AdaptiveCard', $schema, version: '1.5', body });
  it('passes a plain card and names an unknown element, an unknown property and a value a property does not take', () => {
    expect(referenceProblem(card([{ type: 'TextBlock', text: 'hi', wrap: true }]))).toBeUndefined();
    expect(referenceProblem(card([{ type: 'Fancy' }]))).toMatch(/Unknown element type "Fancy"/);
    expect(referenceProblem(card([{ type: 'TextBlock', text: 'hi', glow: true }]))).toMatch(
      /not read back whole: \$\.body\.0\.glow/,
    );
    expect(
      referenceProblem(
        card([{ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: 'x', color: 'Purple' }] }]),
      ),
    ).toMatch(/Invalid value "Purple" for property "color"/);
  });
});

describe('the Teams cards', () => {
  let fake: FakeBotFramework;
  beforeEach(async () => {
    fake = await startFakeBotFramework();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('offer no Approve for a send that needs a passkey: they say why and link to the console, and Reject stays', async () => {
    const { ask } = teamsDesk(fake, { consoleUrl: 'https://approvals.example.com/console' });
    const asked = await ask('wire.send', { amount: 900 });
    const posted = await fake.posted(asked.confirmationId);
    expect(cardProblem(posted.card)).toBeUndefined();
    expect(referenceProblem(posted.card)).toBeUndefined();
    expect(actionOf(posted.card, 'approve')).toBeUndefined();
    expect(actionOf(posted.card, 'reject')).toBeDefined();
    expect(textOf(posted.card)).toContain('passkey is required');
    expect(JSON.stringify(posted.card.actions)).toContain('https://approvals.example.com/console');
  });

  it('show a value as written: a Markdown link or a mention in a payload or a note is a TextRun, never Markdown', async () => {
    const { ask } = teamsDesk(fake);
    const hostile = '[Approve here](https://evil.example) **now** <at>Li</at>';
    const asked = await ask('message.send', { to: 'ana@example.com', text: hostile });
    const posted = await fake.posted(asked.confirmationId);
    expect(cardProblem(posted.card)).toBeUndefined();
    expect(textOf(posted.card)).toContain(JSON.stringify(hostile).slice(1, -1));
    for (const text of markdownTexts(posted.card)) expect(text).not.toContain('evil.example');
  });

  it('speak Simplified Chinese with locale zh-CN, quorum and all', async () => {
    const { teams, ask } = teamsDesk(fake, { locale: 'zh-CN' });
    const asked = await ask('payment.send', { amount: 900 });
    const posted = await fake.posted(asked.confirmationId);
    expect(cardProblem(posted.card)).toBeUndefined();
    expect(actionOf(posted.card, 'approve')?.title).toBe('批准（第 1/2 个）'); // the console's and Slack's words
    expect(actionOf(posted.card, 'reject')?.title).toBe('拒绝');
    expect(textOf(posted.card)).toContain('需要 2 位拥有 finance 权限的人批准');
    const { body } = await press(fake, teams, posted, 'approve', 'nobody-guid');
    expect(body.value).toBe('你的 Teams 账号未关联到本应用的审批人，未做任何决定。');
  });

  it('say where a limit stands on a pending card, as the console does', async () => {
    const { registry } = teamsDesk(fake);
    registry.register({
      name: 'capped.send',
      description: 'Refunds a customer, within a daily cap.',
      sideEffect: 'send',
      inputSchema: {
        type: 'object',
        properties: { customer: { type: 'string' }, amount: { type: 'number' } },
        required: ['customer', 'amount'],
      },
      rules: [
        { name: 'refund-cap', limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer' } },
      ],
      prepare: (input) => input,
      deliver: () => 'refunded',
    });
    const asked = await registry.propose(
      'capped.send',
      { customer: 'cus-42', amount: 100 },
      { actor: 'bot' },
    );
    if (!asked.ok || !('confirmationId' in asked)) throw new Error('not asked');
    const posted = await fake.posted(asked.confirmationId);
    expect(cardProblem(posted.card)).toBeUndefined();
    expect(textOf(posted.card)).toContain('Limit refund-cap: 100 of 500 today for cus-42');
  });

  it('a restarted instance learns where a card is from a signed press on it, and redraws it after a later decision', async () => {
    const store = createMemoryStore();
    const { ask } = teamsDesk(fake, { store });
    const asked = await ask('payment.send', { amount: 900 });
    const posted = await fake.posted(asked.confirmationId);
    // Another instance over the same store, started after the card was posted: it never posted it.
    const restarted = teamsDesk(fake, { store });
    await press(fake, restarted.teams, posted, 'approve', 'li-guid');
    // The second approval is made outside Teams (the console, say), on the restarted instance.
    const decided = await restarted.registry.confirm(asked.confirmationId, {
      approvedBy: 'wu',
      flags: { finance: true },
      digest: asked.digest,
    });
    expect(decided.ok).toBe(true);
    await fake.until(() => textOf(fake.cards.get(posted.id)?.card ?? {}).includes('Approved by Li and wu'));
    expect(fake.cards.get(posted.id)?.updates).toBeGreaterThan(0);
  });
});
