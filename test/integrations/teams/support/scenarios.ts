// The Slack suite's scenarios, in Teams: a send, a quorum, an edit race, a stale card, a bundle, an
// undo, a replay across two instances, a forged activity — on whichever store `kind` makes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardProblem } from './adaptive-card-schema.js';
import { type FakeBotFramework, startFakeBotFramework } from './fake-bot-framework.js';
import type { SharedStore, StoreKind } from './store-kinds.js';
import { teamsDesk } from './teams-desk.js';
import { actionOf, type InvokeBody, press, pressActivity, signedRequest, textOf } from './teams-requests.js';

type Card = Record<string, unknown>;
const cardOf = (body: InvokeBody): Card => {
  expect(body.type).toBe('application/vnd.microsoft.card.adaptive');
  // Every card an activity is answered with passes the schema and Microsoft's reference parser too.
  expect(cardProblem(body.value)).toBeUndefined();
  return body.value as Card;
};

export function teamsScenarios(name: string, kind: StoreKind, options: { watches: boolean }): void {
  if (!options.watches)
    console.warn(
      `[graded-tools] ${name}: skipping "instance B decides … A redraws its card": this store does not watch, so an instance hears only of its own changes.`,
    );
  describe(`Teams approvals on ${name}`, () => {
    let fake: FakeBotFramework;
    let shared: SharedStore;
    beforeEach(async () => {
      fake = await startFakeBotFramework();
      shared = await kind();
    });
    afterEach(async () => {
      await fake.close();
      await shared.close();
    });

    it('a send: the card shows the whole payload and binds Approve to its digest; Li approves, it is sent once, every copy says so', async () => {
      const { teams, ask, delivered } = teamsDesk(fake, { store: shared.a });
      const asked = await ask();
      const posted = await fake.posted(asked.confirmationId);
      expect(cardProblem(posted.card)).toBeUndefined();
      const text = textOf(posted.card);
      for (const said of [
        'Reply to the customer',
        'Emails the customer at ana@example.com',
        'Recipient: ',
        'Your refund is on its way.',
        'Customer asked twice.',
      ])
        expect(text).toContain(said);
      expect(actionOf(posted.card, 'approve')?.data).toEqual({
        graded_tools: { id: asked.confirmationId, digest: asked.digest },
      });
      const { status, body } = await press(fake, teams, posted, 'approve', 'li-guid');
      expect(status).toBe(200);
      const answered = cardOf(body);
      expect(cardProblem(answered)).toBeUndefined();
      expect(textOf(answered)).toContain('Approved by Li');
      expect(actionOf(answered, 'approve')).toBeUndefined();
      expect(delivered).toEqual([{ to: 'ana@example.com', text: 'Your refund is on its way.' }]);
      await fake.until(() => textOf(posted.card).includes('Approved by Li'));
    });

    it('a forged activity decides nothing: no token, another audience or issuer, an unpublished key, a key not endorsed for Teams, another service URL, an expired token', async () => {
      const { teams, ask, delivered, registry } = teamsDesk(fake, { store: shared.a });
      const asked = await ask();
      const posted = await fake.posted(asked.confirmationId);
      const activity = pressActivity(fake, posted, 'approve', 'li-guid');
      const forgeries = [
        undefined,
        await fake.token({ aud: 'another-bot' }),
        await fake.token({ iss: 'https://sts.windows.net/evil/' }),
        await fake.token({ key: 'unpublished' }),
        await fake.token({ key: 'unpublished', kid: 'unknown-kid' }),
        await fake.token({ key: 'other' }),
        await fake.token({ serviceUrl: 'https://smba.trafficmanager.net/evil/' }),
        await fake.token({ expiresIn: -600 }),
        'not-a-jwt',
      ];
      for (const token of forgeries)
        expect((await teams.fetch(signedRequest(activity, token))).status).toBe(401);
      expect((await teams.fetch(new Request('https://desk.example/api/messages'))).status).toBe(405);
      const read = await registry.confirmations.get(asked.confirmationId);
      expect(read.ok && read.confirmation.status).toBe('pending');
      expect(delivered).toEqual([]);
      // The same activity, signed by the Connector, is taken.
      expect((await teams.fetch(signedRequest(activity, await fake.token()))).status).toBe(200);
      expect(delivered).toHaveLength(1);
    });

    it('a Teams user who is no mapped approver, or whose lookup throws, is told so in words that name no one', async () => {
      const { teams, ask, delivered, registry } = teamsDesk(fake, { store: shared.a });
      const asked = await ask();
      const posted = await fake.posted(asked.confirmationId);
      for (const user of ['nobody-guid', 'broken-guid']) {
        const { body } = await press(fake, teams, posted, 'approve', user);
        expect(body.type).toBe('application/vnd.microsoft.activity.message');
        expect(body.value).toBe(
          'Your Teams account is not linked to an approver of this app, so nothing was decided.',
        );
      }
      const read = await registry.confirmations.get(asked.confirmationId);
      expect(read.ok && read.confirmation.status).toBe('pending');
      expect(delivered).toEqual([]);
    });

    it('a quorum: "Approve (1 of 2)", the same person twice is refused, a person without the flag too, the second delivers', async () => {
      const { teams, ask, delivered } = teamsDesk(fake, { store: shared.a });
      const asked = await ask('payment.send', { amount: 900 });
      const posted = await fake.posted(asked.confirmationId);
      expect(textOf(posted.card)).toContain('Needs 2 approvals from finance');
      expect(actionOf(posted.card, 'approve')?.title).toBe('Approve (1 of 2)');
      const first = cardOf((await press(fake, teams, posted, 'approve', 'li-guid')).body);
      // The sentence the console, Slack and mail say (src/messages/quorum-words.ts).
      expect(textOf(first)).toContain('Needs 2 approvals from finance — 1 of 2 approved: Li');
      expect(actionOf(first, 'approve')?.title).toBe('Approve (2 of 2)');
      expect(delivered).toEqual([]);
      const again = cardOf((await press(fake, teams, posted, 'approve', 'li-guid')).body);
      expect(textOf(again)).toMatch(/already approved/i);
      const ana = cardOf((await press(fake, teams, posted, 'approve', 'ana-guid')).body);
      expect(textOf(ana)).toContain('Not done');
      expect(delivered).toEqual([]);
      const second = cardOf((await press(fake, teams, posted, 'approve', 'wu-guid')).body);
      expect(textOf(second)).toContain('Approved by Li and Wu');
      expect(delivered).toEqual([{ amount: 900, currency: 'EUR' }]);
    });

    it('an edit race: the payload changed after the card was drawn, so its Approve refreshes the card and decides nothing', async () => {
      const { teams, ask, delivered, registry } = teamsDesk(fake, { store: shared.a });
      const asked = await ask('refund.send', { amount: 120 });
      const posted = await fake.posted(asked.confirmationId);
      const shown = structuredClone(posted);
      // Wu edits the amount in the console and approves it: one approval of the edited payload.
      const edited = await registry.confirm(asked.confirmationId, {
        approvedBy: 'wu',
        digest: asked.digest,
        payload: { amount: 90 },
      });
      expect(edited).toMatchObject({ ok: false, code: 'AWAITING_APPROVALS' });
      const stale = cardOf((await press(fake, teams, shown, 'approve', 'li-guid')).body);
      expect(textOf(stale)).toContain('This card was out of date, so nothing was decided');
      expect(textOf(stale)).toContain('90');
      expect(delivered).toEqual([]);
      const read = await registry.confirmations.get(asked.confirmationId);
      if (!read.ok) throw new Error(read.error);
      expect(actionOf(stale, 'approve')?.data).toEqual({
        graded_tools: { id: asked.confirmationId, digest: read.confirmation.digest },
      });
      // Approving what the refreshed card shows sends that.
      const fresh = { ...shown, card: stale };
      cardOf((await press(fake, teams, fresh, 'approve', 'li-guid')).body);
      expect(delivered).toEqual([{ amount: 90 }]);
    });

    it('a stale card: decided by someone else since, its Approve shows who decided and sends nothing twice', async () => {
      const { teams, ask, delivered, registry } = teamsDesk(fake, { store: shared.a });
      const asked = await ask();
      const posted = await fake.posted(asked.confirmationId);
      const shown = structuredClone(posted);
      expect(
        (await registry.confirm(asked.confirmationId, { approvedBy: 'wu', digest: asked.digest })).ok,
      ).toBe(true);
      const stale = cardOf((await press(fake, teams, shown, 'approve', 'li-guid')).body);
      expect(textOf(stale)).toContain('This card was out of date');
      expect(textOf(stale)).toContain('Approved by wu');
      expect(actionOf(stale, 'approve')).toBeUndefined();
      expect(delivered).toHaveLength(1);
    });

    it('a bundle: one card with every step; "Approve all 2 steps" sends both in order; Reject all stops them', async () => {
      const { teams, registry, delivered } = teamsDesk(fake, { store: shared.a });
      const asked = await registry.proposeBundle(
        [
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'First.' } },
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'Second.' } },
        ],
        { actor: 'agent:desk-bot', note: 'Two replies, in order.' },
      );
      if (!asked.ok) throw new Error(asked.error);
      const posted = await fake.posted(asked.confirmations[0]?.confirmationId ?? '');
      expect(cardProblem(posted.card)).toBeUndefined();
      expect(fake.cards.size).toBe(1);
      expect(textOf(posted.card)).toContain('Step 2 of 2: Reply to the customer');
      expect(actionOf(posted.card, 'approve')?.title).toBe('Approve all 2 steps');
      const done = cardOf((await press(fake, teams, posted, 'approve', 'li-guid')).body);
      expect(cardProblem(done)).toBeUndefined();
      await fake.until(() => delivered.length === 2);
      expect(delivered).toEqual([
        { to: 'ana@example.com', text: 'First.' },
        { to: 'ana@example.com', text: 'Second.' },
      ]);

      const other = await registry.proposeBundle(
        [
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'Third.' } },
          { tool: 'message.send', input: { to: 'ana@example.com', text: 'Fourth.' } },
        ],
        { actor: 'agent:desk-bot' },
      );
      if (!other.ok) throw new Error(other.error);
      const card = await fake.posted(other.confirmations[0]?.confirmationId ?? '');
      const rejected = cardOf(
        (await press(fake, teams, card, 'reject', 'li-guid', { reason: 'Not now.' })).body,
      );
      expect(textOf(rejected)).toMatch(/rejected|stopped/i);
      expect(delivered).toHaveLength(2);
    });

    it('an undo: a held send says when it goes, Undo by the approver takes it back, and the sweep sends nothing', async () => {
      const { teams, ask, delivered, registry, advance } = teamsDesk(fake, { store: shared.a });
      const asked = await ask('reminder.send', { to: 'ana@example.com' });
      const posted = await fake.posted(asked.confirmationId);
      expect(actionOf(posted.card, 'approve')?.title).toBe('Approve — sends 30 s later unless undone');
      const held = cardOf((await press(fake, teams, posted, 'approve', 'li-guid')).body);
      expect(textOf(held)).toContain('unless someone presses Undo');
      expect(textOf(held)).toContain('{{TIME(');
      expect(actionOf(held, 'cancel')?.title).toBe('Undo');
      // Ana did not approve it: she may not take it back.
      const heldCard = { ...posted, card: held };
      const refused = cardOf((await press(fake, teams, heldCard, 'cancel', 'ana-guid')).body);
      expect(textOf(refused)).toContain('Not done');
      const undone = cardOf((await press(fake, teams, heldCard, 'cancel', 'li-guid')).body);
      expect(textOf(undone)).toContain('Cancelled by Li; nothing was sent');
      advance(30_001);
      expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
      expect(delivered).toEqual([]);
    });

    it('a replay across two instances: the same signed activity again decides nothing, here or on the other instance', async () => {
      const a = teamsDesk(fake, { store: shared.a });
      const b = teamsDesk(fake, { store: shared.b });
      const asked = await a.ask();
      const posted = await fake.posted(asked.confirmationId);
      const activity = pressActivity(fake, posted, 'approve', 'li-guid');
      const token = await fake.token();
      expect((await a.teams.fetch(signedRequest(activity, token))).status).toBe(200);
      const here = cardOf((await (await a.teams.fetch(signedRequest(activity, token))).json()) as InvokeBody);
      expect(textOf(here)).toContain('Approved by Li');
      const there = cardOf(
        (await (await b.teams.fetch(signedRequest(activity, token))).json()) as InvokeBody,
      );
      expect(textOf(there)).toContain('This card was out of date');
      expect([...a.delivered, ...b.delivered]).toHaveLength(1);
      const read = await b.registry.confirmations.get(asked.confirmationId);
      if (!read.ok) throw new Error(read.error);
      expect(read.confirmation.history.filter((h) => h.status === 'delivering')).toHaveLength(1);

      // A quorum's first approval replayed on B is not a second approval.
      const pay = await a.ask('payment.send', { amount: 300 });
      const card = await fake.posted(pay.confirmationId);
      const approval = pressActivity(fake, card, 'approve', 'li-guid');
      await a.teams.fetch(signedRequest(approval, token));
      const replayed = cardOf(
        (await (await b.teams.fetch(signedRequest(approval, token))).json()) as InvokeBody,
      );
      expect(textOf(replayed)).toMatch(/already approved/i);
      const payRead = await b.registry.confirmations.get(pay.confirmationId);
      expect(payRead.ok && payRead.confirmation.approvals?.length).toBe(1);
      expect([...a.delivered, ...b.delivered]).toHaveLength(1);
    });

    it.skipIf(!options.watches)(
      'instance B decides in its console a card instance A posted: A redraws its card from the shared store',
      async () => {
        const a = teamsDesk(fake, { store: shared.a });
        const b = teamsDesk(fake, { store: shared.b });
        const asked = await a.ask();
        const posted = await fake.posted(asked.confirmationId);
        expect(
          (await b.registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest })).ok,
        ).toBe(true);
        await fake.until(() => textOf(posted.card).includes('Approved by lead-2'), 10_000);
        expect(actionOf(posted.card, 'approve')).toBeUndefined();
        expect([...a.delivered, ...b.delivered]).toHaveLength(1);
      },
    );

    it('a payload the card cannot show whole: no Approve, it says so and links to the console; an Approve sent anyway is refused', async () => {
      const { teams, ask, delivered } = teamsDesk(fake, {
        store: shared.a,
        consoleUrl: 'https://desk.example/approvals',
      });
      const asked = await ask('letter.send', { body: 'x'.repeat(20_000) });
      const posted = await fake.posted(asked.confirmationId);
      expect(cardProblem(posted.card)).toBeUndefined();
      expect(actionOf(posted.card, 'approve')).toBeUndefined();
      expect(actionOf(posted.card, 'reject')).toBeDefined();
      expect(textOf(posted.card)).toContain('too long to show whole in Teams');
      expect(JSON.stringify(posted.card.actions)).toContain('https://desk.example/approvals');
      const activity = pressActivity(fake, posted, 'reject', 'li-guid');
      (activity.value as { action: { verb: string } }).action.verb = 'graded_tools.approve';
      const refused = cardOf(
        (await (await teams.fetch(signedRequest(activity, await fake.token()))).json()) as InvokeBody,
      );
      expect(textOf(refused)).toContain('cannot be approved here');
      expect(delivered).toEqual([]);
    });
  });
}
