// The few Adaptive Card elements the cards are made of, built with Microsoft's Teams SDK card
// builders (@microsoft/teams.cards: plain classes, no dependency, nothing Node-only, so Workers too).
// Text a person or a model wrote — a payload value, a note, a name — is only ever a `TextRun` of a
// `RichTextBlock`, which Teams shows as written: no Markdown, so no value becomes a link, a mention or
// bold type.
import {
  type Action,
  ActionSet,
  AdaptiveCard,
  type CardElement,
  Container,
  ExecuteAction,
  type IAdaptiveCard,
  type IExecuteAction,
  OpenUrlAction,
  RichTextBlock,
  TextBlock,
  TextInput,
  TextRun,
} from '@microsoft/teams.cards';

export type { Action as CardAction, CardElement };
/** A whole Adaptive Card, as JSON. */
export type Card = IAdaptiveCard;

/** The Adaptive Card schema version the cards use (Teams desktop and mobile render 1.5). */
export const CARD_VERSION = '1.5';
/** The attachment's content type, and the invoke response's type for a card. */
export const CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

/**
 * Text shown as written, in one or more runs (`[text, style]`). A run without text is left out: the
 * Adaptive Cards parser drops it, and a card must read back as it was sent.
 */
export function plainText(
  runs: readonly (string | readonly [string, RunStyle])[],
  options: { readonly separator?: boolean; readonly spacing?: 'None' | 'Small' | 'Medium' } = {},
): CardElement {
  return new RichTextBlock({
    inlines: runs.flatMap((run) => {
      const [text, style]: readonly [string, RunStyle] = typeof run === 'string' ? [run, {}] : run;
      return text === '' ? [] : [new TextRun(text, { ...style })];
    }),
    ...(options.separator === true ? { separator: true } : {}),
    ...(options.spacing === undefined ? {} : { spacing: options.spacing }),
  });
}

/**
 * How a run looks: bold, attention (red), a quieter or smaller line. No Warning colour: the reference
 * host's amber fails WCAG contrast on white, so a warning is words (⚠) in bold instead.
 */
export interface RunStyle {
  readonly weight?: 'Bolder';
  readonly color?: 'Attention' | 'Good' | 'Accent';
  readonly isSubtle?: true;
  readonly size?: 'Small' | 'Large';
}

/**
 * Our own words (never a person's or a model's text) in a `TextBlock`, where Teams reads Markdown
 * and `{{DATE()}}`/`{{TIME()}}` — the only place a time is drawn in the reader's own time zone.
 */
export function ownText(
  text: string,
  options: {
    readonly size?: 'Large' | 'Medium';
    readonly weight?: 'Bolder';
    readonly color?: 'Attention';
    readonly isSubtle?: true;
  } = {},
): CardElement {
  return new TextBlock(text, { wrap: true, ...options });
}

/** Elements one under the other, set off from what is above by a line. */
export function section(items: readonly CardElement[]): CardElement {
  return new Container(...items).withSeparator(true);
}

/** A row of buttons inside the card's body. */
export function buttons(actions: readonly Action[]): CardElement {
  return new ActionSet(...actions);
}

/** A text box whose value arrives in an action's data under `id`. */
export function textBox(id: string, placeholder: string, maxLength: number): CardElement {
  return new TextInput({ id, placeholder, maxLength });
}

/** `{{DATE(…, SHORT)}} {{TIME(…)}}` for an ISO time (Adaptive Cards read RFC 3339 without fractions). */
export function cardDateTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const rfc = `${at.toISOString().slice(0, 19)}Z`;
  return `{{DATE(${rfc}, SHORT)}} {{TIME(${rfc})}}`;
}

/** `{{TIME(…)}}` for an ISO time. */
export function cardTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : `{{TIME(${at.toISOString().slice(0, 19)}Z)}}`;
}

/** A button that runs `verb` on the bot with `data` (Universal Actions). */
export function executeAction(
  title: string,
  verb: string,
  data: Record<string, unknown>,
  style?: 'positive' | 'destructive',
): IExecuteAction {
  return new ExecuteAction({
    title: cut(title, 100),
    verb,
    data,
    ...(style === undefined ? {} : { style }),
  });
}

/** A button that opens `url` in the browser. */
export function openUrlAction(title: string, url: string): Action {
  return new OpenUrlAction(url, { title: cut(title === '' ? url : title, 100) });
}

/** `text` within `max` characters, with "…" when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** A whole card: the body, its buttons, and a refresh that asks the bot for the card as it stands. */
export function adaptiveCard(
  body: readonly CardElement[],
  actions: readonly Action[],
  refresh: IExecuteAction | undefined,
): Card {
  const card = new AdaptiveCard(...body)
    .with$schema('http://adaptivecards.io/schemas/adaptive-card.json')
    .withVersion(CARD_VERSION);
  if (actions.length > 0) card.withActions(...actions);
  if (refresh !== undefined) card.withRefresh({ action: refresh });
  return card;
}
