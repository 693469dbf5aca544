import { type OriginsText, originsText } from '../origins/origin-words.js';
import { chunkLines } from '../util/chunk-lines.js';
import { truncateText } from '../util/truncate.js';
import type { HttpChannelOptions } from './http-attempt.js';
import { httpNotifier } from './http-notifier.js';
import { type NoticeData, noticeData, payloadText, webLink } from './notice-data.js';
import { aboutRows, formatUtc, noticeWords, requirementLine } from './notice-text.js';
import type { ApprovalNotice, Notifier } from './notifier.js';

/** Where to post Slack messages. */
export interface SlackNotifierOptions extends HttpChannelOptions {
  /** The incoming webhook's URL (`https://hooks.slack.com/services/…`). */
  readonly webhookUrl: string;
  /** Show the payload in the message when the notice carries one. Default `false`. */
  readonly includePayload?: boolean;
}

/** A Slack message: Block Kit blocks and the plain-text fallback notifications show. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: readonly Record<string, unknown>[];
}

/**
 * A channel that posts each notice to a Slack incoming webhook as a Block Kit message: a header with
 * the tool's title, who asked, when it expires (in each reader's own time zone), and a button to that
 * confirmation in the console. Retries as the webhook channel does. No payload unless `includePayload`.
 *
 * @example
 * ```ts
 * import { slackNotifier } from 'graded-tools/notify';
 *
 * const slack = slackNotifier({ webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX' });
 * console.log(slack.channel); // 'slack'
 * ```
 */
export function slackNotifier(options: SlackNotifierOptions): Notifier {
  return httpNotifier({
    factory: 'slackNotifier',
    channel: 'slack',
    urlOption: 'webhookUrl',
    url: options.webhookUrl,
    options,
    body: (notice, includePayload) => JSON.stringify(slackMessage(notice, includePayload)),
  });
}

/** The Block Kit message for one notice. */
export function slackMessage(notice: ApprovalNotice, includePayload: boolean): SlackMessage {
  const data = noticeData(notice, includePayload);
  const words = noticeWords(notice.locale, notice.confirmation.sideEffect);
  const { confirmation: c } = data;
  const headline = words.headline(data.kind, c.title, c.status);
  const actor = c.actor ?? words.labels.unknownActor;
  const link = webLink(data.link);
  const payload = payloadText(data, 2800);
  // What the rules ask of the approvers, right under why this arrived: who may act on it.
  const needs = requirementLine(data, words.lang);
  const intro = escapeMrkdwn(words.intro(data.kind, data.escalation?.afterMs));
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: truncateText(headline, 150), emoji: false } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: needs === undefined ? intro : `${intro}\n*${escapeMrkdwn(needs)}*` },
      fields: [
        field(words.labels.tool, escapeMrkdwn(`${c.title} (${c.tool})`)),
        field(words.labels.askedBy, escapeMrkdwn(actor)),
        field(words.labels.expires, slackDate(c.expiresAt)),
        field(words.labels.status, escapeMrkdwn(words.status[c.status] ?? String(c.status))),
      ],
    },
  ];
  const about = aboutRows(data, words);
  if (about.length > 0)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: truncateText(
          about.map(([label, value]) => `*${escapeMrkdwn(label)}*\n${escapeMrkdwn(value)}`).join('\n'),
          3000,
        ),
      },
    });
  for (const text of originsSections(c, notice.locale))
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text } });
  if (payload !== undefined)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `*${words.labels.payload}*\n\`\`\`${codeBlock(payload)}\`\`\`` },
    });
  // The asker's links as buttons: a button's label is plain text, so no label can become markup.
  const buttons: Record<string, unknown>[] = (c.links ?? []).flatMap(({ label, url }, i) => {
    const href = webLink(url);
    if (href === undefined || href.length > 3000) return [];
    return [
      {
        type: 'button',
        text: { type: 'plain_text', text: truncateText(label, 75) },
        url: href,
        action_id: `asker_link_${i}`,
      },
    ];
  });
  if (link !== undefined)
    buttons.unshift({
      type: 'button',
      text: { type: 'plain_text', text: words.labels.open },
      url: link,
      action_id: 'open_confirmation',
      style: 'primary',
    });
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: escapeMrkdwn(`${words.labels.confirmation}: ${c.id}`) }],
  });
  const asked = `${actor}, ${formatUtc(c.expiresAt)}`;
  const line = `${headline} (${needs === undefined ? asked : `${asked}; ${needs}`})`;
  return { text: escapeMrkdwn(link === undefined ? line : `${line} ${link}`), blocks };
}

/** The most sections the origins take: with the others, within Block Kit's 50 blocks. */
const MAX_ORIGIN_SECTIONS = 12;

/**
 * The origins in sections of at most 3,000 characters, every line shown; past the room there is,
 * one line per field instead (each still marked when any value of it is unvouched).
 */
function originsSections(c: NoticeData['confirmation'], locale: unknown): string[] {
  const perValue = chunkLines(originsMrkdwn(originsText(c, locale)), 3000);
  if (perValue.length <= MAX_ORIGIN_SECTIONS) return perValue;
  const perField = {
    origins: c.origins,
    originsOutsideRun: c.originsOutsideRun,
    editedFields: c.editedFields,
  };
  return chunkLines(originsMrkdwn(originsText(perField, locale)), 3000);
}

/**
 * Where each destination came from, one line per value: an unvouched line starts with ":warning:
 * *Check*", in words; outside a run, the heading says it was not recorded.
 */
function originsMrkdwn(text: OriginsText | undefined): string[] {
  if (text === undefined) return [];
  const { heading, check, caution, lines, notRecorded } = text;
  if (notRecorded !== undefined) return [`*${escapeMrkdwn(heading)}:* ${escapeMrkdwn(notRecorded)}`];
  const said = lines.map((line) =>
    line.unvouched
      ? `:warning: *${escapeMrkdwn(check)}* — ${escapeMrkdwn(`${line.field}: ${line.text}`)}`
      : `• ${escapeMrkdwn(`${line.field}: ${line.text}`)}`,
  );
  return [
    `*${escapeMrkdwn(heading)}*`,
    ...said,
    ...(caution === undefined ? [] : [`_${escapeMrkdwn(caution)}_`]),
  ];
}

function field(label: string, value: string): Record<string, unknown> {
  return { type: 'mrkdwn', text: truncateText(`*${escapeMrkdwn(label)}*\n${value}`, 2000) };
}

/** Slack shows `<!date^…>` in each reader's time zone; the text after `|` is for clients that cannot. */
function slackDate(iso: string): string {
  const seconds = Math.floor(new Date(iso).getTime() / 1000);
  const fallback = escapeMrkdwn(formatUtc(iso));
  if (!Number.isFinite(seconds)) return fallback;
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallback}>`;
}

/** Slack's own rule for mrkdwn: `&`, `<` and `>` escaped, so no value becomes a mention or a link. */
function escapeMrkdwn(text: string): string {
  return String(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Escaped, and a run of backticks inside cannot close the code block early. */
function codeBlock(text: string): string {
  return escapeMrkdwn(text).replaceAll('```', '`\u200b`\u200b`');
}
