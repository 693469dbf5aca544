import type { ApprovalsConsoleOptions } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, type Delivery, STORES } from './setup.js';

const HOLD = 30_000;

/**
 * The console's fixture with a send tool held for its undo window (`holdMs`), recording what it
 * delivers, and a pending confirmation of it.
 */
async function heldFixture(
  makeStore: Parameters<typeof consoleFixture>[0],
  options: Partial<Omit<ApprovalsConsoleOptions, 'registry'>> = {},
) {
  const f = consoleFixture(makeStore, options);
  const delivered: Delivery[] = [];
  f.registry.register({
    name: 'mail.send',
    title: 'Mail a customer',
    description: 'Email a customer, with 30 s to undo it.',
    sideEffect: 'send',
    holdMs: HOLD,
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, text: { type: 'string' } },
      required: ['to', 'text'],
    },
    prepare: (input) => ({ to: String(input.to), text: String(input.text) }),
    deliver: (payload, approval) => {
      delivered.push({ payload, approvedBy: approval.approvedBy, confirmationId: approval.confirmationId });
      return { sent: true };
    },
  });
  const asked = await f.ask('Your refund is on its way.', 'mail.send');
  const at = (action: string) => `/api/confirmations/${asked.confirmationId}/${action}`;
  const confirm = () => f.json(at('confirm'), { body: { digest: asked.digest } });
  return { f, delivered, asked, at, confirm };
}

describe.each(STORES)('held sends in the console (%s)', (_name, makeStore) => {
  let f: ConsoleFixture | undefined;
  afterEach(() => f?.close());

  it('a confirm of a held send answers 202 SCHEDULED with deliverAt and the card, and sends nothing yet', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    const before = Date.now();
    const { status, body } = await held.confirm();
    expect(status).toBe(202);
    expect(body).toMatchObject({
      ok: false,
      code: 'SCHEDULED',
      deliverAt: expect.any(String),
      confirmation: { id: held.asked.confirmationId, status: 'scheduled', offer: { cancel: true } },
    });
    expect(body.deliverAt).toBe(body.confirmation.deliverAt);
    expect(Date.parse(body.deliverAt) - before).toBeGreaterThanOrEqual(HOLD - 1_000);
    expect(held.delivered).toEqual([]);
    // Undo is offered to the approver only: the console has no `authorize` to let anyone else.
    const asWu = await f.json(`/api/confirmations/${held.asked.confirmationId}`, { person: 'lead-wu' });
    expect(asWu.body.confirmation.offer).toMatchObject({ cancel: false, confirm: false, reject: false });
    // The inbox lists it among the held sends.
    const listed = await f.json('/api/confirmations?status=scheduled');
    expect(listed.body.confirmations.map((c: { id: string }) => c.id)).toEqual([held.asked.confirmationId]);
  });

  it('each card tells the page its undo window, so "Confirm selected" can say which are held, not sent now', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    const plain = await f.ask('Hello');
    const listed = await f.json('/api/confirmations');
    const cards = new Map(listed.body.confirmations.map((c: { id: string }) => [c.id, c]));
    expect(cards.get(held.asked.confirmationId)).toMatchObject({ holdMs: HOLD });
    expect(cards.get(plain.confirmationId)).not.toHaveProperty('holdMs');
    const one = await f.json(`/api/confirmations/${held.asked.confirmationId}`);
    expect(one.body.confirmation.holdMs).toBe(HOLD);

    // Confirmed together, each is answered as what happened to it: sent, or held until its time.
    const { status, body } = await f.json('/api/confirm-many', {
      body: {
        items: [
          { id: plain.confirmationId, digest: plain.digest },
          { id: held.asked.confirmationId, digest: held.asked.digest },
        ],
      },
    });
    expect(status).toBe(200);
    expect(body.results).toMatchObject([
      { id: plain.confirmationId, ok: true, status: 'delivered' },
      { id: held.asked.confirmationId, ok: false, code: 'SCHEDULED', deliverAt: expect.any(String) },
    ]);
    // The fixture's clock stands still: held exactly its undo window from when it was asked.
    const askedAt = Date.parse((cards.get(held.asked.confirmationId) as { createdAt: string }).createdAt);
    expect(Date.parse(body.results[1].deliverAt) - askedAt).toBeGreaterThanOrEqual(HOLD);
    expect(Date.parse(body.results[1].deliverAt) - askedAt).toBeLessThan(HOLD + 1_000);
    expect(held.delivered).toEqual([]);
  });

  it('the approver cancels it: cancelled, by them, and the sweep delivers nothing', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    await held.confirm();
    const { status, body } = await f.json(held.at('cancel'), { body: { reason: 'wrong customer' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      status: 'cancelled',
      message: 'Cancelled before it was sent; nothing was sent.',
      confirmation: { status: 'cancelled', offer: { cancel: false } },
    });
    expect(body.confirmation.history.at(-1)).toMatchObject({
      status: 'cancelled',
      by: 'lead-li',
      note: 'wrong customer',
    });
    f.advance(HOLD + 1);
    expect(await f.registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(held.delivered).toEqual([]);
    // Once cancelled, a second Undo finds it decided.
    expect(await f.json(held.at('cancel'), { body: {} })).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_DECIDED', decidedBy: 'lead-li' },
    });
  });

  it('someone else is refused without an authorize (403), and nothing is told or changed', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    await held.confirm();
    const { status, body } = await f.json(held.at('cancel'), { body: {}, person: 'lead-wu' });
    expect(status).toBe(403);
    expect(body).toEqual({ ok: false, code: 'FORBIDDEN', error: expect.any(String) });
    const read = await f.registry.confirmations.get(held.asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('scheduled');
    f.advance(HOLD);
    const swept = await f.registry.sweep();
    expect(swept.ok && swept.delivered.map((c) => c.status)).toEqual(['delivered']);
    expect(held.delivered).toMatchObject([{ approvedBy: 'lead-li' }]);
  });

  it("with the app's authorize allowing `cancel`, another person is offered Undo and may take it back", async () => {
    const asked: string[] = [];
    const held = await heldFixture(makeStore, {
      authorize: (person, action) => {
        asked.push(`${person.id}:${action}`);
        return action !== 'cancel' || person.id === 'lead-wu';
      },
    });
    f = held.f;
    await held.confirm();
    const asWu = await f.json(`/api/confirmations/${held.asked.confirmationId}`, { person: 'lead-wu' });
    expect(asWu.body.confirmation.offer.cancel).toBe(true);
    const asMei = await f.json(`/api/confirmations/${held.asked.confirmationId}`, { person: 'fin-mei' });
    expect(asMei.body.confirmation.offer.cancel).toBe(false);
    expect((await f.json(held.at('cancel'), { body: {}, person: 'fin-mei' })).status).toBe(403);
    const { status, body } = await f.json(held.at('cancel'), { body: {}, person: 'lead-wu' });
    expect(status).toBe(200);
    expect(body.confirmation.history.at(-1)).toMatchObject({ status: 'cancelled', by: 'lead-wu' });
    expect(asked).toContain('lead-wu:cancel');
    expect(held.delivered).toEqual([]);
  });

  it('after the sweep delivered it, Undo is 409 ALREADY_DECIDED and it was sent once', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    await held.confirm();
    f.advance(HOLD);
    await f.registry.sweep();
    const { status, body } = await f.json(held.at('cancel'), { body: {} });
    expect(status).toBe(409);
    expect(body).toMatchObject({ ok: false, code: 'ALREADY_DECIDED', confirmation: { status: 'delivered' } });
    expect(held.delivered).toHaveLength(1);
    const card = await f.json(`/api/confirmations/${held.asked.confirmationId}`);
    expect(card.body.confirmation.offer.cancel).toBe(false);
  });

  it('the cancel route has the guards of every decision: POST only, JSON from its own origin, a session', async () => {
    const held = await heldFixture(makeStore);
    f = held.f;
    await held.confirm();
    expect((await f.call(held.at('cancel'))).status).toBe(405);
    const foreign = await f.json(held.at('cancel'), {
      body: {},
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_ORIGIN' } });
    const form = await f.call(held.at('cancel'), {
      body: 'reason=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect((await f.json(held.at('cancel'), { body: {}, person: null })).status).toBe(401);
    expect((await f.json(held.at('cancel'), { body: { reason: 42 } })).status).toBe(400);
    const read = await f.registry.confirmations.get(held.asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('scheduled');
  });

  it('an approval link confirms a held send (202 SCHEDULED) but cannot cancel it', async () => {
    const held = await heldFixture(makeStore, { publicUrl: 'http://console.test/approvals' });
    f = held.f;
    const made = await f.approvals.createApprovalLink(held.asked.confirmationId, { approver: 'lead-li' });
    if (!made.ok) throw new Error(made.error);
    const token = new URL(made.url).hash.slice(1);
    const link = { person: null, headers: { 'x-approval-link': token } };
    const confirmed = await f.json(held.at('confirm'), { ...link, body: { digest: held.asked.digest } });
    expect(confirmed).toMatchObject({
      status: 202,
      body: { code: 'SCHEDULED', confirmation: { status: 'scheduled' } },
    });
    const cancel = await f.json(held.at('cancel'), { ...link, body: {} });
    expect(cancel.status).toBe(403);
    const read = await f.registry.confirmations.get(held.asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('scheduled');
  });
});
