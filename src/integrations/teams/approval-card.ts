import { editedFields } from '../../confirm/reading/edited-fields.js';
import { describeEffect } from '../../confirm/reading/effect-text.js';
import type { ConfirmationToolView } from '../../confirm/types.js';
import type { Confirmation } from '../../confirmation.js';
import { payloadLabels } from '../../console/payload-labels.js';
import { alikeText } from '../../messages/alike-words.js';
import { gradeOf } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import { type LimitState, limitLines } from '../../messages/limit-words.js';
import { passkeyRequiredText, requiresPasskey } from '../../messages/passkey-words.js';
import { approveCountText, quorumSentence } from '../../messages/quorum-words.js';
import { originsText } from '../../origins/origin-words.js';
import { titledOrigins, titledValueOrigins } from '../../origins/read-origins.js';
import { isRecord } from '../../util/is-record.js';
import { actionData, VERBS } from './action-data.js';
import {
  adaptiveCard,
  buttons,
  type Card,
  type CardAction,
  type CardElement,
  cardDateTime,
  cardTime,
  executeAction,
  openUrlAction,
  ownText,
  plainText,
  section,
  textBox,
} from './card-elements.js';
import { holdText, joinNames, type TeamsWords, teamsWords } from './teams-words.js';
import { linkUrl } from './web-url.js';

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
  /** Where the call's limits stand, for a pending card (read, never counted). */
  readonly limits?: readonly LimitState[] | undefined;
}

/** The id of the reject reason's input: its value arrives in the action's data. */
export const REASON_INPUT = 'graded_tools_reason';

/** A payload gets at most this many fields and UTF-8 bytes on a card (Teams takes about 28 KB a message). */
const PAYLOAD_FIELDS = 40;
const PAYLOAD_BYTES = 14_000;

/**
 * The Adaptive Card of one confirmation: the tool's title and effect, every top-level field of the
 * payload as written (never Markdown), the agent's note, reference and links, where each destination
 * came from, where the limits stand, what the rules ask, who asked and when it expires, and — while
 * pending — Approve (with the quorum count, or the undo window) and Reject with an optional reason.
 * A card that cannot show the whole payload has no Approve: it says so and links to the console. Once
 * decided it says who decided what; a held send says when it goes, with Undo until then.
 */
export function approvalCard(input: CardInput): Card {
  const { confirmation: c, tool, nameOf, locale } = input;
  const words = teamsWords(locale, gradeOf(c, tool));
  const title = tool?.title ?? c.tool;
  const effect = tool?.effect === undefined ? undefined : describeEffect(tool.effect, c.payload);
  const body: CardElement[] = [plainText([[title, { weight: 'Bolder', size: 'Large' }]])];
  if (effect !== undefined && effect !== '') body.push(plainText([effect]));
  const payload = payloadElements(c.payload, payloadLabels(tool?.payloadSchema, locale), words);
  body.push(...payload.elements);
  const link = linkUrl(input.consoleLink);
  if (!payload.isWhole && c.status === 'pending')
    body.push(
      ownText(`⚠ ${words.tooLongForTeams(link !== undefined)}`, { color: 'Attention', weight: 'Bolder' }),
    );
  if (c.alike !== undefined && c.status === 'pending')
    body.push(plainText([[`⚠ ${alikeText(title, c.alike, locale)}`, { weight: 'Bolder' }]]));
  if (c.note !== undefined)
    body.push(plainText([[`${words.why}: `, { weight: 'Bolder' }], c.note], { separator: true }));
  if (c.ref !== undefined) body.push(plainText([[`${words.ref}: `, { weight: 'Bolder' }], c.ref]));
  body.push(...originsElements(input));
  if (c.status === 'pending')
    for (const line of limitLines(input.limits ?? [], locale))
      body.push(plainText([[line, { isSubtle: true }]]));
  const actor = c.actor === undefined ? words.unknownActor : nameOf(c.actor);
  body.push(
    plainText([[`${words.askedBy}: `, { weight: 'Bolder' }], actor, ` · ${c.id}`], { separator: true }),
    ownText(`**${words.expires}:** ${cardDateTime(c.expiresAt)}`, { isSubtle: true }),
  );
  const standing = standingLine(c, words, nameOf);
  if (standing !== undefined) body.push(standing);
  const links = (c.links ?? []).flatMap(({ label, url }, i) => {
    const href = linkUrl(url);
    return href === undefined || i >= 5 ? [] : [openUrlAction(label, href)];
  });
  if (links.length > 0) body.push(buttons(links));
  const data = actionData({ id: c.id, digest: c.digest });
  const actions: CardAction[] = [];
  // A passkey is given only in the console: no Approve here, and the card says why before Reject.
  const passkey = requiresPasskey(c);
  if (passkey && c.status === 'pending')
    body.push(ownText(passkeyRequiredText(locale), { weight: 'Bolder' }));
  if (c.status === 'pending') {
    if (payload.isWhole && !passkey) {
      // The undo window is said before the buttons, not only on one: a screen reader reads it first.
      if (tool?.holdMs !== undefined && tool.holdMs > 0)
        body.push(ownText(words.holdLine(holdText(tool.holdMs, locale)), { weight: 'Bolder' }));
      body.push(ownText(words.approveSends, { isSubtle: true }));
      actions.push(executeAction(approveTitle(c, tool, words, locale), VERBS.approve, data, 'positive'));
    }
    body.push(textBox(REASON_INPUT, words.rejectReason, 500));
    actions.push(executeAction(words.reject, VERBS.reject, data, 'destructive'));
    if ((!payload.isWhole || passkey) && link !== undefined)
      actions.push(openUrlAction(words.openInConsole, link));
  }
  if (c.status === 'scheduled') actions.push(executeAction(words.undo, VERBS.cancel, data));
  return adaptiveCard(body, actions, executeAction(words.refresh, VERBS.refresh, data));
}

/**
 * Whether the card of this confirmation shows its whole payload exactly: every top-level field,
 * within the card's budget. The card offers Approve only then, and an Approve is refused otherwise.
 */
export function showsWholePayload(input: Pick<CardInput, 'confirmation' | 'tool' | 'locale'>): boolean {
  const labels = payloadLabels(input.tool?.payloadSchema, input.locale);
  return payloadElements(input.confirmation.payload, labels, teamsWords(input.locale)).isWhole;
}

/** The payload's fields as a card shows them, and whether they are all of it (a bundle's steps too). */
export function payloadElements(
  payload: unknown,
  labels: Readonly<Record<string, string>>,
  words: TeamsWords,
  budget = { fields: PAYLOAD_FIELDS, bytes: PAYLOAD_BYTES },
): { elements: CardElement[]; isWhole: boolean; bytes: number } {
  const entries: [string, unknown][] = isRecord(payload)
    ? Object.entries(payload)
    : payload === undefined
      ? []
      : [['', payload]];
  const elements: CardElement[] = [ownText(words.payload, { weight: 'Bolder' })];
  const encoder = new TextEncoder();
  let bytes = 0;
  let shown = 0;
  for (const [key, value] of entries) {
    const label = key === '' ? '' : (labels[key] ?? key);
    const text = valueText(value);
    const cost = encoder.encode(label).byteLength + encoder.encode(text).byteLength + 80;
    if (shown >= budget.fields || bytes + cost > budget.bytes) break;
    bytes += cost;
    shown += 1;
    elements.push(
      plainText(
        label === ''
          ? [text === '' ? ' ' : text]
          : [[`${label}: `, { weight: 'Bolder' }], text === '' ? ' ' : text],
        {
          spacing: 'Small',
        },
      ),
    );
  }
  const hidden = entries.length - shown;
  if (hidden > 0) elements.push(ownText(words.moreFields(hidden), { isSubtle: true }));
  return { elements, isWhole: hidden === 0, bytes };
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** "Approve", "Approve (1 of 2)" for a quorum, "Approve — sends 30 s later unless undone" for a held send. */
function approveTitle(
  c: Confirmation,
  tool: ConfirmationToolView | undefined,
  words: TeamsWords,
  locale: Locale,
): string {
  const needed = c.requires?.approvals ?? 1;
  if (needed > 1) {
    const so = new Set((c.approvals ?? []).filter((a) => a.digest === c.digest).map((a) => a.by)).size;
    return approveCountText(locale, Math.min(so + 1, needed), needed);
  }
  if (tool?.holdMs !== undefined && tool.holdMs > 0) return words.approveHeld(holdText(tool.holdMs, locale));
  return words.approve;
}

/**
 * Where each destination came from, in the approver's words, per value: an unvouched line starts
 * with "⚠ Check" (words, not colour alone); outside a run, that it was not recorded.
 */
function originsElements(input: CardInput): CardElement[] {
  const { confirmation: c } = input;
  const titleOf = (tool: string) => input.titleOf?.(tool);
  const text = originsText(
    {
      origins: titledOrigins(c.origins, titleOf),
      originsOutsideRun: c.originsOutsideRun === true,
      editedFields: editedFields(c),
      originValues: titledValueOrigins(c.originValues, titleOf),
    },
    input.locale,
  );
  if (text === undefined) return [];
  if (text.notRecorded !== undefined)
    return [plainText([[`${text.heading}: `, { weight: 'Bolder' }], text.notRecorded], { separator: true })];
  const elements: CardElement[] = [plainText([[text.heading, { weight: 'Bolder' }]], { separator: true })];
  for (const line of text.lines)
    elements.push(
      line.unvouched
        ? plainText([[`⚠ ${text.check}`, { weight: 'Bolder' }], ` — ${line.field}: ${line.text}`], {
            spacing: 'None',
          })
        : plainText([`• ${line.field}: ${line.text}`], { spacing: 'None' }),
    );
  if (text.caution !== undefined) elements.push(plainText([[text.caution, { isSubtle: true }]]));
  return elements;
}

/** What the rules ask while pending, or who decided what once decided. */
function standingLine(
  c: Confirmation,
  words: TeamsWords,
  nameOf: (id: string) => string,
): CardElement | undefined {
  const last = c.history.at(-1);
  const names = (ids: readonly string[]) => joinNames(words, ids.map(nameOf));
  const approved = () => words.approvedBy(names(approvers(c)));
  const by = last?.by === undefined ? [] : [last.by];
  const line = (text: string, color?: 'Attention' | 'Good') =>
    plainText([[text, { weight: 'Bolder', ...(color === undefined ? {} : { color }) }]], { separator: true });
  switch (c.status) {
    case 'pending': {
      const requires = c.requires;
      if (requires === undefined) return undefined;
      const so = [...new Set((c.approvals ?? []).filter((a) => a.digest === c.digest).map((a) => a.by))];
      const asked = { needed: requires.approvals, flags: requires.approverFlags, approved: so.length };
      const said = quorumSentence(words.lang, asked, so.map(nameOf));
      return said === undefined ? undefined : line(said);
    }
    case 'scheduled':
      return section([
        plainText([[approved(), { weight: 'Bolder' }]]),
        // A time the reader's Teams draws in their own zone: only our own words meet a TextBlock.
        ownText(words.sendsAt(c.deliverAt === undefined ? '' : cardTime(c.deliverAt)), {
          weight: 'Bolder',
        }),
      ]);
    case 'cancelled':
      return line(words.cancelledBy(names(by), last?.note));
    case 'delivering':
      return line(`${approved()} — ${words.sending}`);
    case 'delivered':
      return last?.by !== undefined && c.history.some((h) => h.status === 'unknown' || h.status === 'failed')
        ? line(words.markedDelivered(names([last.by])), 'Good')
        : line(`${approved()} — ${words.sent}`, 'Good');
    case 'failed':
      return line(`${approved()} — ${words.failed(c.error ?? last?.note ?? '')}`, 'Attention');
    case 'unknown':
      return line(`${approved()} — ${words.unknown(c.error ?? last?.note ?? '')}`);
    case 'rejected':
      return line(words.rejectedBy(names(by), last?.note), 'Attention');
    case 'expired':
      return line(words.expired);
    default:
      return undefined;
  }
}

/** Who approved the payload as it is: the short approvals of a quorum, then the one who claimed it. */
function approvers(c: Confirmation): string[] {
  const ids = (c.approvals ?? []).filter((a) => a.digest === c.digest).map((a) => a.by);
  const claim = c.history.findLast(
    (entry) => (entry.status === 'delivering' || entry.status === 'scheduled') && entry.by !== undefined,
  );
  if (claim?.by !== undefined) ids.push(claim.by);
  return [...new Set(ids)];
}
