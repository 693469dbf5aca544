import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfirmServer, startConfirmServer } from '../../examples/confirm-http.js';
import { createSupportDeskData, createSupportDeskRegistry } from '../../examples/support-desk-registry.js';

const data = createSupportDeskData();
let app: ConfirmServer;
beforeAll(async () => {
  app = await startConfirmServer({ registry: createSupportDeskRegistry(data), port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const call = async (
  path: string,
  init: { method?: string; user?: string | null; body?: unknown; type?: string } = {},
) => {
  const headers: Record<string, string> = {};
  if (init.user !== null) headers['x-user'] = init.user ?? 'lead-2';
  if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  const response = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined
      ? {}
      : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
};

const ask = (text: string) =>
  call('/messages', { method: 'POST', user: 'agent-7', body: { conversationId: 'c-1001', text } });

describe('examples/confirm-http.ts', () => {
  it('listens on a loopback port', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('prepares a send, lists it as pending, and confirms it with the digest the person saw', async () => {
    const asked = await ask('Your refund is on its way.');
    expect(asked.status).toBe(201);
    const { id, digest } = asked.body as unknown as { id: string; digest: string };
    expect(data.outbox).toEqual([]);

    const pending = await call('/confirmations');
    expect(pending.status).toBe(200);
    expect(pending.body).toContainEqual(
      expect.objectContaining({
        id,
        digest,
        askedBy: 'agent-7',
        payload: { to: 'ana@example.com', text: 'Your refund is on its way.' },
      }),
    );
    const one = await call(`/confirmations/${id}`);
    expect(one).toMatchObject({ status: 200, body: { id, status: 'pending' } });

    const wrong = await call(`/confirmations/${id}/confirm`, {
      method: 'POST',
      body: { digest: '0'.repeat(64) },
    });
    expect(wrong).toMatchObject({ status: 409, body: { code: 'PAYLOAD_CHANGED' } });
    expect(data.outbox).toEqual([]);

    const confirmed = await call(`/confirmations/${id}/confirm`, { method: 'POST', body: { digest } });
    expect(confirmed).toMatchObject({ status: 200, body: { id, status: 'delivered' } });
    expect(data.outbox).toEqual([
      { to: 'ana@example.com', text: 'Your refund is on its way.', confirmationId: id },
    ]);

    const twice = await call(`/confirmations/${id}/confirm`, { method: 'POST', body: { digest } });
    expect(twice).toMatchObject({ status: 409, body: { code: 'ALREADY_DECIDED', status: 'delivered' } });
    expect(data.outbox).toHaveLength(1);
    const listed = await call('/confirmations');
    expect((listed.body as unknown as { id: string }[]).map((c) => c.id)).not.toContain(id);
  });

  it('rejects with a reason', async () => {
    const { body } = await ask('Never mind.');
    const id = (body as unknown as { id: string }).id;
    const rejected = await call(`/confirmations/${id}/reject`, {
      method: 'POST',
      body: { reason: 'Duplicate.' },
    });
    expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } });
    const late = await call(`/confirmations/${id}/confirm`, { method: 'POST', body: {} });
    expect(late).toMatchObject({ status: 409, body: { code: 'ALREADY_DECIDED' } });
  });

  it('answers bad requests with a status, never crashing', async () => {
    expect((await call('/confirmations', { user: null })).status).toBe(401);
    expect((await call('/confirmations/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await call('/confirmations/x/confirm', { method: 'POST', body: '{not json' })).status).toBe(400);
    expect(
      (await call('/confirmations/x/confirm', { method: 'POST', body: '{}', type: 'text/plain' })).status,
    ).toBe(415);
    expect(
      (await call('/confirmations/x/confirm', { method: 'POST', body: { pad: 'x'.repeat(70_000) } })).status,
    ).toBe(413);
    expect((await call('/confirmations/x/delete', { method: 'POST', body: {} })).status).toBe(405);
    expect((await call('/elsewhere')).status).toBe(404);
    expect(
      (await call('/messages', { method: 'POST', user: 'agent-7', body: { conversationId: 'c-1001' } }))
        .status,
    ).toBe(400);
    expect((await call('/confirmations')).status).toBe(200);
  });
});
