// Sign-in for the approvals console on Cloudflare Workers, through Cloudflare Access: Access signs
// every request it lets through with a JWT in the `Cf-Access-Jwt-Assertion` header, and this
// `authenticate` verifies it with jose against the team's public keys (its JWKS) — signature, issuer,
// the application's audience tag and expiry — before it names a person. The header alone proves
// nothing: anyone who reaches the Worker without Access in front can send one.
//
//   import { cloudflareAccess } from './cloudflare-access.js';
//   createApprovalsConsole({ registry, authenticate: cloudflareAccess({ teamDomain, audience }) });
//
// teamDomain is `https://<your-team>.cloudflareaccess.com`; audience is the Access application's
// "Application Audience (AUD) Tag". See docs/guide/deploying-workers.md.
import type { ConsolePerson } from 'graded-tools/console';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

/** What `cloudflareAccess` checks a token against, and who a verified token names. */
export interface CloudflareAccessOptions {
  /** The issuer: `https://<your-team>.cloudflareaccess.com`; its keys are at `/cdn-cgi/access/certs`. */
  readonly teamDomain: string;
  /** The Access application's Audience (AUD) tag: a token for another application is refused. */
  readonly audience: string;
  /**
   * The person a verified token names, or `undefined` to refuse them (default: the token's `email`
   * as id and name). Look them up in your directory here to give them `flags` and a `scope`.
   */
  readonly personOf?: (claims: JWTPayload) => ConsolePerson | undefined | Promise<ConsolePerson | undefined>;
}

const byEmail = (claims: JWTPayload): ConsolePerson | undefined =>
  typeof claims.email === 'string' && claims.email !== ''
    ? { id: claims.email, name: claims.email }
    : undefined;

/**
 * The console's `authenticate` for an app behind Cloudflare Access: the person of a valid
 * `Cf-Access-Jwt-Assertion`, `undefined` (401) for a missing, forged, expired or foreign one. The JWKS
 * is fetched on first use and kept (refetched when Access rotates its keys), so make this once per
 * isolate, beside the console.
 */
export function cloudflareAccess(
  options: CloudflareAccessOptions,
): (request: Request) => Promise<ConsolePerson | undefined> {
  const { teamDomain } = options;
  const issuer = teamDomain.endsWith('/') ? teamDomain.slice(0, -1) : teamDomain;
  const keys = createRemoteJWKSet(new URL(`${issuer}/cdn-cgi/access/certs`));
  const personOf = options.personOf ?? byEmail;
  return async (request) => {
    const token = request.headers.get('cf-access-jwt-assertion');
    if (token === null || token === '') return undefined;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: options.audience,
        algorithms: ['RS256'],
      });
      return await personOf(payload);
    } catch {
      return undefined; // not signed by the team's keys, or not for this application, or expired
    }
  };
}
