import type { ConfirmRequired, RegistryOptions } from 'graded-tools';
import { createPasskeys } from 'graded-tools/passkeys';
import { afterEach, describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator.js';
import { type ConsoleFixture, consoleFixture, ORIGIN, STORES } from './setup.js';

// The console's passkey routes: always the signed-in person's passkeys and challenges, never a name
// from the body; every refusal in the person's words; a passkey confirmation is decided only with an
// assertion, and an approval link offers no Confirm for it.

const [memory] = STORES;
if (memory === undefined) throw new Error('no memory store in STORES');

const passkeys = () => createPasskeys({ rpID: 'console.test', rpName: 'Desk approvals', origin: ORIGIN });

const fixtures: ConsoleFixture[] = [];
afterEach(() => {
  for (const f of fixtures.splice(0)) f.close();
});
const fixture = (registryOptions: RegistryOptions = { passkeys: passkeys() }, more = {}) => {
  const f = consoleFixture(memory[1], { registryOptions, ...more });
  // A send that needs a passkey every time.
  f.registry.register({
    name: 'payout.send',
    title: 'Pay a supplier',
    description: 'Pay an invoice.',
    sideEffect: 'send',
    passkey: true,
    inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    prepare: (input) => ({ to: String(input.to) }),
    deliver: () => ({ paid: true }),
  });
  fixtures.push(f);
  return f;
};
const askPayout = async (f: ConsoleFixture): Promise<ConfirmRequired> => {
  const asked = await f.registry.invoke('payout.send', { to: 'Acme' }, { actor: 'agent-7' });
  expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
  return asked as ConfirmRequired;
};
const deleteInit = {
  method: 'DELETE',
  body: {},
  headers: { origin: ORIGIN, 'content-type': 'application/json' },
};

describe('the console’s passkey routes', () => {
  it('registration options are for the signed-in person, whatever the body names', async () => {
    const f = fixture();
    const { status, body } = await f.json('/api/passkeys/options', {
      body: { approver: 'lead-wu', displayName: 'Wu' },
    });
    expect(status).toBe(200);
    expect(body.options.user).toMatchObject({ name: 'lead-li', displayName: 'Li' });
    expect(body.options.authenticatorSelection).toMatchObject({ userVerification: 'required' });
    expect(await f.json('/api/passkeys')).toEqual({ status: 200, body: { ok: true, credentials: [] } });
  });

  it('a registry without passkeys answers PASSKEY_REQUIRED, in words that say to configure them', async () => {
    const f = fixture({});
    const { status, body } = await f.json('/api/passkeys');
    expect(status).toBe(403);
    expect(body).toMatchObject({ ok: false, code: 'PASSKEY_REQUIRED' });
    expect(body.error).toMatch(/createPasskeys/);
  });

  it('a DELETE is a state change: the console’s own origin and JSON only; another’s passkey is not found', async () => {
    const f = fixture();
    const foreign = await f.json('/api/passkeys/abc', {
      ...deleteInit,
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    });
    expect(foreign).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_ORIGIN' } });
    const plain = await f.json('/api/passkeys/abc', {
      ...deleteInit,
      headers: { origin: ORIGIN, 'content-type': 'text/plain' },
    });
    expect(plain).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const missing = await f.json('/api/passkeys/abc', deleteInit);
    expect(missing).toMatchObject({ status: 404, body: { ok: false, code: 'NOT_FOUND' } });
  });

  it('a challenge needs the digest, and is refused to whom authorize does not let confirm it', async () => {
    const f = fixture(undefined, {
      authorize: (person: { id: string }, action: string) => action === 'view' || person.id !== 'lead-wu',
    });
    const asked = await askPayout(f);
    const path = `/api/confirmations/${asked.confirmationId}/passkey-challenge`;
    expect(await f.json(path, { body: {} })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await f.json(path, { body: { digest: asked.digest }, person: 'lead-wu' })).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect(
      await f.json('/api/confirmations/no-such-id/passkey-challenge', { body: { digest: asked.digest } }),
    ).toMatchObject({ status: 404, body: { code: 'CONFIRMATION_NOT_FOUND' } });
    // Li has no passkey yet: the challenge says to register one, nothing is decided.
    const none = await f.json(path, { body: { digest: asked.digest } });
    expect(none.status).toBe(403);
    expect(none.body.code).toMatch(/^PASSKEY_/);
  });

  it('a confirm without the passkey is refused (PASSKEY_REQUIRED) and nothing is sent; a passkey that is not an object is a bad request', async () => {
    const f = fixture();
    const asked = await askPayout(f);
    const confirm = `/api/confirmations/${asked.confirmationId}/confirm`;
    const refused = await f.json(confirm, { body: { digest: asked.digest } });
    expect(refused).toMatchObject({ status: 403, body: { ok: false, code: 'PASSKEY_REQUIRED' } });
    expect(refused.body.confirmation).toMatchObject({ status: 'pending', requires: { passkey: true } });
    expect(await f.json(confirm, { body: { digest: asked.digest, passkey: 'signed' } })).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST' },
    });
    const card = await f.json(`/api/confirmations/${asked.confirmationId}`);
    expect(card.body.confirmation.status).toBe('pending');
  });

  it('no approval link is made for it: a link cannot carry a passkey', async () => {
    const f = fixture(undefined, { publicUrl: 'https://desk.example/approvals' });
    const asked = await askPayout(f);
    const made = await f.approvals.createApprovalLink(asked.confirmationId, {
      approver: { id: 'lead-wu', flags: { outbound: true } },
    });
    expect(made).toMatchObject({ ok: false, code: 'PASSKEY_REQUIRED' });
  });

  it('through the routes: register as the signed-in person, sign the challenge, confirm; an assertion for one confirmation is refused on another', async () => {
    const f = fixture();
    const li = new SoftwareAuthenticator({ rpID: 'console.test', origin: ORIGIN });
    const options = await f.json('/api/passkeys/options', { body: {} });
    const added = await f.json('/api/passkeys', {
      body: { response: li.register(options.body.options), label: 'laptop', approver: 'lead-wu' },
    });
    expect(added).toMatchObject({ status: 200, body: { ok: true, credential: { label: 'laptop' } } });
    expect(added.body.credential.publicKey).toBeUndefined();
    const listed = await f.registry.passkeys.list({ approver: 'lead-li' });
    expect(listed.ok && listed.credentials.map((c) => c.id)).toEqual([li.credentialId]);

    const one = await askPayout(f);
    const two = await askPayout(f);
    const challenge = await f.json(`/api/confirmations/${one.confirmationId}/passkey-challenge`, {
      body: { digest: one.digest },
    });
    expect(challenge.status).toBe(200);
    expect(challenge.body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      li.credentialId,
    ]);
    const assertion = li.sign(challenge.body.options);
    // The same assertion offered for the other payout: refused, nothing sent.
    const elsewhere = await f.json(`/api/confirmations/${two.confirmationId}/confirm`, {
      body: { digest: two.digest, passkey: assertion },
    });
    expect(elsewhere).toMatchObject({ status: 403, body: { ok: false, code: 'PASSKEY_INVALID' } });
    // Wu cannot use Li's assertion: the console confirms as the signed-in person.
    const asWu = await f.json(`/api/confirmations/${one.confirmationId}/confirm`, {
      body: { digest: one.digest, passkey: li.sign(challenge.body.options) },
      person: 'lead-wu',
    });
    expect(asWu.body.ok).toBe(false);
    const fresh = await f.json(`/api/confirmations/${one.confirmationId}/passkey-challenge`, {
      body: { digest: one.digest },
    });
    const done = await f.json(`/api/confirmations/${one.confirmationId}/confirm`, {
      body: { digest: one.digest, passkey: li.sign(fresh.body.options) },
    });
    expect(done).toMatchObject({ status: 200, body: { ok: true, status: 'delivered' } });

    // Removed through the route: gone from the list, and another person's id is not found.
    expect(
      await f.json(`/api/passkeys/${li.credentialId}`, { ...deleteInit, person: 'lead-wu' }),
    ).toMatchObject({ status: 404 });
    expect(await f.json(`/api/passkeys/${li.credentialId}`, deleteInit)).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await f.json('/api/passkeys')).body.credentials).toEqual([]);
  });
});
