// The page's WebAuthn ceremonies (src/console/page/webauthn.ts) in Chromium with a virtual
// authenticator, checked byte by byte from Node: the base64url options reach navigator.credentials as
// the bytes they encode, and the JSON the page sends back is what the authenticator signed — the
// client data names the challenge and origin, the authenticator data this rpID with user verification,
// and the signature verifies with the public key the registration gave (node:crypto, not our code).
import { createHash, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { addVirtualAuthenticator } from './virtual-authenticator.js';

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const fromB64url = (text: string) => Buffer.from(text, 'base64url');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();

// biome-ignore lint/suspicious/noExplicitAny: the page's answers are JSON read field by field
type Json = any;

describe('the page’s WebAuthn ceremonies, in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let url = '';
  beforeAll(async () => {
    const script = await build({
      entryPoints: [join(import.meta.dirname, '../../../src/console/page/webauthn.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'webauthn',
      target: 'es2022',
      platform: 'browser',
    });
    const code = script.outputFiles[0]?.text ?? '';
    server = createServer((req, res) => {
      if (req.url === '/webauthn.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>ceremony</title><script src="/webauthn.js"></script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://localhost:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const openPage = async (): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    await addVirtualAuthenticator(page);
    await page.goto(`${url}/`);
    return page;
  };
  const inPage = (page: Page, run: string, arg: unknown): Promise<Json> =>
    page.evaluate(([body, value]) => new Function('value', `return (async () => { ${body} })();`)(value), [
      run,
      arg,
    ] as const);

  it('registers, then signs a challenge: every byte as the authenticator made it, the signature valid', async () => {
    const page = await openPage();
    const userId = b64url(Buffer.from('lead-li'));
    const registerChallenge = b64url(randomBytes(32));
    const made = await inPage(page, 'return webauthn.createPasskey(value);', {
      rp: { id: 'localhost', name: 'Desk approvals' },
      user: { id: userId, name: 'lead-li', displayName: 'Li' },
      challenge: registerChallenge,
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      timeout: 10_000,
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      attestation: 'none',
    });
    expect(made.ok).toBe(true);
    const registration = made.value;
    expect(registration.rawId).toBe(registration.id);
    const createData = JSON.parse(fromB64url(registration.response.clientDataJSON).toString('utf8'));
    expect(createData).toMatchObject({ type: 'webauthn.create', challenge: registerChallenge, origin: url });
    expect(registration.response.publicKeyAlgorithm).toBe(-7);
    expect(registration.response.transports).toContain('internal');

    // Signing a second challenge with that credential.
    const challenge = b64url(randomBytes(32));
    const signed = await inPage(page, 'return webauthn.signWithPasskey(value);', {
      challenge,
      rpId: 'localhost',
      timeout: 10_000,
      allowCredentials: [{ id: registration.id, type: 'public-key', transports: ['internal'] }],
      userVerification: 'required',
    });
    expect(signed.ok).toBe(true);
    const assertion = signed.value;
    expect(assertion.id).toBe(registration.id);
    expect(assertion.response.userHandle).toBe(userId);
    const clientData = fromB64url(assertion.response.clientDataJSON);
    expect(JSON.parse(clientData.toString('utf8'))).toMatchObject({
      type: 'webauthn.get',
      challenge,
      origin: url,
    });
    const authenticatorData = fromB64url(assertion.response.authenticatorData);
    expect(authenticatorData.subarray(0, 32).equals(sha256('localhost'))).toBe(true);
    const flags = authenticatorData[32] ?? 0;
    expect(flags & 0x01, 'user present').toBe(0x01);
    expect(flags & 0x04, 'user verified').toBe(0x04);
    const publicKey = {
      key: fromB64url(registration.response.publicKey),
      format: 'der',
      type: 'spki',
    } as const;
    const message = Buffer.concat([authenticatorData, sha256(clientData)]);
    const signature = fromB64url(assertion.response.signature);
    expect(verify('sha256', message, publicKey, signature)).toBe(true);
    // One bit changed in what was signed: no longer valid (the check above could fail).
    const tampered = Buffer.from(message);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
    expect(verify('sha256', tampered, publicKey, signature)).toBe(false);

    // The same authenticator asked again with that credential excluded: "already there", nothing made.
    const again = await inPage(page, 'return webauthn.createPasskey(value);', {
      rp: { id: 'localhost', name: 'Desk approvals' },
      user: { id: userId, name: 'lead-li', displayName: 'Li' },
      challenge: b64url(randomBytes(32)),
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      timeout: 10_000,
      excludeCredentials: [{ id: registration.id, type: 'public-key' }],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    });
    expect(again).toEqual({ ok: false, code: 'PASSKEY_EXISTS' });
  }, 60_000);

  it('a credential this authenticator does not hold: no assertion, a code instead of a throw', async () => {
    const page = await openPage();
    const got = await inPage(page, 'return webauthn.signWithPasskey(value);', {
      challenge: b64url(randomBytes(32)),
      rpId: 'localhost',
      timeout: 3_000,
      allowCredentials: [{ id: b64url(randomBytes(16)), type: 'public-key' }],
      userVerification: 'required',
    });
    expect(got).toEqual({ ok: false, code: 'PASSKEY_CANCELLED' });
  }, 60_000);
});
