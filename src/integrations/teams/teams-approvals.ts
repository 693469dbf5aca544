import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { Locale } from '../../messages/index.js';
import type { Notifier } from '../../notice.js';
import { TeamsActivityHandler } from './activity-handler.js';
import { ApprovalCards } from './approval-cards.js';
import { approvalsNotifier } from './approvals-notifier.js';
import { BOT_FRAMEWORK_OPENID_METADATA, BotFrameworkAuth } from './bot-auth.js';
import { BotConnector, defaultTokenUrl } from './bot-connector.js';
import { TeamsDecisions } from './teams-decisions.js';
import { TeamsPeople, type TeamsPersonLookup } from './teams-person.js';
import type { TeamsRegistry } from './teams-registry.js';
import { secureUrl } from './web-url.js';

/** What `teamsApprovals` is told. */
export interface TeamsApprovalsOptions {
  /**
   * The registry whose confirmations are decided in Teams, or a function returning it — so the
   * registry can be made after, with `teams.notifier` in its `notify.to`.
   */
  readonly registry: TeamsRegistry | (() => TeamsRegistry);
  /** The bot's Microsoft App ID (its Entra app registration's client id): the tokens' audience. */
  readonly appId: string;
  /** The app registration's client secret, for the bot's own token to the Bot Connector. */
  readonly appPassword: string;
  /** For a single-tenant bot, its tenant id: the bot's token is asked of that tenant. */
  readonly tenantId?: string;
  /** The Bot Connector service URL of the conversation cards are posted to (e.g. `https://smba.trafficmanager.net/emea/`). */
  readonly serviceUrl: string;
  /** The conversation (a channel's `19:…@thread.tacv2`, a group chat) the cards are posted to; the bot must be in it. */
  readonly conversationId: string;
  /**
   * The Teams user, by their Microsoft Entra object id, as an approver of this app:
   * `{ id, name?, flags?, scope? }`, or `undefined` for nobody. A throw is nobody too.
   */
  readonly person: TeamsPersonLookup;
  /** The language of the cards; the registry's by default. */
  readonly locale?: Locale;
  /** The Bot Connector's OpenID metadata (tests point it at a loopback stand-in). */
  readonly openIdMetadataUrl?: string;
  /** The token endpoint for the bot's own token (tests point it at a loopback stand-in). */
  readonly tokenUrl?: string;
  /** The clock tokens are checked against (ms since the epoch). */
  readonly now?: () => number;
}

/** A Teams channel for the registry's `notify.to`, and the bot's messaging endpoint. */
export interface TeamsApprovals {
  /** Posts each new confirmation as an Adaptive Card, and draws it again after every decision. */
  readonly notifier: Notifier;
  /** The bot's messaging endpoint: verifies every activity, decides through the registry, answers with the card. */
  fetch(request: Request): Promise<Response>;
}

/**
 * Approvals in Microsoft Teams, with Adaptive Cards and Universal Actions (`Action.Execute`).
 * `notifier` posts a card for every new confirmation — title, effect, the whole payload as written,
 * the agent's note and links, where each destination came from, the limits, the quorum
 * ("Approve (1 of 2)"), the undo window — to one conversation through the Bot Connector API. `fetch`
 * is the bot's messaging endpoint: it checks the Bot Framework's JWT on every activity (the
 * Connector's published keys, issuer, audience = `appId`, the `serviceUrl` claim), maps the Teams
 * user's Entra object id to a person with `person`, and decides with `registry.confirm` bound to the
 * digest the card showed, `registry.reject` or `registry.cancel` — the one check list. It answers
 * with the card as it stands, so a stale card is refreshed instead of deciding. A payload the card
 * cannot show whole gets no Approve, only Reject and a link to the console. Runs on Node and Workers
 * (Fetch only); `jose` is its one dependency, an optional peer.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { teamsApprovals } from 'graded-tools/teams';
 *
 * declare const directory: { byEntraId(id: string): Promise<{ id: string; name: string } | undefined> };
 *
 * const teams = teamsApprovals({
 *   registry: () => registry, // made below, with teams.notifier among its channels
 *   appId: process.env.MICROSOFT_APP_ID ?? '00000000-0000-0000-0000-000000000000',
 *   appPassword: process.env.MICROSOFT_APP_PASSWORD ?? 'secret',
 *   serviceUrl: 'https://smba.trafficmanager.net/emea/',
 *   conversationId: '19:approvers@thread.tacv2',
 *   person: async (entraObjectId) => directory.byEntraId(entraObjectId),
 * });
 * const registry = new ToolRegistry({ notify: { to: [teams.notifier] } });
 * // The bot's messaging endpoint, e.g. with Hono: app.post('/api/messages', (c) => teams.fetch(c.req.raw));
 * const answer = await teams.fetch(new Request('https://desk.example/api/messages', { method: 'POST', body: '{}' }));
 * console.log(answer.status); // 401: not signed by the Bot Connector
 * ```
 */
export function teamsApprovals(options: TeamsApprovalsOptions): TeamsApprovals {
  const settings = readOptions(options);
  const { registry, now } = settings;
  const locale = (): Locale => settings.locale ?? registryLocale(registry());
  const people = new TeamsPeople(settings.person);
  const connector = new BotConnector({
    appId: settings.appId,
    appPassword: settings.appPassword,
    tokenUrl: settings.tokenUrl,
    now,
  });
  const cards = new ApprovalCards({
    registry,
    connector,
    people,
    serviceUrl: settings.serviceUrl,
    conversationId: settings.conversationId,
    locale,
  });
  const decisions = new TeamsDecisions({ registry, people, cards, locale });
  const auth = new BotFrameworkAuth({
    appId: settings.appId,
    openIdMetadataUrl: settings.openIdMetadataUrl,
    now,
  });
  const handler = new TeamsActivityHandler({
    auth,
    decisions,
    now,
    home: { serviceUrl: settings.serviceUrl, conversationId: settings.conversationId },
    learnPlace: (id, place) => cards.learnPlace(id, place),
  });
  return { notifier: approvalsNotifier(cards), fetch: (request) => handler.fetch(request) };
}

interface Settings {
  readonly registry: () => TeamsRegistry;
  readonly appId: string;
  readonly appPassword: string;
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly person: TeamsPersonLookup;
  readonly locale: Locale | undefined;
  readonly openIdMetadataUrl: string;
  readonly tokenUrl: string;
  readonly now: () => number;
}

/** Every option read once, here; a mistake throws `ToolDefinitionError` (`INVALID_OPTION`) saying which. */
function readOptions(options: TeamsApprovalsOptions): Settings {
  const problem = (text: string) => new ToolDefinitionError('INVALID_OPTION', '', `teamsApprovals: ${text}`);
  if (typeof options !== 'object' || options === null) throw problem('pass an options object');
  const { registry, appId, appPassword, tenantId, serviceUrl, conversationId, person, locale, now } = options;
  const text = (value: unknown, name: string) => {
    if (typeof value !== 'string' || value.trim() === '')
      throw problem(`\`${name}\` must be a non-empty string`);
    return value;
  };
  const url = (value: unknown, name: string) => {
    const read = secureUrl(value);
    if (read === undefined) throw problem(`\`${name}\` must be an https URL (http only to a loopback host)`);
    return read;
  };
  if (typeof registry !== 'function' && (typeof registry !== 'object' || registry === null))
    throw problem('`registry` must be a ToolRegistry or a function returning one');
  if (typeof person !== 'function') throw problem('`person` must be a function of the Entra object id');
  if (locale !== undefined && locale !== 'en' && locale !== 'zh-CN')
    throw problem("`locale` must be 'en' or 'zh-CN'");
  if (now !== undefined && typeof now !== 'function') throw problem('`now` must be a function returning ms');
  if (tenantId !== undefined) text(tenantId, 'tenantId');
  return {
    registry: typeof registry === 'function' ? registry : () => registry,
    appId: text(appId, 'appId'),
    appPassword: text(appPassword, 'appPassword'),
    serviceUrl: url(serviceUrl, 'serviceUrl'),
    conversationId: text(conversationId, 'conversationId'),
    person,
    locale,
    openIdMetadataUrl: url(options.openIdMetadataUrl ?? BOT_FRAMEWORK_OPENID_METADATA, 'openIdMetadataUrl'),
    tokenUrl: url(options.tokenUrl ?? defaultTokenUrl(tenantId), 'tokenUrl'),
    now: now ?? Date.now,
  };
}

function registryLocale(registry: TeamsRegistry): Locale {
  try {
    return registry.locale === 'zh-CN' ? 'zh-CN' : 'en';
  } catch {
    return 'en';
  }
}
