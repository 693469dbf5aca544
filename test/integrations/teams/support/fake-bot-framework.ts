// A loopback stand-in for the Bot Framework: its OpenID metadata and signing keys (a local RSA key,
// endorsed for `msteams`), the token endpoint a bot gets its own token from, and the Bot Connector's
// activities API (post and update), which checks the bot's token and validates each card against
// the Adaptive Cards schema. Activities sent to the bot are signed here as the Connector signs them.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { cardProblem } from './adaptive-card-schema.js';

export const APP_ID = '6a1f0c2e-0000-4000-8000-00000000b07a';
export const APP_PASSWORD = 'test-client-secret';
export const CONVERSATION = '19:approvers@thread.tacv2';
const BOT_TOKEN = 'bot-token-from-the-loopback-token-endpoint';

export interface PostedCard {
  readonly id: string;
  readonly conversation: string;
  card: Record<string, unknown>;
  updates: number;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export async function startFakeBotFramework() {
  const good = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const unpublished = await generateKeyPair('RS256', { extractable: true });
  const keys = [
    {
      ...(await exportJWK(good.publicKey)),
      kid: 'teams-key',
      alg: 'RS256',
      use: 'sig',
      endorsements: ['msteams'],
    },
    {
      ...(await exportJWK(other.publicKey)),
      kid: 'skype-key',
      alg: 'RS256',
      use: 'sig',
      endorsements: ['skype'],
    },
  ];
  const cards = new Map<string, PostedCard>();
  const calls: Call[] = [];
  let keyReads = 0;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readAll(req);
    const send = (status: number, answer?: unknown) => {
      calls.push({ method: req.method ?? '', path: url.pathname, status });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(answer === undefined ? '' : JSON.stringify(answer));
    };
    if (req.method === 'GET' && url.pathname === '/openid')
      return send(200, { issuer: 'https://api.botframework.com', jwks_uri: `${base}/keys` });
    if (req.method === 'GET' && url.pathname === '/keys') {
      keyReads += 1;
      return send(200, { keys });
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(body);
      const ok =
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_id') === APP_ID &&
        form.get('client_secret') === APP_PASSWORD &&
        form.get('scope') === 'https://api.botframework.com/.default';
      return ok
        ? send(200, { token_type: 'Bearer', expires_in: 3600, access_token: BOT_TOKEN })
        : send(401, { error: 'invalid_client' });
    }
    const match = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(url.pathname);
    if (match === null) return send(404);
    if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`)
      return send(401, { error: { code: 'Unauthorized' } });
    const conversation = decodeURIComponent(match[1] ?? '');
    if (conversation !== CONVERSATION) return send(404, { error: { code: 'ConversationNotFound' } });
    const activity = JSON.parse(body) as {
      type?: string;
      attachments?: { contentType: string; content: unknown }[];
    };
    const attachment = activity.attachments?.[0];
    if (activity.type !== 'message' || attachment?.contentType !== 'application/vnd.microsoft.card.adaptive')
      return send(400, { error: { code: 'BadArgument' } });
    const problem = cardProblem(attachment.content);
    if (problem !== undefined || Buffer.byteLength(body) > 28_000) {
      console.error('invalid card:', problem ?? 'too large');
      return send(400, { error: { code: 'BadArgument', message: problem ?? 'too large' } });
    }
    if (req.method === 'POST' && match[2] === undefined) {
      const id = `1:${randomUUID()}`;
      cards.set(id, { id, conversation, card: attachment.content as Record<string, unknown>, updates: 0 });
      return send(201, { id });
    }
    const existing = cards.get(decodeURIComponent(match[2] ?? ''));
    if (req.method === 'PUT' && existing !== undefined) {
      existing.card = attachment.content as Record<string, unknown>;
      existing.updates += 1;
      return send(200, { id: existing.id });
    }
    return send(404, { error: { code: 'ActivityNotFound' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serviceUrl = `${base}/`;

  /** A Connector token for the bot, as the Bot Connector signs one (overrides make forgeries). */
  async function token(
    options: {
      key?: 'good' | 'other' | 'unpublished';
      kid?: string;
      aud?: string;
      iss?: string;
      serviceUrl?: string;
      expiresIn?: number;
    } = {},
  ): Promise<string> {
    const key = options.key === 'other' ? other : options.key === 'unpublished' ? unpublished : good;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ serviceUrl: options.serviceUrl ?? serviceUrl })
      .setProtectedHeader({
        alg: 'RS256',
        kid: options.kid ?? (options.key === 'other' ? 'skype-key' : 'teams-key'),
        typ: 'JWT',
      })
      .setIssuer(options.iss ?? 'https://api.botframework.com')
      .setAudience(options.aud ?? APP_ID)
      .setIssuedAt(now - 60)
      .setNotBefore(now - 60)
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(key.privateKey);
  }

  return {
    base,
    serviceUrl,
    openIdMetadataUrl: `${base}/openid`,
    tokenUrl: `${base}/token`,
    cards,
    calls,
    keyReads: () => keyReads,
    token,
    /** The card posted whose actions carry confirmation `id` (waits for it). */
    posted(id: string, ms = 5_000): Promise<PostedCard> {
      return until(
        () =>
          [...cards.values()].find((c) =>
            JSON.stringify(c.card.actions ?? c.card.refresh ?? {}).includes(id),
          ),
        ms,
      );
    },
    until,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeBotFramework = Awaited<ReturnType<typeof startFakeBotFramework>>;

/** Waits until `check` returns something, or fails after `ms`. */
export async function until<T>(check: () => T | undefined | false, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
