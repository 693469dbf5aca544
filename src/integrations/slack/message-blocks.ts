import { editedFields } from '../../confirm/reading/edited-fields.js';
import { describeEffect } from '../../confirm/reading/effect-text.js';
import type { ConfirmationToolView } from '../../confirm/types.js';
import type { Confirmation } from '../../confirmation.js';
import { payloadLabels } from '../../console/payload-labels.js';
import { alikeText } from '../../messages/alike-words.js';
import { gradeOf } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import { quorumSentence } from '../../messages/quorum-words.js';
import { type OriginsText, originsText } from '../../origins/origin-words.js';
import { titledOrigins, titledValueOrigins } from '../../origins/read-origins.js';
import { chunkLines } from '../../util/chunk-lines.js';
import { isRecord } from '../../util/is-record.js';
import { ACTIONS, buttonValue, OPEN_CONSOLE_ACTION } from './action-value.js';
import { cut, escapedWithin, escapeMrkdwn, slackDate, slackTime, webUrl } from './mrkdwn.js';
import { joinNames, type SlackWords, slackWords } from './slack-words.js';

/** One Block Kit block, as JSON. */
export type Block = Record<string, unknown>;

/** A message's blocks and the plain text notifications and old clients show. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: readonly Block[];
}

/** What the card of one confirmation is drawn from. */
export interface CardInput {
  /** The confirmation as the store holds it now. */
  readonly confirmation: Confirmation;
  /** Its tool as a confirmation screen shows it (`undefined` once unregistered). */
  readonly tool: ConfirmationToolView | undefined;
  readonly locale: Locale;
  /** A person's name for an id (an approver's, the asker's); the id itself when unknown. */
  readonly nameOf: (id: string) => string;
  /** This confirmation's page in the approvals console (`notify.consoleUrl`), when there is one. */
  readonly consoleLink?: string | undefined;
  /** Any registered tool's title, for the tools named in `origins`; the tool's name when none. */
  readonly titleOf?: ((tool: string) => string | undefined) | undefined;
}

/** What decides whether a card shows the whole payload: the same inputs the card is drawn from. */
export type WholeInput = Pick<CardInput, 'confirmation' | 'tool' | 'locale'>;

/** Block Kit's limits that a card could reach. */
export const BLOCK_LIMITS = {
  blocks: 50,
  header: 150,
  sectionText: 3000,
  fieldText: 2000,
  fields: 10,
  buttonText: 75,
  actions: 25,
} as const;

/** The payload gets at most this many blocks and characters; the rest is counted, not shown. */
const PAYLOAD_BLOCKS = 20;
const PAYLOAD_CHARS = 12_000;
/** A value this short, on one line, goes into a two-column `fields` grid; longer ones get a section. */
const SHORT_VALUE = 120;

/**
 * The card of one confirmation, for `chat.postMessage` and every `chat.update` after it: the tool's
 * title and effect, the payload's top-level fields (escaped: no value becomes a mention or a link),
 * why and who asked, when it expires, what the rules ask, and — while pending — Approve / Reject (and
 * Edit for an editable tool). A card that cannot show the whole payload exactly offers no Approve and
 * no Edit: it says so and links to the console (Reject stays). Once decided, the buttons give way to
 * who decided what; a send held for its undo window says when it goes and offers Undo until then.
 */
export function approvalMessage(input: CardInput): SlackMessage {
  const { confirmation: c, tool, nameOf } = input;
  const words = slackWords(input.locale, gradeOf(c, tool));
  const title = tool?.title ?? c.tool;
  const effect = tool?.effect === undefined ? undefined : describeEffect(tool.effect, c.payload);
  const blocks: Block[] = [{ type: 'header', text: plain(title, BLOCK_LIMITS.header) }];
  if (effect !== undefined && effect !== '') blocks.push(section(escapedWithin(effect, 3000)));
  const payload = payloadView(input);
  blocks.push(...payload.blocks);
  const link = input.consoleLink === undefined ? undefined : webUrl(input.consoleLink);
  if (!payload.isWhole && c.status === 'pending')
    blocks.push(section(`:warning: ${escapeMrkdwn(words.tooLongForSlack(link !== undefined))}`));
  // Another pending one of this tool has the same payload: a double send would be one click away.
  if (c.alike !== undefined && c.status === 'pending')
    blocks.push(section(`:warning: ${escapedWithin(alikeText(title, c.alike.id, input.locale), 3000)}`));
  const about = aboutText(c, words);
  if (about !== undefined) blocks.push(section(about));
  for (const origins of originsBlocks(input)) blocks.push(section(origins));
  const links = linkButtons(c);
  if (links.length > 0) blocks.push({ type: 'actions', block_id: 'asker_links', elements: links });
  const actor = c.actor === undefined ? words.unknownActor : nameOf(c.actor);
  blocks.push({
    type: 'context',
    elements: [
      mrkdwn(
        `*${words.askedBy}:* ${escapedWithin(actor, 300)}  ·  *${words.expires}:* ${slackDate(c.expiresAt)}  ·  ${escapedWithin(c.id, 200)}`,
      ),
    ],
  });
  const standing = standingLine(c, words, nameOf);
  if (standing !== undefined) blocks.push(section(standing));
  if (c.status === 'pending')
    blocks.push(payload.isWhole ? decisionButtons(c, tool, words) : rejectAndConsoleButtons(c, link, words));
  if (c.status === 'scheduled') blocks.push(undoButton(c, words));
  const status = standing === undefined ? '' : ` — ${standing.replace(/^:[a-z_]+: /, '')}`;
  return { text: cut(`${title}${effect ? `: ${effect}` : ''}${status}`, 3000), blocks };
}

/**
 * Whether the card of this confirmation shows its whole payload exactly: every top-level field, no
 * value or name cut. The card offers Approve only then, and a click on Approve is refused otherwise.
 */
export function showsWholePayload(input: WholeInput): boolean {
  return payloadView(input).isWhole;
}

/** A payload's blocks as a card shows them, and whether they show all of it, uncut (a bundle's steps). */
export function payloadBlocksOf(
  payload: unknown,
  labels: Record<string, string>,
  locale: Locale,
): { blocks: Block[]; isWhole: boolean } {
  return payloadBlocks(payload, labels, slackWords(locale));
}

/** The payload's blocks on the card, and whether they show all of it, uncut. */
function payloadView(input: WholeInput): { blocks: Block[]; isWhole: boolean } {
  const words = slackWords(input.locale);
  const labels = payloadLabels(input.tool?.payloadSchema, input.locale);
  return payloadBlocks(input.confirmation.payload, labels, words);
}

/** The payload's top-level fields: short ones in a grid, long ones each in a section, within budget. */
function payloadBlocks(
  payload: unknown,
  labels: Record<string, string>,
  words: SlackWords,
): { blocks: Block[]; isWhole: boolean } {
  const entries: [string, unknown][] = isRecord(payload)
    ? Object.entries(payload)
    : payload === undefined
      ? []
      : [['', payload]];
  const blocks: Block[] = [];
  let grid: Block[] = [];
  let used = 0;
  let shown = 0;
  let isWhole = true;
  // The text escaped within `max`; a cut makes the card not whole.
  const uncut = (text: string, max: number) => {
    const escaped = escapedWithin(text, max);
    if (escaped !== escapeMrkdwn(text)) isWhole = false;
    return escaped;
  };
  const flush = () => {
    if (grid.length > 0) blocks.push({ type: 'section', fields: grid });
    grid = [];
  };
  for (const [key, value] of entries) {
    const text = valueText(value);
    const label = key === '' ? '' : `*${uncut(labels[key] ?? key, 200)}*\n`;
    const isShort = text.length <= SHORT_VALUE && !text.includes('\n');
    const cost = Math.min(text.length, isShort ? SHORT_VALUE : 2800) + label.length;
    // The blocks there would be with this field: a short one joins the grid (one block, open or new).
    const blocksNeeded = blocks.length + 1 + (!isShort && grid.length > 0 ? 1 : 0);
    // One block is kept for "…and N more fields".
    if (used + cost > PAYLOAD_CHARS || blocksNeeded > PAYLOAD_BLOCKS - 1) break;
    used += cost;
    shown += 1;
    if (isShort) {
      grid.push(mrkdwn(`${label}${uncut(text === '' ? ' ' : text, SHORT_VALUE * 5)}`));
      if (grid.length === BLOCK_LIMITS.fields) flush();
    } else {
      flush();
      blocks.push(section(`${label}${uncut(text, BLOCK_LIMITS.sectionText - label.length)}`));
    }
  }
  flush();
  const hidden = entries.length - shown;
  if (hidden > 0) {
    isWhole = false;
    blocks.push({ type: 'context', elements: [mrkdwn(escapeMrkdwn(words.moreFields(hidden)))] });
  }
  return { blocks, isWhole };
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The asker's note and reference. */
function aboutText(c: Confirmation, words: SlackWords): string | undefined {
  const rows: string[] = [];
  if (c.note !== undefined) rows.push(`*${words.why}*\n${escapedWithin(c.note, 2400)}`);
  if (c.ref !== undefined) rows.push(`*${words.ref}:* ${escapedWithin(c.ref, 300)}`);
  return rows.length === 0 ? undefined : rows.join('\n');
}

/**
 * Where each destination came from, in the approver's words, per value: an unvouched line starts with
 * ":warning: *Check*" (words, not colour alone), and the reason to check follows the lines; outside a
 * run, that it was not recorded.
 */
function originsBlocks(input: CardInput): string[] {
  const { confirmation: c } = input;
  const titleOf = (tool: string) => input.titleOf?.(tool);
  const origins = titledOrigins(c.origins, titleOf);
  const said = { origins, originsOutsideRun: c.originsOutsideRun === true, editedFields: editedFields(c) };
  const perValue = originsSections(
    originsText({ ...said, originValues: titledValueOrigins(c.originValues, titleOf) }, input.locale),
  );
  // Past Block Kit's room, one line per field (each still marked when any value of it is unvouched).
  return perValue.length <= MAX_ORIGIN_SECTIONS ? perValue : originsSections(originsText(said, input.locale));
}

/** The most sections the origins take on a card: with the payload's, within Block Kit's 50 blocks. */
const MAX_ORIGIN_SECTIONS = 12;

function originsSections(text: OriginsText | undefined): string[] {
  if (text === undefined) return [];
  if (text.notRecorded !== undefined)
    return [`*${escapeMrkdwn(text.heading)}:* ${escapeMrkdwn(text.notRecorded)}`];
  const lines = text.lines.map((line) => {
    const said = escapedWithin(`${line.field}: ${line.text}`, 600);
    return line.unvouched ? `:warning: *${escapeMrkdwn(text.check)}* — ${said}` : `• ${said}`;
  });
  const caution = text.caution === undefined ? [] : [`_${escapeMrkdwn(text.caution)}_`];
  // Every line is shown, in as many sections as it takes: a cut-off line could be one marked Check.
  return chunkLines([`*${escapeMrkdwn(text.heading)}*`, ...lines, ...caution], 3000);
}

/** The asker's links as buttons: a label is plain text, and only an http(s) URL becomes a `url`. */
function linkButtons(c: Confirmation): Block[] {
  return (c.links ?? []).flatMap(({ label, url }, i) => {
    const href = webUrl(url);
    return href === undefined || i >= 10
      ? []
      : [
          {
            type: 'button',
            action_id: `asker_link_${i}`,
            text: plain(label, BLOCK_LIMITS.buttonText),
            url: href,
          },
        ];
  });
}

/** What the rules ask while pending, or who decided what once decided. */
function standingLine(
  c: Confirmation,
  words: SlackWords,
  nameOf: (id: string) => string,
): string | undefined {
  const last = c.history.at(-1);
  const names = (ids: readonly string[]) => escapedWithin(joinNames(words, ids.map(nameOf)), 1000);
  const approved = () => words.approvedBy(names(approvers(c)));
  const note = (text: string | undefined) => escapedWithin(text ?? '', 1500);
  switch (c.status) {
    case 'pending': {
      const requires = c.requires;
      if (requires === undefined) return undefined;
      const so = (c.approvals ?? []).filter((a) => a.digest === c.digest).map((a) => a.by);
      const asked = { needed: requires.approvals, flags: requires.approverFlags, approved: so.length };
      const said = quorumSentence(words.lang, asked, so.map(nameOf));
      return said === undefined ? undefined : `:hourglass_flowing_sand: ${escapedWithin(said, 2000)}`;
    }
    case 'scheduled':
      return `:clock3: ${approved()} — ${words.sendsAt(c.deliverAt === undefined ? '' : slackTime(c.deliverAt))}`;
    case 'cancelled':
      return `:leftwards_arrow_with_hook: ${words.cancelledBy(names(last?.by === undefined ? [] : [last.by]), last?.note === undefined ? undefined : note(last.note))}`;
    case 'delivering':
      return `:outbox_tray: ${approved()} — ${words.sending}`;
    case 'delivered':
      return last?.by !== undefined && c.history.some((h) => h.status === 'unknown' || h.status === 'failed')
        ? `:white_check_mark: ${words.markedDelivered(names([last.by]))}`
        : `:white_check_mark: ${approved()} — ${words.sent}`;
    case 'failed':
      return `:warning: ${approved()} — ${words.failed(note(c.error ?? last?.note))}`;
    case 'unknown':
      return `:grey_question: ${approved()} — ${words.unknown(note(c.error ?? last?.note))}`;
    case 'rejected':
      return `:x: ${words.rejectedBy(names(last?.by === undefined ? [] : [last.by]), last?.note === undefined ? undefined : note(last.note))}`;
    case 'expired':
      return `:hourglass: ${escapeMrkdwn(words.expired)}`;
    default:
      return undefined;
  }
}

/**
 * Who approved the payload as it is: the short approvals of a quorum, then the one who claimed it (a
 * held send's claim is its `scheduled` step; the sweep's `delivering` after it names nobody).
 */
function approvers(c: Confirmation): string[] {
  const ids = (c.approvals ?? []).filter((a) => a.digest === c.digest).map((a) => a.by);
  const claim = c.history.findLast(
    (entry) => (entry.status === 'delivering' || entry.status === 'scheduled') && entry.by !== undefined,
  );
  if (claim?.by !== undefined) ids.push(claim.by);
  return [...new Set(ids)];
}

/** Approve (with Slack's own "are you sure?"), Reject, and Edit for a tool with editable fields. */
function decisionButtons(c: Confirmation, tool: ConfirmationToolView | undefined, words: SlackWords): Block {
  const value = buttonValue({ id: c.id, digest: c.digest });
  const elements: Block[] = [
    {
      type: 'button',
      action_id: ACTIONS.approve,
      text: plain(words.approve, BLOCK_LIMITS.buttonText),
      style: 'primary',
      value,
      confirm: {
        title: plain(words.approveConfirmTitle, 100),
        text: plain(words.approveConfirmText, 300),
        confirm: plain(words.approveAndSend, 30),
        deny: plain(words.cancel, 30),
      },
    },
    { type: 'button', action_id: ACTIONS.reject, text: plain(words.reject, 75), style: 'danger', value },
  ];
  if ((tool?.editable.length ?? 0) > 0)
    elements.push({ type: 'button', action_id: ACTIONS.edit, text: plain(words.edit, 75), value });
  return { type: 'actions', block_id: 'graded_tools_decision', elements };
}

/**
 * A card too short for its payload: Reject, and a link to the console page where the whole payload
 * can be read and approved (no link when the registry has no `notify.consoleUrl`).
 */
function rejectAndConsoleButtons(c: Confirmation, link: string | undefined, words: SlackWords): Block {
  const value = buttonValue({ id: c.id, digest: c.digest });
  const elements: Block[] = [
    { type: 'button', action_id: ACTIONS.reject, text: plain(words.reject, 75), style: 'danger', value },
  ];
  if (link !== undefined)
    elements.push({
      type: 'button',
      action_id: OPEN_CONSOLE_ACTION,
      text: plain(words.openInConsole, BLOCK_LIMITS.buttonText),
      url: link,
    });
  return { type: 'actions', block_id: 'graded_tools_decision', elements };
}

/** Undo on a held send: the registry's `cancel` decides whether this person may take it back. */
function undoButton(c: Confirmation, words: SlackWords): Block {
  const value = buttonValue({ id: c.id, digest: c.digest });
  return {
    type: 'actions',
    block_id: 'graded_tools_undo',
    elements: [{ type: 'button', action_id: ACTIONS.cancel, text: plain(words.undo, 75), value }],
  };
}

/** A plain-text object cut to `max` (plain text is never parsed for markup). */
export function plain(text: string, max: number): Block {
  return { type: 'plain_text', text: cut(text === '' ? ' ' : text, max), emoji: true };
}

function mrkdwn(text: string): Block {
  return { type: 'mrkdwn', text, verbatim: true };
}

function section(text: string): Block {
  return { type: 'section', text: mrkdwn(cut(text, BLOCK_LIMITS.sectionText)) };
}
