import { isRecord } from '../../util/is-record.js';

/** Where a bot gets its token for the Bot Connector API (multi-tenant); a single-tenant bot names its tenant. */
export function defaultTokenUrl(tenantId: string | undefined): string {
  return `https://login.microsoftonline.com/${encodeURIComponent(tenantId ?? 'botframework.com')}/oauth2/v2.0/token`;
}

/** A message activity as the Connector takes it: one Adaptive Card attachment. */
export interface CardActivity {
  readonly type: 'message';
  readonly attachments: readonly [{ contentType: string; content: unknown }];
  readonly summary?: string;
}

/** Where a posted card is: enough to update it. */
export interface CardPlace {
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly activityId: string;
}

/** Renew the token this long before it expires. */
const EARLY_MS = 5 * 60 * 1000;

/**
 * The two Bot Connector REST calls the channel makes — post an activity to a conversation
 * (`POST {serviceUrl}/v3/conversations/{id}/activities`) and replace one
 * (`PUT …/activities/{activityId}`) — with the bot's token from the client-credentials grant
 * (scope `https://api.botframework.com/.default`), kept until five minutes before it expires.
 * A failure throws, with the Connector's status; the callers turn it into a notify result.
 */
export class BotConnector {
  readonly #s: { appId: string; appPassword: string; tokenUrl: string; now: () => number };
  #token: { value: string; until: number } | undefined;
  #asking: Promise<string> | undefined;

  constructor(settings: { appId: string; appPassword: string; tokenUrl: string; now: () => number }) {
    this.#s = settings;
  }

  async post(serviceUrl: string, conversationId: string, activity: CardActivity): Promise<CardPlace> {
    const answer = await this.#call('POST', activitiesUrl(serviceUrl, conversationId), activity);
    const id = isRecord(answer) && typeof answer.id === 'string' ? answer.id : undefined;
    if (id === undefined) throw new Error('the Bot Connector answered without an activity id');
    return { serviceUrl, conversationId, activityId: id };
  }

  async update(place: CardPlace, activity: CardActivity): Promise<void> {
    const url = `${activitiesUrl(place.serviceUrl, place.conversationId)}/${encodeURIComponent(place.activityId)}`;
    await this.#call('PUT', url, { ...activity, id: place.activityId });
  }

  async #call(method: 'POST' | 'PUT', url: string, body: unknown): Promise<unknown> {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${await this.#bearer()}`,
        'content-type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify(body),
      // Never followed: a redirect answers 3xx, not ok. ('error' is refused by Workers' fetch.)
      redirect: 'manual',
    });
    if (response.status === 401) this.#token = undefined;
    if (!response.ok) throw new Error(`the Bot Connector answered HTTP ${response.status}`);
    const text = await response.text();
    return text === '' ? {} : (JSON.parse(text) as unknown);
  }

  #bearer(): Promise<string> {
    const token = this.#token;
    if (token !== undefined && this.#s.now() < token.until) return Promise.resolve(token.value);
    this.#asking ??= this.#ask().finally(() => {
      this.#asking = undefined;
    });
    return this.#asking;
  }

  async #ask(): Promise<string> {
    const response = await fetch(this.#s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.#s.appId,
        client_secret: this.#s.appPassword,
        scope: 'https://api.botframework.com/.default',
      }),
      // Never followed: a redirect answers 3xx, not ok. ('error' is refused by Workers' fetch.)
      redirect: 'manual',
    });
    const answer: unknown = response.ok ? await response.json() : undefined;
    if (!isRecord(answer) || typeof answer.access_token !== 'string')
      throw new Error(`the token endpoint answered HTTP ${response.status} without a token`);
    const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in * 1000 : 3600_000;
    this.#token = { value: answer.access_token, until: this.#s.now() + Math.max(0, lifetime - EARLY_MS) };
    return answer.access_token;
  }
}

function activitiesUrl(serviceUrl: string, conversationId: string): string {
  const base = serviceUrl.endsWith('/') ? serviceUrl : `${serviceUrl}/`;
  return `${base}v3/conversations/${encodeURIComponent(conversationId)}/activities`;
}
