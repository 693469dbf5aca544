import { createApprovalsConsole } from 'graded-tools/console';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

const PUBLIC = 'https://desk.example/approvals';
const LI = { id: 'lead-li', name: 'Li', flags: { outbound: true } };

/** The token, the confirmation id and the page's path under the console, from a link's URL. */
function partsOf(url: string) {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/^\/approvals/, '');
  return { path, token: parsed.hash.slice(1), id: decodeURIComponent(path.split('/').pop() ?? '') };
}

/** A request's options carrying a link's token and no session. */
const withLink = (token: string, init: { body?: unknown } = {}) => ({
  person: null,
  headers: { 'x-approval-link': token },
  ...init,
});

describe.each(STORES)('approval links in the console: %s', (_name, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f?.close());

  const linkFor = async (id: string, options: { approver?: unknown; ttlMs?: number } = {}) => {
    const made = await f.approvals.createApprovalLink(id, { approver: LI, ...options } as never);
    if (!made.ok) throw new Error(`${made.code}: ${made.error}`);
    return { ...made, ...partsOf(made.url) };
  };
  const confirmWith = (token: string, id: string, digest: string) =>
    f.json(`/api/confirmations/${id}/confirm`, withLink(token, { body: { digest } }));

  it('opens its one confirmation without a session, confirms it once as the approver, then refuses', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const asked = await f.ask();
    const link = await linkFor(asked.confirmationId, { ttlMs: 60_000 });
    expect(link.url.startsWith(`${PUBLIC}/link/${asked.confirmationId}#`)).toBe(true);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const read = await f.json(`/api/confirmations/${asked.confirmationId}`, withLink(link.token));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      ok: true,
      confirmation: { id: asked.confirmationId, digest: asked.digest, editable: [], status: 'pending' },
      person: { id: 'lead-li', name: 'Li' },
      link: { expiresAt: link.expiresAt },
    });
    const confirmed = await confirmWith(link.token, asked.confirmationId, asked.digest);
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true, status: 'delivered' } });
    expect(f.deliveries.map((d) => d.approvedBy)).toEqual(['lead-li']);
    for (const again of [
      await confirmWith(link.token, asked.confirmationId, asked.digest),
      await f.json(`/api/confirmations/${asked.confirmationId}`, withLink(link.token)),
    ]) {
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        ok: false,
        code: 'LINK_REFUSED',
        reason: 'used',
        error: expect.any(String),
      });
    }
    expect(f.deliveries).toHaveLength(1);
  });

  it('takes publicUrl as the full address or as a bare origin, which gains the base path', async () => {
    for (const publicUrl of [
      'https://desk.example',
      'https://desk.example/',
      'https://desk.example/approvals/',
    ]) {
      f = consoleFixture(makeStore, { publicUrl });
      const asked = await f.ask();
      const link = await f.approvals.createApprovalLink(asked.confirmationId, { approver: LI });
      expect(
        link.ok && link.url.startsWith(`https://desk.example/approvals/link/${asked.confirmationId}#`),
      ).toBe(true);
      f.close();
    }
    f = consoleFixture(makeStore, { publicUrl: 'https://proxy.example/desk/approvals' });
    const asked = await f.ask();
    const behindProxy = await f.approvals.createApprovalLink(asked.confirmationId, { approver: LI });
    expect(behindProxy.ok && behindProxy.url).toMatch(/^https:\/\/proxy\.example\/desk\/approvals\/link\//);
  });

  it('serves the link page to anyone, holding neither the token nor anything of the confirmation', async () => {
    f = consoleFixture(makeStore, { publicUrl: `${PUBLIC}/` });
    const asked = await f.ask('A private refund note');
    const link = await linkFor(asked.confirmationId);
    expect(link.url.startsWith(`${PUBLIC}/link/`)).toBe(true);
    const page = await f.call(link.path, { person: null });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-mode="link"');
    expect(html).not.toContain(link.token);
    expect(html).not.toContain('private refund');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Without the link's header, the API still wants a session.
    expect((await f.json(`/api/confirmations/${asked.confirmationId}`, { person: null })).status).toBe(401);
  });

  it('opens nothing else: another confirmation looks like no link at all, and other routes are forbidden', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const a = await f.ask('A');
    const b = await f.ask('B');
    const link = await linkFor(a.confirmationId);
    const onB = [
      await f.json(`/api/confirmations/${b.confirmationId}`, withLink(link.token)),
      await confirmWith(link.token, b.confirmationId, b.digest),
      await f.json(`/api/confirmations/${b.confirmationId}/reject`, withLink(link.token, { body: {} })),
    ];
    for (const answer of onB) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ ok: false, code: 'LINK_REFUSED', reason: 'unknown' });
      expect(answer.body.confirmation).toBeUndefined();
    }
    const elsewhere = [
      ['/api/confirmations', undefined],
      ['/api/session', undefined],
      ['/api/events', undefined],
      [`/api/confirmations/${a.confirmationId}/preview`, { payload: { to: 'x', text: 'y' } }],
      [`/api/confirmations/${a.confirmationId}/retry`, { digest: a.digest }],
      [`/api/confirmations/${a.confirmationId}/mark-delivered`, {}],
      ['/api/confirm-many', { items: [{ id: a.confirmationId, digest: a.digest }] }],
    ] as const;
    for (const [path, body] of elsewhere) {
      const answer = await f.json(path, withLink(link.token, body === undefined ? {} : { body }));
      expect([path, answer.status, answer.body.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect(f.deliveries).toEqual([]);
    expect(await confirmWith(link.token, a.confirmationId, a.digest)).toMatchObject({ status: 200 });
    expect(f.deliveries.map((d) => d.confirmationId)).toEqual([a.confirmationId]);
  });

  it('approves only what it was made for: no edits, and a stale digest neither sends nor spends it', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const asked = await f.ask('Draft', 'message.draft');
    const link = await linkFor(asked.confirmationId);
    const read = await f.json(`/api/confirmations/${asked.confirmationId}`, withLink(link.token));
    expect(read.body.confirmation.editable).toEqual([]);
    const edited = await f.json(
      `/api/confirmations/${asked.confirmationId}/confirm`,
      withLink(link.token, {
        body: { digest: asked.digest, payload: { to: 'ana@example.com', text: 'Other' } },
      }),
    );
    expect(edited.status).toBe(400);
    const stale = await confirmWith(link.token, asked.confirmationId, 'f'.repeat(64));
    expect(stale).toMatchObject({ status: 409, body: { code: 'PAYLOAD_CHANGED' } });
    expect(f.deliveries).toEqual([]);
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({ status: 200 });
    expect(f.deliveries).toHaveLength(1);
  });

  it('rejects through the link: nothing is sent, the reason is recorded, the link is spent', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const asked = await f.ask();
    const link = await linkFor(asked.confirmationId);
    const rejected = await f.json(
      `/api/confirmations/${asked.confirmationId}/reject`,
      withLink(link.token, { body: { reason: 'Wrong customer' } }),
    );
    expect(rejected).toMatchObject({ status: 200, body: { ok: true, status: 'rejected' } });
    const stored = await f.registry.confirmations.get(asked.confirmationId);
    expect(stored.ok && stored.confirmation.history.at(-1)).toMatchObject({
      status: 'rejected',
      by: 'lead-li',
      note: 'Wrong customer',
    });
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({
      status: 410,
      body: { reason: 'used' },
    });
    expect(f.deliveries).toEqual([]);
  });

  it('refuses an expired link, and one whose confirmation a person decided in the console meanwhile', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const late = await f.ask('late');
    const decided = await f.ask('decided');
    const lateLink = await linkFor(late.confirmationId, { ttlMs: 60_000 });
    const decidedLink = await linkFor(decided.confirmationId);
    f.advance(60_000);
    expect(await confirmWith(lateLink.token, late.confirmationId, late.digest)).toMatchObject({
      status: 410,
      body: { code: 'LINK_REFUSED', reason: 'expired' },
    });
    const inConsole = await f.json(`/api/confirmations/${decided.confirmationId}/confirm`, {
      person: 'lead-wu',
      body: { digest: decided.digest },
    });
    expect(inConsole.status).toBe(200);
    const answer = await f.json(`/api/confirmations/${decided.confirmationId}`, withLink(decidedLink.token));
    expect(answer).toMatchObject({ status: 409, body: { code: 'ALREADY_DECIDED' } });
    expect(answer.body.confirmation).toBeUndefined();
    expect(f.deliveries.map((d) => d.approvedBy)).toEqual(['lead-wu']);
  });

  it("keeps the console's checks: a cross-origin POST is refused before the link is even looked at", async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const asked = await f.ask();
    const link = await linkFor(asked.confirmationId);
    const forged = await f.call(`/api/confirmations/${asked.confirmationId}/confirm`, {
      person: null,
      body: { digest: asked.digest },
      headers: { 'x-approval-link': link.token, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(f.deliveries).toEqual([]);
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({ status: 200 });
  });

  it('asks `authorize` and the tool gates: no link for who may not confirm, and a refused ask does not spend one', async () => {
    let allow = true;
    f = consoleFixture(makeStore, {
      publicUrl: PUBLIC,
      authorize: (person, action) => allow || person.id !== 'lead-li' || action === 'view',
    });
    const asked = await f.ask();
    const link = await linkFor(asked.confirmationId);
    allow = false;
    expect(await f.approvals.createApprovalLink(asked.confirmationId, { approver: LI })).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    allow = true;
    expect(
      await f.approvals.createApprovalLink(asked.confirmationId, { approver: { id: 'lead-li' } }),
    ).toMatchObject({
      ok: false,
      code: 'FLAG_NOT_GRANTED',
      error: expect.stringContaining('{ id, flags, scope }'),
    });
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({ status: 200 });
    expect(f.deliveries).toHaveLength(1);
  });

  it('a tool unregistered after the link was made refuses the link without spending it', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC });
    const asked = await f.ask();
    const link = await linkFor(asked.confirmationId);
    const tool = f.registry.get('message.send');
    expect(tool).toBeDefined();
    f.registry.unregister('message.send');
    const refused = await confirmWith(link.token, asked.confirmationId, asked.digest);
    expect(refused.body).toMatchObject({ ok: false, code: 'UNKNOWN_TOOL' });
    expect(refused.body.confirmation).toBeUndefined();
    f.reregister();
    expect(await confirmWith(link.token, asked.confirmationId, asked.digest)).toMatchObject({
      status: 200,
      body: { ok: true, status: 'delivered' },
    });
    expect(f.deliveries).toHaveLength(1);
  });

  it('a console decision landing while a link confirm is checked: ALREADY_DECIDED, no payload, one delivery', async () => {
    let asks = 0;
    let armed = false;
    f = consoleFixture(makeStore, {
      publicUrl: PUBLIC,
      authorize: async (person, action, confirmation) => {
        if (armed && person.id === 'lead-li' && action === 'confirm') {
          asks++;
          // Lead Wu decides in the console while the link's confirm is between its checks and its claim.
          await f.registry.confirm(confirmation.id, { approvedBy: 'lead-wu', flags: { outbound: true } });
        }
        return true;
      },
    });
    const asked = await f.ask('secret payload text');
    const link = await linkFor(asked.confirmationId);
    armed = true;
    const answer = await confirmWith(link.token, asked.confirmationId, asked.digest);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ ok: false, code: 'ALREADY_DECIDED' });
    expect(JSON.stringify(answer.body)).not.toContain('secret payload text');
    expect(answer.body.confirmation).toBeUndefined();
    expect(asks).toBe(1);
    expect(f.deliveries.map((d) => d.approvedBy)).toEqual(['lead-wu']);
  });

  it('answers in the console language', async () => {
    f = consoleFixture(makeStore, { publicUrl: PUBLIC, locale: 'zh-CN' });
    const asked = await f.ask();
    const answer = await f.json(`/api/confirmations/${asked.confirmationId}`, withLink('x'.repeat(43)));
    expect(answer.body.error).toMatch(/审批链接/);
  });
});

describe('createApprovalLink without a usable publicUrl', () => {
  it('is refused with INVALID_OPTION when the console has none, and a bad one throws at startup', async () => {
    const f = consoleFixture(
      STORES[0]?.[1] ??
        (() => {
          throw new Error('no store');
        }),
    );
    try {
      const asked = await f.ask();
      expect(await f.approvals.createApprovalLink(asked.confirmationId, { approver: LI })).toMatchObject({
        ok: false,
        code: 'INVALID_OPTION',
        error: expect.stringContaining('publicUrl'),
      });
      for (const publicUrl of [
        '/approvals',
        'ftp://desk.example',
        'https://desk.example/a?x=1',
        'https://desk.example/#a',
        'https://u:p@desk.example',
        42,
      ])
        expect(() =>
          createApprovalsConsole({ registry: f.registry, authenticate: () => undefined, publicUrl } as never),
        ).toThrow(/publicUrl/);
    } finally {
      f.close();
    }
  });
});
