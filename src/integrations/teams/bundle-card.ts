import type { BundleView } from '../../confirm/bundles/bundle-view.js';
import { describeEffect } from '../../confirm/reading/effect-text.js';
import type { ConfirmationToolView } from '../../confirm/types.js';
import { payloadLabels } from '../../console/payload-labels.js';
import type { Locale } from '../../messages/index.js';
import { passkeyRequiredText, requiresPasskey } from '../../messages/passkey-words.js';
import { actionData, VERBS } from './action-data.js';
import { payloadElements, REASON_INPUT } from './approval-card.js';
import {
  adaptiveCard,
  type Card,
  type CardAction,
  type CardElement,
  cardDateTime,
  executeAction,
  openUrlAction,
  ownText,
  plainText,
  section,
  textBox,
} from './card-elements.js';
import { teamsWords } from './teams-words.js';
import { linkUrl } from './web-url.js';

/** What a bundle's card is drawn from. */
export interface BundleCardInput {
  readonly bundle: BundleView;
  readonly tool: (name: string) => ConfirmationToolView | undefined;
  readonly locale: Locale;
  readonly nameOf: (id: string) => string;
  /** The bundle's page in the approvals console (its first step's), when there is one. */
  readonly consoleLink?: string | undefined;
}

/** Every step's payload together gets at most this many fields and UTF-8 bytes on the one card. */
const BUNDLE_FIELDS = 60;
const BUNDLE_BYTES = 16_000;

/**
 * A bundle as one Adaptive Card: every step, in order, with its title, effect and payload. "Approve
 * all N steps" only when every step is shown whole; otherwise the card says so and links to the
 * console (Reject all stays). Approve carries the first step's id and the bundle digest, so it decides
 * what the card showed (`confirmBundle`); Reject all carries the step a rejection decides.
 */
export function bundleCard(input: BundleCardInput): { card: Card; isWhole: boolean } {
  const { bundle, locale } = input;
  const words = teamsWords(locale);
  const n = bundle.steps.length;
  const body: CardElement[] = [ownText(words.bundleHeading(n), { size: 'Large', weight: 'Bolder' })];
  const first = bundle.steps[0];
  if (first?.note !== undefined) body.push(plainText([[`${words.why}: `, { weight: 'Bolder' }], first.note]));
  body.push(ownText(words.inOrder, { isSubtle: true }));
  let isWhole = true;
  const budget = { fields: BUNDLE_FIELDS, bytes: BUNDLE_BYTES };
  for (const [i, step] of bundle.steps.entries()) {
    const tool = input.tool(step.tool);
    const title = tool?.title ?? step.tool;
    const effect = tool?.effect === undefined ? undefined : describeEffect(tool.effect, step.payload);
    const status = step.status === 'pending' ? '' : ` · ${words.statuses[step.status] ?? step.status}`;
    const items: CardElement[] = [plainText([[words.stepOf(i + 1, n, title), { weight: 'Bolder' }], status])];
    if (effect !== undefined && effect !== '') items.push(plainText([effect]));
    const payload = payloadElements(step.payload, payloadLabels(tool?.payloadSchema, locale), words, budget);
    budget.fields -= payload.elements.length - 1;
    budget.bytes -= payload.bytes;
    isWhole &&= payload.isWhole;
    items.push(...payload.elements.slice(1));
    body.push(section(items));
  }
  const pending = bundle.steps.find((step) => step.status === 'pending');
  if (first !== undefined)
    body.push(
      plainText(
        [
          [`${words.askedBy}: `, { weight: 'Bolder' }],
          first.actor === undefined ? words.unknownActor : input.nameOf(first.actor),
          ` · ${bundle.id}`,
        ],
        { separator: true },
      ),
    );
  if (pending !== undefined)
    body.push(ownText(`**${words.expires}:** ${cardDateTime(pending.expiresAt)}`, { isSubtle: true }));
  const actions: CardAction[] = [];
  const link = linkUrl(input.consoleLink);
  const passkey = bundle.steps.some((step) => requiresPasskey(step));
  if (pending !== undefined && passkey) body.push(ownText(passkeyRequiredText(locale), { weight: 'Bolder' }));
  if (pending !== undefined && first !== undefined) {
    if (isWhole && !passkey)
      actions.push(
        executeAction(
          words.approveAll(n),
          VERBS.approve,
          actionData({ id: first.id, digest: bundle.digest }),
          'positive',
        ),
      );
    else if (!isWhole)
      body.push(ownText(`⚠ ${words.bundleTooLong}`, { color: 'Attention', weight: 'Bolder' }));
    body.push(textBox(REASON_INPUT, words.rejectReason, 500));
    actions.push(
      executeAction(
        words.rejectAll,
        VERBS.reject,
        actionData({ id: pending.id, digest: pending.digest }),
        'destructive',
      ),
    );
    if ((!isWhole || passkey) && link !== undefined) actions.push(openUrlAction(words.openInConsole, link));
  } else
    body.push(
      plainText([[words.statuses[bundle.status] ?? bundle.status, { weight: 'Bolder' }]], {
        separator: true,
      }),
    );
  const refresh =
    first === undefined
      ? undefined
      : executeAction(words.refresh, VERBS.refresh, actionData({ id: first.id, digest: bundle.digest }));
  return { card: adaptiveCard(body, actions, refresh), isWhole };
}
