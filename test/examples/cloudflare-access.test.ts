import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolRegistry } from 'graded-tools';
import { createApprovalsConsole } from 'graded-tools/console';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudflareAccess } from '../../examples/cloudflare-access.js';

// The Cloudflare Access recipe against a team's JWKS served on loopback, as Access serves it at
// `<team domain>/cdn-cgi/access/certs`: tokens signed here with the key it lists, and with others.
const AUDIENCE = 'aud-tag-of-the-approvals-app';
let server: Server;
let team = '';
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let jwksRequests = 0;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'access-key-1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url !== '/cdn-cgi/access/certs') return void res.writeHead(404).end();
    jwksRequests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  team = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A token as Access signs it, with whatever is changed for the case at hand. */
const token = (
  change: {
    claims?: JWTPayload;
    issuer?: string;
    audience?: string;
    expires?: string | number;
    key?: CryptoKey;
  } = {},
) =>
  new SignJWT({ email: 'li@desk.example', ...change.claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'access-key-1' })
    .setSubject('0d1c5e6f-access-user-id')
    .setIssuer(change.issuer ?? team)
    .setAudience(change.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(change.expires ?? '5m')
    .sign(change.key ?? signingKey);

const asking = (assertion?: string) =>
  new Request('https://desk.example/approvals/api/session', {
    headers: assertion === undefined ? {} : { 'cf-access-jwt-assertion': assertion },
  });

describe('examples/cloudflare-access.ts: sign-in on Workers through Cloudflare Access', () => {
  it('takes the person from a valid Cf-Access-Jwt-Assertion, checked against the team’s JWKS', async () => {
    const authenticate = cloudflareAccess({ teamDomain: team, audience: AUDIENCE });
    expect(await authenticate(asking(await token()))).toEqual({
      id: 'li@desk.example',
      name: 'li@desk.example',
    });
    expect(jwksRequests).toBeGreaterThan(0);
  });

  it.each([
    ['a token for another Access application (audience)', () => token({ audience: 'another-app' })],
    ['a token from another team (issuer)', () => token({ issuer: 'https://evil.cloudflareaccess.com' })],
    ['an expired token', () => token({ expires: Math.floor(Date.now() / 1000) - 600 })],
    ['a token signed with a key the JWKS does not list', () => token({ key: otherKey })],
    ['a token without an email', () => token({ claims: { email: undefined } })],
    ['a token whose signature was cut off', async () => (await token()).split('.').slice(0, 2).join('.')],
    ['text that is no token', async () => 'not-a-token'],
  ])('refuses %s: nobody is signed in', async (_case, make) => {
    const authenticate = cloudflareAccess({ teamDomain: team, audience: AUDIENCE });
    expect(await authenticate(asking(await make()))).toBeUndefined();
  });

  it('refuses a request without the header', async () => {
    const authenticate = cloudflareAccess({ teamDomain: team, audience: AUDIENCE });
    expect(await authenticate(asking())).toBeUndefined();
  });

  it('is the console’s authenticate: 200 with the person, 401 without a valid assertion', async () => {
    const approvals = createApprovalsConsole({
      registry: new ToolRegistry(),
      basePath: '/approvals',
      publicUrl: 'https://desk.example/approvals',
      sweepIntervalMs: 0,
      authenticate: cloudflareAccess({ teamDomain: team, audience: AUDIENCE }),
    });
    try {
      const signedIn = await approvals.fetch(asking(await token()));
      expect(signedIn.status).toBe(200);
      expect(await signedIn.json()).toMatchObject({ person: { id: 'li@desk.example' } });
      expect((await approvals.fetch(asking(await token({ audience: 'another-app' })))).status).toBe(401);
      expect((await approvals.fetch(asking())).status).toBe(401);
    } finally {
      approvals.close();
    }
  });
});
