import type { ConfirmRequired } from 'graded-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

const PUBLIC = 'https://desk.example/approvals';
const MEI = { id: 'fin-mei', name: 'Mei', flags: { outbound: true, finance: true } };

interface Refund {
  readonly payload: unknown;
  readonly approvedBy: string;
}

/**
 * The console's registry with a refund tool whose rule sends refunds over 500 to two different people
 * holding `finance`; `ask` is the agent asking for one.
 */
function refunds(f: ConsoleFixture) {
  const delivered: Refund[] = [];
  f.registry.register({
    name: 'refund.send',
    title: 'Refund a customer',
    description: 'Refund an order to the card it was paid with.',
    sideEffect: 'send',
    inputSchema: {
      type: 'object',
      properties: { orderId: { type: 'string' }, amount: { type: 'number' }, note: { type: 'string' } },
      required: ['orderId', 'amount'],
    },
    payloadSchema: {
      type: 'object',
      properties: { orderId: { type: 'string' }, amount: { type: 'number' }, note: { type: 'string' } },
      required: ['orderId', 'amount', 'note'],
      additionalProperties: false,
    },
    editable: ['note'],
    rules: [{ name: 'big-refunds', when: 'input.amount > 500', approvals: 2, approverFlags: ['finance'] }],
    prepare: (input) => ({
      orderId: String(input.orderId),
      amount: Number(input.amount),
      note: String(input.note ?? ''),
    }),
    deliver: (payload, approval) => {
      delivered.push({ payload, approvedBy: approval.approvedBy });
      return { refunded: true };
    },
  });
  const ask = async (amount = 900): Promise<ConfirmRequired> => {
    const asked = await f.registry.invoke(
      'refund.send',
      { orderId: 'o-77', amount, note: 'Charged twice in March.' },
      { actor: 'agent-7' },
    );
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    return asked as ConfirmRequired;
  };
  return { delivered, ask };
}

describe.each(STORES)(
  'a send whose rules ask for several approvers, in the console (%s)',
  (_name, makeStore) => {
    let f: ConsoleFixture;
    afterEach(() => f?.close());

    const cardAs = async (id: string, person: string, locale = 'en') =>
      (await f.json(`/api/confirmations/${id}`, { person, headers: { 'accept-language': locale } })).body
        .confirmation;
    const confirmAs = (id: string, digest: string, person: string, locale = 'en') =>
      f.json(`/api/confirmations/${id}/confirm`, {
        body: { digest },
        person,
        headers: { 'accept-language': locale },
      });

    it('the card carries what the rules ask and who approved; a person without the flag is told which one', async () => {
      f = consoleFixture(makeStore);
      const { ask } = refunds(f);
      const asked = await ask();
      const card = await cardAs(asked.confirmationId, 'fin-mei');
      expect(card).toMatchObject({
        status: 'pending',
        requires: { approvals: 2, approverFlags: ['finance'], rules: ['big-refunds'] },
        quorum: { needed: 2, flags: ['finance'], approvedBy: [] },
        offer: { confirm: true, reject: true },
      });
      expect(card.offer.whyNot).toBeUndefined();
      const outsider = await cardAs(asked.confirmationId, 'lead-wu');
      expect(outsider.offer).toEqual({
        confirm: false,
        reject: true,
        edit: false,
        retry: false,
        markDelivered: false,
        cancel: false,
        whyNot: 'FLAG_NOT_GRANTED',
        missingFlags: ['finance'],
      });
      // A send its rules leave to one person has no quorum on its card.
      const small = await cardAs((await ask(40)).confirmationId, 'fin-mei');
      expect(small.quorum).toBeUndefined();
      expect(small.requires).toBeUndefined();
    });

    it('the first approval is recorded (202 AWAITING_APPROVALS, 1 of 2), not sent; the second approver delivers once', async () => {
      f = consoleFixture(makeStore);
      const { delivered, ask } = refunds(f);
      const asked = await ask();
      const first = await confirmAs(asked.confirmationId, asked.digest, 'fin-mei');
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({
        ok: false,
        code: 'AWAITING_APPROVALS',
        approval: { count: 1, needed: 2 },
        confirmation: {
          id: asked.confirmationId,
          status: 'pending',
          quorum: { needed: 2, flags: ['finance'], approvedBy: ['fin-mei'] },
          approvals: [{ by: 'fin-mei', digest: asked.digest }],
          names: { 'fin-mei': 'Mei' },
          // The card comes back as this person sees it now: their approval is in, so no Confirm.
          offer: { confirm: false, reject: true, whyNot: 'ALREADY_APPROVED' },
        },
      });
      expect(first.body.error).toMatch(/approval is recorded \(1\/2 approvals\)/);
      expect(first.body.confirmation.history.at(-1)).toMatchObject({
        status: 'pending',
        by: 'fin-mei',
        approval: { count: 1, needed: 2 },
      });
      expect(delivered).toEqual([]);

      // Every other view of it says the same: the list, and another approver's card.
      const listed = await f.json('/api/confirmations?status=pending', { person: 'fin-sam' });
      expect(
        listed.body.confirmations.find((c: { id: string }) => c.id === asked.confirmationId),
      ).toMatchObject({ quorum: { approvedBy: ['fin-mei'] }, offer: { confirm: true } });

      const second = await confirmAs(asked.confirmationId, asked.digest, 'fin-sam');
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        ok: true,
        status: 'delivered',
        confirmation: { status: 'delivered', quorum: { approvedBy: ['fin-mei', 'fin-sam'] } },
      });
      expect(delivered).toEqual([
        { payload: { orderId: 'o-77', amount: 900, note: 'Charged twice in March.' }, approvedBy: 'fin-sam' },
      ]);
      // A third person is told it was decided, and by whom; nothing is sent again.
      const late = await confirmAs(asked.confirmationId, asked.digest, 'lead-li');
      expect(late).toMatchObject({ status: 409, body: { code: 'ALREADY_DECIDED', decidedBy: 'fin-sam' } });
      expect(delivered).toHaveLength(1);
    });

    it('the same approver twice is 409 ALREADY_APPROVED; one without the flag is 403 FLAG_NOT_GRANTED naming it', async () => {
      f = consoleFixture(makeStore);
      const { delivered, ask } = refunds(f);
      const asked = await ask();
      await confirmAs(asked.confirmationId, asked.digest, 'fin-mei');
      const again = await confirmAs(asked.confirmationId, asked.digest, 'fin-mei');
      expect(again).toMatchObject({
        status: 409,
        body: { ok: false, code: 'ALREADY_APPROVED', confirmation: { quorum: { approvedBy: ['fin-mei'] } } },
      });
      const flagless = await confirmAs(asked.confirmationId, asked.digest, 'lead-wu');
      expect(flagless).toMatchObject({
        status: 403,
        body: { ok: false, code: 'FLAG_NOT_GRANTED', missingFlags: ['finance'] },
      });
      expect(flagless.body.error).toContain('finance');
      expect(delivered).toEqual([]);
      const stored = await f.registry.confirmations.get(asked.confirmationId);
      expect(stored.ok && stored.confirmation.approvals?.map((a) => a.by)).toEqual(['fin-mei']);
    });

    it('speaks Chinese: the recorded approval in the registry’s zh-CN words', async () => {
      f = consoleFixture(makeStore);
      const { ask } = refunds(f);
      const asked = await ask();
      const first = await confirmAs(asked.confirmationId, asked.digest, 'fin-mei', 'zh-CN');
      expect(first.status).toBe(202);
      expect(first.body.error).toMatch(/^您的批准已记录（1\/2）/);
    });

    it('an approver’s edit starts the count again: the card names only who approved the payload as it is now', async () => {
      f = consoleFixture(makeStore);
      const { delivered, ask } = refunds(f);
      const asked = await ask();
      await confirmAs(asked.confirmationId, asked.digest, 'fin-mei');
      const edited = { orderId: 'o-77', amount: 900, note: 'Charged twice in March; refund both.' };
      const preview = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
        body: { payload: edited },
        person: 'fin-sam',
      });
      expect(preview.status).toBe(200);
      const confirmed = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        body: { digest: asked.digest, payload: edited, editDigest: preview.body.digest },
        person: 'fin-sam',
      });
      expect(confirmed).toMatchObject({
        status: 202,
        body: {
          code: 'AWAITING_APPROVALS',
          approval: { count: 1, needed: 2 },
          confirmation: { payload: edited, digest: preview.body.digest, quorum: { approvedBy: ['fin-sam'] } },
        },
      });
      // Mei approved the old payload: she may approve the new one, and then it goes out as edited.
      expect((await cardAs(asked.confirmationId, 'fin-mei')).offer).toMatchObject({ confirm: true });
      const done = await confirmAs(asked.confirmationId, preview.body.digest, 'fin-mei');
      expect(done).toMatchObject({ status: 200, body: { ok: true, status: 'delivered' } });
      expect(delivered).toEqual([{ payload: edited, approvedBy: 'fin-mei' }]);
    });

    it('a reject by any approver rejects, quorum or not', async () => {
      f = consoleFixture(makeStore);
      const { delivered, ask } = refunds(f);
      const asked = await ask();
      await confirmAs(asked.confirmationId, asked.digest, 'fin-mei');
      const rejected = await f.json(`/api/confirmations/${asked.confirmationId}/reject`, {
        body: { reason: 'Already refunded by hand.' },
        person: 'lead-wu',
      });
      expect(rejected).toMatchObject({ status: 200, body: { ok: true, status: 'rejected' } });
      expect(delivered).toEqual([]);
    });

    it('confirm-many records an approval for a quorum send and delivers a plain one, each with its own result', async () => {
      f = consoleFixture(makeStore);
      const { delivered, ask } = refunds(f);
      const big = await ask();
      const plain = await f.ask('Hello');
      const { status, body } = await f.json('/api/confirm-many', {
        body: {
          items: [
            { id: big.confirmationId, digest: big.digest },
            { id: plain.confirmationId, digest: plain.digest },
          ],
        },
        person: 'fin-mei',
      });
      expect(status).toBe(200);
      expect(body.results).toMatchObject([
        { id: big.confirmationId, ok: false, code: 'AWAITING_APPROVALS', approval: { count: 1, needed: 2 } },
        { id: plain.confirmationId, ok: true, status: 'delivered' },
      ]);
      expect(delivered).toEqual([]);
      expect(f.deliveries).toHaveLength(1);
    });

    it('through an approval link: the approval is recorded and shown to its approver, the link is spent', async () => {
      f = consoleFixture(makeStore, { publicUrl: PUBLIC });
      const { delivered, ask } = refunds(f);
      const asked = await ask();
      // A link for someone without the flag is not made: they could not use it.
      const refused = await f.approvals.createApprovalLink(asked.confirmationId, {
        approver: { id: 'lead-wu', flags: { outbound: true } },
      });
      expect(refused).toMatchObject({ ok: false, code: 'FLAG_NOT_GRANTED' });
      const made = await f.approvals.createApprovalLink(asked.confirmationId, { approver: MEI });
      if (!made.ok) throw new Error(made.error);
      const token = new URL(made.url).hash.slice(1);
      const withLink = { person: null, headers: { 'x-approval-link': token } };
      const opened = await f.json(`/api/confirmations/${asked.confirmationId}`, withLink);
      expect(opened.body.confirmation).toMatchObject({ quorum: { needed: 2, approvedBy: [] } });
      const recorded = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        ...withLink,
        body: { digest: asked.digest },
      });
      expect(recorded).toMatchObject({
        status: 202,
        body: {
          ok: false,
          code: 'AWAITING_APPROVALS',
          approval: { count: 1, needed: 2 },
          confirmation: { status: 'pending', quorum: { approvedBy: ['fin-mei'] } },
        },
      });
      const spent = await f.json(`/api/confirmations/${asked.confirmationId}`, withLink);
      expect(spent).toMatchObject({ status: 410, body: { code: 'LINK_REFUSED', reason: 'used' } });
      expect(delivered).toEqual([]);
      const done = await confirmAs(asked.confirmationId, asked.digest, 'fin-sam');
      expect(done).toMatchObject({ status: 200, body: { ok: true, status: 'delivered' } });
      expect(delivered).toEqual([expect.objectContaining({ approvedBy: 'fin-sam' })]);
    });
  },
);

describe('a rule’s refusal on the way through the console', () => {
  let f: ConsoleFixture;
  afterEach(() => f?.close());

  it('passes on LIMIT_REACHED as 429 with its rule and reset time, RULE_DENIED as 403 with its rule', async () => {
    const [, memory] = STORES[0] ?? [];
    f = consoleFixture(memory as NonNullable<typeof memory>);
    const asked = await f.ask();
    // The registry's confirm answering as a rule would: the console passes the outcome on as it is.
    const answers = [
      {
        ok: false,
        code: 'LIMIT_REACHED',
        error: 'Tool message.send reached its limit (20 calls per day).',
        rule: 'daily',
        resetsAt: '2030-01-02T00:00:00.000Z',
      },
      { ok: false, code: 'RULE_DENIED', error: 'Tool message.send refused this call: no.', rule: 'no' },
    ];
    Object.assign(f.registry, { confirm: async () => answers.shift() });
    const confirm = () =>
      f.json(`/api/confirmations/${asked.confirmationId}/confirm`, { body: { digest: asked.digest } });
    expect(await confirm()).toMatchObject({
      status: 429,
      body: { ok: false, code: 'LIMIT_REACHED', rule: 'daily', resetsAt: '2030-01-02T00:00:00.000Z' },
    });
    expect(await confirm()).toMatchObject({
      status: 403,
      body: { ok: false, code: 'RULE_DENIED', rule: 'no' },
    });
    expect(f.deliveries).toEqual([]);
  });
});
