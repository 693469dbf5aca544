import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { Locale } from '../../messages/index.js';
import type { Notifier } from '../../notice.js';
import { ApprovalMessages } from './approval-messages.js';
import { approvalsNotifier } from './approvals-notifier.js';
import { SlackInteractivity } from './interactivity.js';
import { MessageLocator } from './message-locator.js';
import { People, type PersonLookup } from './person.js';
import { webApi } from './slack-api.js';
import { SlackDecisions } from './slack-decisions.js';
import type { SlackRegistry } from './slack-registry.js';

/** What `slackApprovals` is told. */
export interface SlackApprovalsOptions {
  /**
   * The registry whose confirmations are decided in Slack, or a function returning it — so the
   * registry can be made after, with `slack.notifier` in its `notify.to`.
   */
  readonly registry: SlackRegistry | (() => SlackRegistry);
  /** The Slack app's signing secret (Basic Information → App Credentials). */
  readonly signingSecret: string;
  /** The bot token (`xoxb-…`) with `chat:write` and `channels:history` (or `groups:history`). */
  readonly botToken: string;
  /** The channel's id (`C0…`) the approval messages go to; the bot must be a member. */
  readonly channel: string;
  /**
   * The Slack user (`U0…`) as an approver of this app: `{ id, name?, flags?, scope? }`, or
   * `undefined` for nobody. A throw is nobody too; nobody decides nothing.
   */
  readonly person: PersonLookup;
  /** The Web API's base URL; `https://slack.com/api/` by default (tests point it at a fake). */
  readonly slackApiUrl?: string;
  /** The language of the messages and modals; the registry's by default. */
  readonly locale?: Locale;
  /** The clock request timestamps are checked against (ms since the epoch). */
  readonly now?: () => number;
}

/** A Slack channel for the registry's `notify.to`, and the handler of Slack's interactivity Request URL. */
export interface SlackApprovals {
  /** Posts each new confirmation with Approve / Reject (and Edit), and updates it once decided. */
  readonly notifier: Notifier;
  /** The interactivity Request URL's handler: verifies, answers at once, then decides through the registry. */
  fetch(request: Request): Promise<Response>;
}

/**
 * Approvals in Slack, with buttons. `notifier` posts a Block Kit card for every new confirmation —
 * title, effect, the payload's fields, note, links, expiry, what the rules ask — with Approve, Reject
 * (a modal asks why) and, for an editable tool, Edit (a modal checked by the payload schema). `fetch`
 * takes the clicks: it verifies Slack's signature (HMAC-SHA256 with the signing secret, five minutes,
 * replays refused), maps the Slack user to a person with `person`, and decides with
 * `registry.confirm` / `registry.reject` — the one check list: four eyes, the rules' approvals and
 * approver flags, the digest shown on the buttons, the expiry. A send held for its undo window
 * (`holdMs`) says when it goes and shows Undo, which is `registry.cancel` as that person (only someone
 * who approved it may). After every decision, from anywhere, the message says who decided what
 * (`chat.update`).
 *
 * The message of a confirmation is found again through an in-process map of what this instance
 * posted or saw clicked, and otherwise through the confirmation id in the message's metadata
 * (`event_type: 'graded_tools_confirmation'`) among the channel's latest 200 messages
 * (`conversations.history`, `include_all_metadata`): instances sharing a store update each other's
 * messages; an older message is not updated. Decisions and updates run after Slack got its answer,
 * in this process: on a platform that freezes a request's work once answered, keep the process alive.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { slackApprovals } from 'graded-tools/slack';
 *
 * declare const directory: { bySlackId(id: string): Promise<{ id: string; name: string } | undefined> };
 *
 * const slack = slackApprovals({
 *   registry: () => registry, // made below, with slack.notifier among its channels
 *   signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
 *   botToken: process.env.SLACK_BOT_TOKEN ?? '',
 *   channel: 'C0APPROVERS',
 *   person: async (slackUserId) => directory.bySlackId(slackUserId),
 * });
 * const registry = new ToolRegistry({ notify: { to: [slack.notifier] } });
 * // Slack's interactivity Request URL, e.g. with Hono: app.post('/slack/interactivity', (c) => slack.fetch(c.req.raw));
 * const answer = await slack.fetch(new Request('https://desk.example/slack/interactivity', { method: 'POST' }));
 * console.log(answer.status); // 401: not signed by Slack
 * ```
 */
export function slackApprovals(options: SlackApprovalsOptions): SlackApprovals {
  const settings = readOptions(options);
  const { registry } = settings;
  const locale = (): Locale => settings.locale ?? registryLocale(registry());
  const api = webApi(settings.botToken, settings.slackApiUrl);
  const people = new People(settings.person);
  const locator = new MessageLocator(api, settings.channel);
  const messages = new ApprovalMessages({
    registry,
    api,
    locator,
    people,
    channel: settings.channel,
    locale,
  });
  const decisions = new SlackDecisions({ registry, people, messages, locator, api, locale });
  const interactivity = new SlackInteractivity({
    signingSecret: settings.signingSecret,
    now: settings.now,
    decisions,
  });
  return {
    notifier: approvalsNotifier(messages),
    fetch: (request) => interactivity.fetch(request),
  };
}

interface Settings {
  readonly registry: () => SlackRegistry;
  readonly signingSecret: string;
  readonly botToken: string;
  readonly channel: string;
  readonly person: PersonLookup;
  readonly slackApiUrl: string | undefined;
  readonly locale: Locale | undefined;
  readonly now: () => number;
}

/** Every option read once, here; a mistake throws `ToolDefinitionError` (`INVALID_OPTION`) saying which. */
function readOptions(options: SlackApprovalsOptions): Settings {
  const problem = (text: string) => new ToolDefinitionError('INVALID_OPTION', '', `slackApprovals: ${text}`);
  if (typeof options !== 'object' || options === null) throw problem('pass an options object');
  const { registry, signingSecret, botToken, channel, person, slackApiUrl, locale, now } = options;
  const text = (value: unknown, name: string) => {
    if (typeof value !== 'string' || value.trim() === '')
      throw problem(`\`${name}\` must be a non-empty string`);
    return value;
  };
  if (typeof registry !== 'function' && (typeof registry !== 'object' || registry === null))
    throw problem('`registry` must be a ToolRegistry or a function returning one');
  if (typeof person !== 'function') throw problem('`person` must be a function of the Slack user id');
  if (slackApiUrl !== undefined && !/^https?:\/\//.test(String(slackApiUrl)))
    throw problem('`slackApiUrl` must be an http(s) URL');
  if (locale !== undefined && locale !== 'en' && locale !== 'zh-CN')
    throw problem("`locale` must be 'en' or 'zh-CN'");
  if (now !== undefined && typeof now !== 'function') throw problem('`now` must be a function returning ms');
  return {
    registry: typeof registry === 'function' ? registry : () => registry,
    signingSecret: text(signingSecret, 'signingSecret'),
    botToken: text(botToken, 'botToken'),
    channel: text(channel, 'channel'),
    person,
    slackApiUrl,
    locale,
    now: now ?? Date.now,
  };
}

function registryLocale(registry: SlackRegistry): Locale {
  try {
    return registry.locale === 'zh-CN' ? 'zh-CN' : 'en';
  } catch {
    return 'en';
  }
}
