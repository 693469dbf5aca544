import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES, storeSupport } from './setup.js';

const XSS = `<img src=x onerror="alert(1)"></textarea><script>alert(2)</script>`;

const support = new Map(
  await Promise.all(STORES.map(async ([name, make]) => [name, await storeSupport(name, make)] as const)),
);

describe.each(STORES)('the JSON API (%s)', (name, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('GET api/session: the person, the language and the server time', async () => {
    f = consoleFixture(makeStore);
    const before = Date.now();
    const { status, body } = await f.json('/api/session', { headers: { 'accept-language': 'zh' } });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      person: { id: 'lead-li', name: 'Li' },
      locale: 'zh-CN',
      serverTime: expect.any(String),
    });
    expect(Date.parse(body.serverTime)).toBeGreaterThanOrEqual(before - 1);
    expect((await f.json('/api/session', { person: 'no-flags' })).body.person).toEqual({ id: 'no-flags' });
  });

  it.skipIf(!support.get(name)?.pages)(
    'GET api/confirmations: cards newest first, page by page through nextCursor, with the send tools',
    async () => {
      f = consoleFixture(makeStore);
      const asked = [];
      for (let i = 0; i < 5; i++) asked.push(await f.ask(`message ${i}`));
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const { status, body } = await f.json(
          `/api/confirmations?status=pending&limit=2${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        expect(status).toBe(200);
        sizes.push(body.confirmations.length);
        seen.push(...body.confirmations.map((c: { id: string }) => c.id));
        cursor = body.nextCursor;
        expect(body.tools).toEqual([
          { name: 'message.send', title: 'Message a customer' },
          { name: 'ticket.note', title: 'ticket.note' },
          { name: 'message.draft', title: 'Reply draft' },
        ]);
      } while (cursor !== undefined);
      expect(seen).toEqual(asked.map((a) => a.confirmationId).reverse());
      expect(sizes.slice(0, 2)).toEqual([2, 2]);

      const { body } = await f.json('/api/confirmations?limit=1');
      const [card] = body.confirmations;
      expect(card).toMatchObject({
        id: asked[4]?.confirmationId,
        tool: 'message.send',
        title: 'Message a customer',
        editable: [],
        digest: asked[4]?.digest,
        canonicalJson: '{"text":"message 4","to":"ana@example.com"}',
        status: 'pending',
        actor: 'agent-7',
      });
      expect(typeof body.serverTime).toBe('string');
    },
  );

  it('filters by status and tool, and refuses a status, cursor or limit it cannot read with 400', async () => {
    f = consoleFixture(makeStore);
    const message = await f.ask('m');
    const note = await f.ask('n', 'ticket.note');
    await f.json(`/api/confirmations/${message.confirmationId}/reject`, { body: {} });
    const ids = async (query: string) =>
      (await f.json(`/api/confirmations?${query}`)).body.confirmations.map((c: { id: string }) => c.id);
    expect(await ids('status=pending')).toEqual([note.confirmationId]);
    expect(await ids('status=rejected')).toEqual([message.confirmationId]);
    expect(await ids('tool=ticket.note')).toEqual([note.confirmationId]);
    expect(await ids('tool=message.send&status=pending')).toEqual([]);
    expect(await ids('status=&tool=')).toEqual([note.confirmationId, message.confirmationId]);
    for (const query of ['status=sent', 'cursor=not-a-cursor', 'limit=-1', 'limit=ten', 'limit=99999']) {
      const refused = await f.json(`/api/confirmations?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.ok).toBe(false);
    }
  });

  it('lists only what authorize lets the person view, and refuses to show one it does not (403)', async () => {
    const hidden = new Set<string>();
    f = consoleFixture(makeStore, {
      authorize: (_person, action, c) => action !== 'view' || !hidden.has(c.id),
    });
    const shown = await f.ask('shown');
    const secret = await f.ask('secret');
    hidden.add(secret.confirmationId);
    const listed = await f.json('/api/confirmations');
    expect(listed.body.confirmations.map((c: { id: string }) => c.id)).toEqual([shown.confirmationId]);
    expect((await f.json(`/api/confirmations/${shown.confirmationId}`)).status).toBe(200);
    const refused = await f.json(`/api/confirmations/${secret.confirmationId}`);
    expect(refused).toEqual({
      status: 403,
      body: { ok: false, code: 'FORBIDDEN', error: expect.any(String) },
    });
  });

  it('names in `tools` only the send tools of confirmations authorize lets the person view', async () => {
    f = consoleFixture(makeStore, {
      authorize: (_person, action, c) => action !== 'view' || c.tool !== 'ticket.note',
    });
    await f.ask('m');
    await f.ask('n', 'ticket.note');
    const listed = await f.json('/api/confirmations?status=');
    expect(listed.body.tools).toEqual([{ name: 'message.send', title: 'Message a customer' }]);
    expect(JSON.stringify(listed.body)).not.toContain('ticket.note');
    // Without authorize every send tool is named, as before.
    const open = consoleFixture(makeStore);
    const all = await open.json('/api/confirmations');
    expect(all.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'message.draft',
      'message.send',
      'ticket.note',
    ]);
    open.close();
  });

  it('GET api/confirmations/<id>: one card with its history; 404 for none', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      confirmation: {
        id: asked.confirmationId,
        title: 'Message a customer',
        history: [{ status: 'pending', by: 'agent-7' }],
      },
      serverTime: expect.any(String),
    });
    for (const id of ['abcdefghijklmnop', 'bad%20id', 'a%2Fb']) {
      const missing = await f.json(`/api/confirmations/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body.code).toBe('CONFIRMATION_NOT_FOUND');
    }
  });

  it('serves a hostile payload as JSON data only: application/json, never in the HTML', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask(XSS);
    const response = await f.call(`/api/confirmations/${asked.confirmationId}`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(JSON.parse(text).confirmation.payload.text).toBe(XSS);
    const shell = await (await f.call(`/confirmations/${asked.confirmationId}`)).text();
    expect(shell).not.toContain('onerror');
    expect(shell).not.toContain('alert');
  });
});
