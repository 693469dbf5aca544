import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

describe.each(STORES)('bundles in the console (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  const propose = async () => {
    const asked = await f.registry.proposeBundle(
      [
        { tool: 'message.send', input: { to: 'ana@example.com', text: 'first' } },
        { tool: 'message.send', input: { to: 'ana@example.com', text: 'second' } },
      ],
      { actor: 'agent-7', note: 'Both, in order.', flags: { outbound: true } },
    );
    if (!asked.ok) throw new Error(asked.error);
    return asked;
  };

  it('lists a bundle once, as one card holding every step in order, with one decision offered', async () => {
    f = consoleFixture(makeStore);
    const asked = await propose();
    const { status, body } = await f.json('/api/confirmations?status=pending');
    expect(status).toBe(200);
    expect(body.confirmations).toHaveLength(1);
    const [card] = body.confirmations;
    expect(card.bundleCard).toMatchObject({ id: asked.bundleId, digest: asked.digest, status: 'pending' });
    expect(card.bundleCard.steps.map((s: { payload: unknown }) => s.payload)).toEqual([
      expect.objectContaining({ text: 'first' }),
      expect.objectContaining({ text: 'second' }),
    ]);
    expect(card.bundleCard.offer).toMatchObject({ confirm: true, reject: true });
    // A step alone offers no Confirm (and no edit): it is decided with its bundle.
    expect(card.bundleCard.steps[1].offer).toMatchObject({ edit: false });
    const alone = await f.json(`/api/confirmations/${asked.confirmations[1]?.confirmationId}/confirm`, {
      body: { digest: asked.confirmations[1]?.digest },
    });
    expect(alone.body).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(f.deliveries).toEqual([]);
  });

  it('approves the bundle whole as the signed-in person, bound to the bundle digest; delivers in order', async () => {
    f = consoleFixture(makeStore);
    const asked = await propose();
    const wrong = await f.json(`/api/bundles/${asked.bundleId}/confirm`, {
      body: { digest: 'f'.repeat(64) },
    });
    expect(wrong.body).toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED' });
    const { status, body } = await f.json(`/api/bundles/${asked.bundleId}/confirm`, {
      body: { digest: asked.digest, approvedBy: 'someone-else' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, confirmation: { bundleCard: { status: 'delivered' } } });
    expect(f.deliveries.map((d) => [(d.payload as { text: string }).text, d.approvedBy])).toEqual([
      ['first', 'lead-li'],
      ['second', 'lead-li'],
    ]);
  });

  it('rejects the bundle: the first step rejected, the rest stopped; authorize is asked', async () => {
    f = consoleFixture(makeStore, { authorize: (_person, action) => action !== 'confirm' });
    const asked = await propose();
    const refused = await f.json(`/api/bundles/${asked.bundleId}/confirm`, {
      body: { digest: asked.digest },
    });
    expect(refused.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const { body } = await f.json(`/api/bundles/${asked.bundleId}/reject`, {
      body: { reason: 'Wrong customer.' },
    });
    expect(body).toMatchObject({ ok: true, confirmation: { bundleCard: { status: 'stopped' } } });
    // The answer says what the rejection stopped (and, had any gone out, which).
    expect(body.message).toBe('Rejected: steps 1 and 2 will not go out.');
    expect(body.confirmation.bundleCard.steps.map((s: { status: string }) => s.status)).toEqual([
      'rejected',
      'rejected',
    ]);
    expect(f.deliveries).toEqual([]);
  });
});
