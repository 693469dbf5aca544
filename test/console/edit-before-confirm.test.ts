import { canonicalJson, payloadDigest } from 'graded-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConsoleFixture, consoleFixture, STORES, storeSupport } from './setup.js';

const ORIGINAL = { to: 'ana@example.com', text: 'Your refund is on its way.' };
const EDITED = { to: 'ana@example.com', text: 'Your refund of 20 EUR is on its way.' };

const support = new Map(
  await Promise.all(STORES.map(async ([name, make]) => [name, await storeSupport(name, make)] as const)),
);

describe.each(STORES)('editing a payload before confirming it (%s)', (name, makeStore) => {
  let f: ConsoleFixture;
  afterEach(() => f.close());

  it('preview: the edited payload’s digest, canonical JSON and changed fields, deciding nothing', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask(ORIGINAL.text, 'message.draft');
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
      body: { payload: EDITED },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      digest: payloadDigest('message.draft', EDITED),
      canonicalJson: canonicalJson(EDITED),
      changed: ['text'],
      payload: EDITED,
    });
    const card = await f.json(`/api/confirmations/${asked.confirmationId}`);
    expect(card.body.confirmation).toMatchObject({
      status: 'pending',
      payload: ORIGINAL,
      editable: ['text'],
    });
    expect(f.deliveries).toEqual([]);
  });

  it('preview refuses an invalid edit with its issues, and an edit of a field that is not editable', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask(ORIGINAL.text, 'message.draft');
    const invalid = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
      body: { payload: { ...ORIGINAL, text: '' } },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ ok: false, code: 'INVALID_INPUT', issues: [{ path: '/text' }] });
    const locked = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
      body: { payload: { ...ORIGINAL, to: 'mallory@example.com' } },
    });
    expect(locked.status).toBe(422);
    expect(locked.body).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect((await f.json(`/api/confirmations/${asked.confirmationId}/preview`, { body: {} })).status).toBe(
      400,
    );
  });

  it('confirm with the edited payload delivers exactly it', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask(ORIGINAL.text, 'message.draft');
    const { status, body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest, payload: EDITED, editDigest: payloadDigest('message.draft', EDITED) },
      person: 'lead-wu',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, status: 'delivered' });
    expect(f.deliveries).toEqual([
      { payload: EDITED, approvedBy: 'lead-wu', confirmationId: asked.confirmationId },
    ]);
  });

  it.skipIf(!support.get(name)?.recordsEdits)(
    'the confirmed card holds the edited payload, and its history the edit',
    async () => {
      f = consoleFixture(makeStore);
      const asked = await f.ask(ORIGINAL.text, 'message.draft');
      const { body } = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
        body: { digest: asked.digest, payload: EDITED, editDigest: payloadDigest('message.draft', EDITED) },
        person: 'lead-wu',
      });
      expect(body).toMatchObject({
        ok: true,
        confirmation: {
          payload: EDITED,
          digest: payloadDigest('message.draft', EDITED),
          canonicalJson: canonicalJson(EDITED),
        },
      });
      const claim = body.confirmation.history.find((e: { status: string }) => e.status === 'delivering');
      expect(claim).toMatchObject({
        by: 'lead-wu',
        edit: {
          fromDigest: asked.digest,
          toDigest: payloadDigest('message.draft', EDITED),
          fields: ['text'],
        },
      });
    },
  );

  it('an edit confirms only what its preview showed: without its digest, or with another, nothing is sent', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask(ORIGINAL.text, 'message.draft');
    const at = `/api/confirmations/${asked.confirmationId}/confirm`;
    // What the trap did: the card's (original) digest with an edited payload nobody saw.
    const unseen = await f.json(at, { body: { digest: asked.digest, payload: EDITED }, person: 'lead-wu' });
    expect(unseen.status).toBe(409);
    expect(unseen.body).toMatchObject({ ok: false, code: 'EDIT_NOT_PREVIEWED' });
    expect(unseen.body.error).toMatch(/preview/i);
    const other = await f.json(at, {
      body: {
        digest: asked.digest,
        payload: EDITED,
        editDigest: payloadDigest('message.draft', { ...EDITED, text: 'Something else.' }),
      },
      person: 'lead-wu',
    });
    expect(other.body).toMatchObject({ ok: false, code: 'EDIT_NOT_PREVIEWED' });
    const invalid = await f.json(at, {
      body: { digest: asked.digest, payload: { ...ORIGINAL, text: '' }, editDigest: asked.digest },
      person: 'lead-wu',
    });
    expect(invalid.body).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(f.deliveries).toEqual([]);
    const stored = await f.registry.confirmations.get(asked.confirmationId);
    expect(stored.ok && stored.confirmation.status).toBe('pending');
    // The preview's own digest: delivered, exactly the previewed payload.
    const preview = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
      body: { payload: EDITED },
    });
    const seen = await f.json(at, {
      body: { digest: asked.digest, payload: preview.body.payload, editDigest: preview.body.digest },
      person: 'lead-wu',
    });
    expect(seen.body).toMatchObject({ ok: true, status: 'delivered' });
    expect(f.deliveries.map((d) => d.payload)).toEqual([EDITED]);
  });

  it('an edit needs `edit` as well as `confirm` from authorize; a plain confirm does not', async () => {
    f = consoleFixture(makeStore, { authorize: (_person, action) => action !== 'edit' });
    const asked = await f.ask(ORIGINAL.text, 'message.draft');
    const edited = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest, payload: EDITED, editDigest: payloadDigest('message.draft', EDITED) },
    });
    expect(edited.status).toBe(403);
    expect(edited.body.code).toBe('FORBIDDEN');
    const preview = await f.json(`/api/confirmations/${asked.confirmationId}/preview`, {
      body: { payload: EDITED },
    });
    expect(preview.status).toBe(403);
    expect(f.deliveries).toEqual([]);
    const plain = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest },
    });
    expect(plain.body.ok).toBe(true);
    expect(f.deliveries.map((d) => d.payload)).toEqual([ORIGINAL]);
  });

  it('an edit of a tool that declares nothing editable is refused, and nothing is sent', async () => {
    f = consoleFixture(makeStore);
    const asked = await f.ask();
    const refused = await f.json(`/api/confirmations/${asked.confirmationId}/confirm`, {
      body: { digest: asked.digest, payload: { to: 'ana@example.com', text: 'changed' } },
    });
    expect(refused.body).toMatchObject({ ok: false, code: 'INVALID_OPTION' });
    expect(f.deliveries).toEqual([]);
  });
});
