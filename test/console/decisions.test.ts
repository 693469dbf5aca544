import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES } from './setup.js';

const WRONG_DIGEST = '0'.repeat(64);

describe.each(STORES)('decisions from the console (%s)', (_, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('confirm delivers once, as the signed-in person, and answers the delivered card in words', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true,
      status: 'delivered',
      message: 'Delivered.',
      confirmation: {
        id: asked.confirmationId,
        status: 'delivered',
        title: 'Message a customer',
        result: { sent: true },
      },
    });
    expect(f.deliveries).toEqual([
      {
        payload: { to: 'ana@example.com', text: 'Your refund is on its way.' },
        approvedBy: 'lead-li',
        confirmationId: asked.confirmationId,
      },
    ]);
  });

  it('a double confirm delivers once; the second is ALREADY_DECIDED and says who decided', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const path = `/api/confirmations/${asked.confirmationId}/confirm`;
    const [first, second] = await Promise.all([
      f.json(path, { body: { digest: asked.digest }, person: 'lead-li' }),
      f.json(path, { body: { digest: asked.digest }, person: 'lead-wu' }),
    ]);
    expect(f.deliveries).toHaveLength(1);
    const winner = f.deliveries[0]?.approvedBy;
    const [won, lost] = first?.body.ok ? [first, second] : [second, first];
    expect(won?.body).toMatchObject({ ok: true, status: 'delivered' });
    expect(lost?.status).toBe(409);
    expect(lost?.body).toMatchObject({
      ok: false,
      code: 'ALREADY_DECIDED',
      decidedBy: winner,
      error: expect.stringContaining('nothing was sent again'),
      confirmation: { id: asked.confirmationId },
    });

    // Later, the same again from the same person: still one delivery, still told who.
    const again = await f.json(path, { body: { digest: asked.digest }, person: 'lead-wu' });
    expect(again.body).toMatchObject({ code: 'ALREADY_DECIDED', decidedBy: winner });
    expect(f.deliveries).toHaveLength(1);
  });

  it('an expired confirmation is EXPIRED and nothing is sent', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    f.advance(2 * 60 * 60 * 1000);
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
    });
    expect(status).toBe(409);
    expect(body).toMatchObject({ ok: false, code: 'EXPIRED', confirmation: { status: 'expired' } });
    expect(f.deliveries).toEqual([]);
  });

  it('a digest other than the one shown is PAYLOAD_CHANGED and nothing is sent; it stays pending', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: WRONG_DIGEST },
    });
    expect(status).toBe(409);
    expect(body).toMatchObject({ ok: false, code: 'PAYLOAD_CHANGED', confirmation: { status: 'pending' } });
    expect(f.deliveries).toEqual([]);
  });

  it('a confirm without a digest is a bad request: the console always proves what was shown', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    for (const body of [{}, { digest: '' }, { digest: 42 }]) {
      const refused = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('BAD_REQUEST');
    }
    expect(f.deliveries).toEqual([]);
  });

  it('reject records the reason and the person; it can never be delivered after', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/reject`, {
      body: { reason: 'Wrong customer.' },
      person: 'lead-wu',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, status: 'rejected', message: 'Rejected; nothing was sent.' });
    expect(body.confirmation.history.at(-1)).toMatchObject({
      status: 'rejected',
      by: 'lead-wu',
      note: 'Wrong customer.',
    });
    const late = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
    });
    expect(late.body).toMatchObject({ code: 'ALREADY_DECIDED', decidedBy: 'lead-wu' });
    expect(f.deliveries).toEqual([]);
    expect(
      (await f.json(`/api/confirmations/${asked.confirmationId}/reject`, { body: { reason: 7 } })).status,
    ).toBe(400);
  });

  it('a failed delivery can be retried (same id as idempotency key) or marked delivered, by the person', async () => {
    f = consoleFixture(makeStore);
    const first = await f.ask('first');
    const second = await f.ask('second');
    f.failNextDeliveries(2);
    for (const asked of [first, second]) {
      const failed = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        body: { digest: asked.digest },
      });
      expect(failed.status).toBe(502);
      expect(failed.body).toMatchObject({
        ok: false,
        code: 'DELIVERY_FAILED',
        error: expect.stringContaining('the mail server said no'),
        confirmation: { status: 'failed' },
      });
    }
    const retried = await f.json(`/api/confirmations/${first.confirmationId}/retry`, {
      body: { digest: first.digest },
      person: 'lead-wu',
    });
    expect(retried.body).toMatchObject({ ok: true, status: 'delivered', confirmation: { attempt: 2 } });
    expect(f.deliveries.map((d) => [d.confirmationId, d.approvedBy])).toEqual([
      [first.confirmationId, 'lead-li'],
      [second.confirmationId, 'lead-li'],
      [first.confirmationId, 'lead-wu'],
    ]);

    const marked = await f.json(`/api/confirmations/${second.confirmationId}/mark-delivered`, {
      body: { note: 'Customer replied to it.' },
      person: 'lead-wu',
    });
    expect(marked.body).toMatchObject({
      ok: true,
      status: 'delivered',
      message: 'Marked as delivered; it will not be sent again.',
    });
    expect(marked.body.confirmation.history.at(-1)).toMatchObject({
      status: 'delivered',
      by: 'lead-wu',
      note: 'Customer replied to it.',
    });
    expect(f.deliveries).toHaveLength(3);

    const retryAgain = await f.json(`/api/confirmations/${second.confirmationId}/retry`, { body: {} });
    expect(retryAgain.body).toMatchObject({ ok: false, code: 'ALREADY_DECIDED', decidedBy: 'lead-wu' });
    expect(f.deliveries).toHaveLength(3);
  });

  it('the approver is always the signed-in person: a name, flags or scope in the body are ignored', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const { body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: {
        digest: asked.digest,
        approvedBy: 'mallory',
        by: 'mallory',
        flags: { outbound: true },
        scope: 'x',
      },
      person: 'lead-wu',
    });
    expect(body.ok).toBe(true);
    expect(f.deliveries[0]?.approvedBy).toBe('lead-wu');
    expect(
      body.confirmation.history.find((e: { status: string }) => e.status === 'delivering'),
    ).toMatchObject({
      by: 'lead-wu',
    });

    // The person's own flags decide the gates: without `outbound`, no delivery, whatever the body says.
    const other = await f.ask('other');
    const refused = await f.json(`/api/confirmations/${other.confirmationId}/confirm`, {
      body: { digest: other.digest, flags: { outbound: true } },
      person: 'no-flags',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FLAG_NOT_GRANTED');
    expect(f.deliveries).toHaveLength(1);

    const rejected = await f.json(`/api/confirmations/${other.confirmationId}/reject`, {
      body: { rejectedBy: 'mallory' },
      person: 'lead-li',
    });
    expect(rejected.body.confirmation.history.at(-1)).toMatchObject({ status: 'rejected', by: 'lead-li' });
  });

  it.each([
    ['a deny', () => false],
    [
      'a throw',
      () => {
        throw new Error('policy service down');
      },
    ],
    ['a rejected promise', () => Promise.reject(new Error('policy service down'))],
    ['a truthy value that is not true', () => 'yes' as unknown as boolean],
  ])('authorize: %s is 403 FORBIDDEN for every decision, and nothing is decided', async (_, verdict) => {
    const asked: string[] = [];
    f = consoleFixture(makeStore, {
      authorize: (person, action, confirmation) => {
        asked.push(`${person.id}:${action}:${confirmation.tool}`);
        return verdict();
      },
    });
    const one = await f.ask();
    for (const [action, body] of [
      ['confirm', { digest: one.digest }],
      ['confirm', { digest: one.digest, payload: { to: 'x@example.com', text: 'edited' } }],
      ['reject', {}],
      ['retry', {}],
      ['mark-delivered', {}],
    ] as const) {
      const refused = await f.json(`/api/confirmations/${one.confirmationId}/${action}`, { body });
      expect(refused.status, action).toBe(403);
      expect(refused.body).toEqual({ ok: false, code: 'FORBIDDEN', error: expect.any(String) });
    }
    const still = await f.registry.confirmations.get(one.confirmationId);
    expect(still.ok && still.confirmation.status).toBe('pending');
    expect(f.deliveries).toEqual([]);
    expect(asked).toEqual([
      'lead-li:confirm:message.send',
      'lead-li:confirm:message.send',
      'lead-li:reject:message.send',
      'lead-li:retry:message.send',
      'lead-li:markDelivered:message.send',
    ]);
  });

  it('authorize sees each action: four eyes in the app’s own rule', async () => {
    f = consoleFixture(makeStore, {
      authorize: (person, action, confirmation) => action !== 'confirm' || confirmation.actor !== person.id,
    });
    const asked = await f.ask();
    const self = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      person: 'agent-7',
    });
    expect(self.status).toBe(403);
    const other = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      person: 'lead-li',
    });
    expect(other.body.ok).toBe(true);
    expect(f.deliveries).toHaveLength(1);
  });

  it('four eyes: with requireDifferentApprover, the person who asked cannot confirm (SAME_PERSON)', async () => {
    f = consoleFixture(makeStore, { registryOptions: { requireDifferentApprover: true } });
    const asked = await f.ask();
    const self = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      person: 'agent-7',
    });
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ ok: false, code: 'SAME_PERSON', confirmation: { status: 'pending' } });
    expect(f.deliveries).toEqual([]);
    const other = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      person: 'lead-li',
    });
    expect(other.body).toMatchObject({ ok: true, status: 'delivered' });
    expect(f.deliveries).toHaveLength(1);
  });

  it('an unknown confirmation is 404 CONFIRMATION_NOT_FOUND', async () => {
    f = consoleFixture(makeStore);
    const { status, body } = await f.json('/api/confirmations/abcdefghijklmnop/confirm', {
      body: { digest: WRONG_DIGEST },
    });
    expect(status).toBe(404);
    expect(body).toMatchObject({ ok: false, code: 'CONFIRMATION_NOT_FOUND' });
  });

  it('words outcomes in the person’s language, the registry’s codes in the registry’s words', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9' };
    const done = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      headers: zh,
    });
    expect(done.body.message).toBe('已送达。');
    const again = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
      headers: zh,
    });
    expect(again.body.error).toContain('不会再次发送');
    const denied = await f.json('/api/confirmations/abcdefghijklmnop/confirm', {
      body: { digest: WRONG_DIGEST },
      headers: zh,
    });
    expect(denied.body.error).toBe('没有该 id 的确认请求。');
  });
});

describe.each(STORES)('a failing store (%s)', (_, makeStore) => {
  it('is STORE_FAILED in the registry’s words, without what the store threw', async () => {
    let broken = false;
    const f = consoleFixture(() => {
      const { store, close } = makeStore();
      const failing = new Proxy(store, {
        get(target, key) {
          const value = Reflect.get(target, key);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) =>
            broken && key !== 'create'
              ? Promise.reject(new Error('SQLITE_IOERR at /srv/secret/path.db password=hunter2'))
              : value.apply(target, args);
        },
      });
      return { store: failing, close };
    });
    const asked = await f.ask();
    broken = true;
    for (const [path, body] of [
      [`/api/confirmations/${asked.confirmationId}/confirm`, { digest: asked.digest }],
      [`/api/confirmations/${asked.confirmationId}`, undefined],
      ['/api/confirmations', undefined],
    ] as const) {
      const response = await f.call(path, body === undefined ? {} : { body });
      const text = await response.text();
      expect(response.status, path).toBe(503);
      expect(JSON.parse(text)).toMatchObject({ ok: false, code: 'STORE_FAILED' });
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('/srv/secret');
    }
    expect(f.deliveries).toEqual([]);
    f.close();
  });
});
