import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

describe.each(STORES)('deciding several at once (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('confirm-many checks each against its own digest and answers each on its own, in order', async () => {
    f = consoleFixture(makeStore);
    const [a, b, c] = [await f.ask('a'), await f.ask('b'), await f.ask('c')];
    if (a === undefined || b === undefined || c === undefined) throw new Error('asked three');
    await f.json(`/api/confirmations/${c.confirmationId}/reject`, { body: {} });
    const { status, body } = await f.json('/api/confirm-many', {
      body: {
        items: [
          { id: a.confirmationId, digest: a.digest },
          // b's item carries a's digest: it must not go out.
          { id: b.confirmationId, digest: a.digest },
          { id: c.confirmationId, digest: c.digest },
          { id: 'abcdefghijklmnop', digest: a.digest },
        ],
        approvedBy: 'mallory',
      },
    });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.results.map((r: { id: string; ok: boolean; code?: string }) => [r.id, r.ok, r.code])).toEqual(
      [
        [a.confirmationId, true, undefined],
        [b.confirmationId, false, 'PAYLOAD_CHANGED'],
        [c.confirmationId, false, 'ALREADY_DECIDED'],
        ['abcdefghijklmnop', false, 'CONFIRMATION_NOT_FOUND'],
      ],
    );
    expect(body.results[0]).toMatchObject({ status: 'delivered', message: 'Delivered.' });
    expect(body.results[2]).toMatchObject({ decidedBy: 'lead-li' });
    expect(f.deliveries.map((d) => [d.confirmationId, d.approvedBy])).toEqual([
      [a.confirmationId, 'lead-li'],
    ]);
  });

  it('the same id twice in one request is delivered once', async () => {
    f = consoleFixture(makeStore);
    const a = await f.ask();
    const item = { id: a.confirmationId, digest: a.digest };
    const { body } = await f.json('/api/confirm-many', { body: { items: [item, item] } });
    expect(body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(body.results[1]).toMatchObject({ code: 'ALREADY_DECIDED', decidedBy: 'lead-li' });
    expect(f.deliveries).toHaveLength(1);
  });

  it('reject-many rejects each with the one reason; authorize is asked about each', async () => {
    const denied = new Set<string>();
    f = consoleFixture(makeStore, { authorize: (_person, _action, c) => !denied.has(c.id) });
    const [a, b] = [await f.ask('a'), await f.ask('b')];
    if (a === undefined || b === undefined) throw new Error('asked two');
    denied.add(b.confirmationId);
    const { body } = await f.json('/api/reject-many', {
      body: { items: [{ id: a.confirmationId }, { id: b.confirmationId }], reason: 'Duplicate.' },
      person: 'lead-wu',
    });
    expect(body.results[0]).toMatchObject({ id: a.confirmationId, ok: true, status: 'rejected' });
    expect(body.results[0].confirmation.history.at(-1)).toMatchObject({ by: 'lead-wu', note: 'Duplicate.' });
    expect(body.results[1]).toEqual({
      id: b.confirmationId,
      ok: false,
      code: 'FORBIDDEN',
      error: expect.any(String),
    });
    const still = await f.registry.confirmations.get(b.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
  });

  it('refuses a malformed bulk request whole: no items, over 100, an item without its id or digest', async () => {
    f = consoleFixture(makeStore);
    const a = await f.ask();
    const item = { id: a.confirmationId, digest: a.digest };
    for (const body of [
      {},
      { items: 'all' },
      { items: Array.from({ length: 101 }, () => item) },
      { items: [item, { digest: a.digest }] },
      { items: [item, { id: a.confirmationId }] },
      { items: [item, null] },
    ]) {
      const refused = await f.json('/api/confirm-many', { body });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('BAD_REQUEST');
    }
    expect(
      (await f.json('/api/reject-many', { body: { items: [{ id: a.confirmationId }], reason: 3 } })).status,
    ).toBe(400);
    expect(f.deliveries).toEqual([]);
    const empty = await f.json('/api/confirm-many', { body: { items: [] } });
    expect(empty.body).toEqual({ ok: true, results: [] });
  });
});
