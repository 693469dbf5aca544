import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { isRecord } from '../../util/is-record.js';
import { secureUrl } from './web-url.js';

/** Who signs what the Bot Connector sends a bot: the issuer of its tokens. */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
/** Where the Bot Connector's signing keys are published (OpenID metadata → `jwks_uri`). */
export const BOT_FRAMEWORK_OPENID_METADATA =
  'https://login.botframework.com/v1/.well-known/openidconfiguration';

/** Why an activity is refused, or that its token is the Bot Connector's for this bot. */
export type TokenVerdict = 'ok' | 'unsigned' | 'bad-token' | 'wrong-service-url' | 'keys-unavailable';

/** How long published keys are trusted before they are read again (Microsoft rolls them over days). */
const KEYS_FOR_MS = 24 * 60 * 60 * 1000;
/** An unknown key id reads the keys again, at most this often (a forged `kid` cannot make us hammer them). */
const REFETCH_AFTER_MS = 5 * 60 * 1000;
/** After a failed read of the keys, how soon they are read again. */
const RETRY_AFTER_MS = 10 * 1000;
/** Clock skew the Bot Framework allows between the Connector and a bot. */
const CLOCK_TOLERANCE_SECONDS = 5 * 60;

interface Keys {
  readonly set: ReturnType<typeof createLocalJWKSet>;
  readonly endorsements: ReadonlyMap<string, readonly string[] | undefined>;
  readonly at: number;
}

/**
 * Checks the `Authorization: Bearer` JWT on every activity the way the Bot Framework says a bot
 * must: signed (RS256) by a key from the Connector's published JWKS — found through its OpenID
 * metadata — and, where the key lists endorsements, endorsed for the activity's channel; issued by
 * `https://api.botframework.com`, for this bot's app id (audience), not expired (five minutes of
 * skew), and naming in its `serviceUrl` claim the very service URL the activity says it came from.
 */
export class BotFrameworkAuth {
  readonly #appId: string;
  readonly #metadataUrl: string;
  readonly #now: () => number;
  #keys: Keys | undefined;
  #loading: Promise<Keys | undefined> | undefined;
  #lastFetch = Number.NEGATIVE_INFINITY;

  constructor(settings: { appId: string; openIdMetadataUrl: string; now: () => number }) {
    this.#appId = settings.appId;
    this.#metadataUrl = settings.openIdMetadataUrl;
    this.#now = settings.now;
  }

  async verify(
    authorization: string | null,
    activity: { readonly serviceUrl: string; readonly channelId: string },
  ): Promise<TokenVerdict> {
    const token = bearer(authorization);
    if (token === undefined) return 'unsigned';
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      kid = typeof header.kid === 'string' ? header.kid : undefined;
    } catch {
      return 'bad-token';
    }
    if (kid === undefined) return 'bad-token';
    const keys = await this.#keysWith(kid);
    if (keys === undefined) return 'keys-unavailable';
    if (!keys.endorsements.has(kid)) return 'bad-token';
    const endorsed = keys.endorsements.get(kid);
    if (endorsed !== undefined && !endorsed.includes(activity.channelId)) return 'bad-token';
    let claims: Record<string, unknown>;
    try {
      const verified = await jwtVerify(token, keys.set, {
        issuer: BOT_FRAMEWORK_ISSUER,
        audience: this.#appId,
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.#now()),
        requiredClaims: ['exp'],
      });
      claims = verified.payload as Record<string, unknown>;
    } catch {
      return 'bad-token';
    }
    return claims.serviceUrl === activity.serviceUrl ? 'ok' : 'wrong-service-url';
  }

  /** The published keys, read again when stale or when `kid` is not among them (rate-limited). */
  async #keysWith(kid: string): Promise<Keys | undefined> {
    const now = this.#now();
    const keys = this.#keys !== undefined && now - this.#keys.at < KEYS_FOR_MS ? this.#keys : undefined;
    const wanted = keys === undefined || !keys.endorsements.has(kid);
    // Without keys, a failed read is tried again soon; with them, an unknown kid waits its turn.
    const wait = keys === undefined ? RETRY_AFTER_MS : REFETCH_AFTER_MS;
    if (!wanted || now - this.#lastFetch < wait) return keys;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    const loaded = await this.#loading;
    if (loaded !== undefined) this.#keys = loaded;
    return loaded ?? keys;
  }

  async #load(): Promise<Keys | undefined> {
    this.#lastFetch = this.#now();
    try {
      const metadata: unknown = await getJson(this.#metadataUrl);
      const jwksUri = secureUrl(isRecord(metadata) ? metadata.jwks_uri : undefined);
      if (jwksUri === undefined) return undefined;
      const jwks: unknown = await getJson(jwksUri);
      if (!isRecord(jwks) || !Array.isArray(jwks.keys)) return undefined;
      const endorsements = new Map<string, readonly string[] | undefined>();
      const keys: Record<string, unknown>[] = [];
      for (const key of jwks.keys) {
        if (!isRecord(key) || typeof key.kid !== 'string' || key.kty !== 'RSA') continue;
        const listed = Array.isArray(key.endorsements)
          ? key.endorsements.filter((e): e is string => typeof e === 'string')
          : undefined;
        endorsements.set(key.kid, listed);
        keys.push({
          kty: key.kty,
          kid: key.kid,
          n: key.n,
          e: key.e,
          ...(key.alg === undefined ? {} : { alg: key.alg }),
        });
      }
      return {
        set: createLocalJWKSet({ keys } as unknown as JSONWebKeySet),
        endorsements,
        at: this.#now(),
      };
    } catch {
      return undefined;
    }
  }
}

function bearer(authorization: string | null): string | undefined {
  if (authorization === null || authorization.length > 16_384) return undefined;
  const [scheme, token, extra] = authorization.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token !== undefined && token !== '' && extra === undefined
    ? token
    : undefined;
}

async function getJson(url: string): Promise<unknown> {
  // Never followed: a redirect answers 3xx, not ok. ('error' is refused by Workers' fetch.)
  const response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}
