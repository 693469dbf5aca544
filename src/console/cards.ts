import { editedFields } from '../confirm/reading/edited-fields.js';
import type { ConfirmationsView, ConfirmationToolView } from '../confirm/types.js';
import type { Confirmation } from '../confirmation.js';
import type { LimitState } from '../invoke/check-call.js';
import { alikeText } from '../messages/alike-words.js';
import { gradeOf } from '../messages/grade-words.js';
import type { Locale } from '../messages/index.js';
import { limitLines } from '../messages/limit-words.js';
import { type OriginsText, originsText } from '../origins/origin-words.js';
import { titledOrigins, titledValueOrigins } from '../origins/read-origins.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { BundleCard, Card } from './card-view.js';
import { displayNames } from './display-names.js';
import { effectOf } from './effect-line.js';
import type { Offer } from './offer.js';
import { payloadLabels } from './payload-labels.js';
import { quorumOf } from './quorum.js';

export type { Card } from './card-view.js';

/** What a card needs besides the record: the person's language, names, and what they may do. */
export interface CardSettings {
  readonly view: ConfirmationsView;
  readonly locale: Locale;
  readonly displayName: ((personId: string) => string | undefined) | undefined;
  /** Who is looking, for their own name when the app's `displayName` has none. */
  readonly person?: { readonly id: string; readonly name?: string | undefined } | undefined;
  /** With `bundleDigest`: a bundle's step, offered as part of its bundle's decision. */
  readonly offer: (confirmation: Confirmation, bundleDigest?: string) => Promise<Offer>;
  /** Any registered tool's title (a read tool named in `origins`), or `undefined` when it has none. */
  readonly titleOf?: (tool: string) => string | undefined;
  /** Where the call's limits stand now (read, never counted); none when the tool has no limits. */
  readonly limits?: (confirmation: Confirmation) => Promise<readonly LimitState[]>;
}

/** Builds cards, asking the registry about each tool once per request. */
export class CardMaker {
  readonly #s: CardSettings;
  readonly #tools = new Map<string, ConfirmationToolView | undefined>();

  constructor(settings: CardSettings) {
    this.#s = settings;
  }

  /** The card of `confirmation`; a bundle's step comes with its whole bundle (`bundleCard`). */
  async card(confirmation: Confirmation): Promise<Card> {
    const card = await this.#card(confirmation);
    if (confirmation.bundle === undefined) return card;
    const bundleCard = await this.#bundleCard(confirmation.bundle.id);
    return bundleCard === undefined ? card : { ...card, bundleCard };
  }

  /**
   * A page of cards, a bundle shown once: where its first step listed here stands, with every step.
   */
  async cards(confirmations: readonly Confirmation[]): Promise<Card[]> {
    const seen = new Set<string>();
    const once = confirmations.filter((c) => {
      if (c.bundle === undefined) return true;
      if (seen.has(c.bundle.id)) return false;
      seen.add(c.bundle.id);
      return true;
    });
    return Promise.all(once.map((c) => this.card(c)));
  }

  async #bundleCard(bundleId: string): Promise<BundleCard | undefined> {
    const read = await this.#s.view.bundle(bundleId, { locale: this.#s.locale });
    if (!read.ok) return undefined;
    const { bundle } = read;
    const steps = await Promise.all(
      bundle.steps.map(async (step) => ({
        ...(await this.#card(step, bundle.digest)),
      })),
    );
    const pending = steps.filter((step) => step.status === 'pending');
    const approvable = pending.some((step) => step.offer.confirm);
    const first = pending[0];
    const why = approvable ? undefined : first?.offer;
    return {
      id: bundle.id,
      digest: bundle.digest,
      status: bundle.status,
      steps,
      offer: {
        confirm: approvable,
        reject: first?.offer.reject ?? false,
        ...(why?.whyNot === undefined ? {} : { whyNot: why.whyNot }),
        ...(why?.missingFlags === undefined ? {} : { missingFlags: why.missingFlags }),
      },
    };
  }

  async #card(confirmation: Confirmation, bundleDigest?: string): Promise<Card> {
    const tool = this.#tool(confirmation.tool);
    const effect = effectOf(tool, confirmation.payload);
    const quorum = quorumOf(confirmation);
    // The record says a write is one; a write asked before records said so is known by its tool.
    const isWrite = gradeOf(confirmation, tool) === 'write';
    const originsText = this.#originsText(confirmation);
    const limitsText = await this.#limitsText(confirmation);
    return {
      ...confirmation,
      ...(isWrite ? { sideEffect: 'write' as const } : {}),
      title: tool?.title ?? confirmation.tool,
      editable: tool === undefined ? [] : [...tool.editable],
      canonicalJson: canonicalText(confirmation.payload),
      ...(effect === undefined ? {} : { effect }),
      labels: payloadLabels(tool?.payloadSchema, this.#s.locale),
      names: displayNames(confirmation, this.#s.displayName, this.#s.person),
      offer: await this.#s.offer(confirmation, bundleDigest),
      ...(quorum === undefined ? {} : { quorum }),
      ...(tool?.holdMs === undefined ? {} : { holdMs: tool.holdMs }),
      ...(originsText === undefined ? {} : { originsText }),
      ...(limitsText.length === 0 ? {} : { limitsText }),
      ...(confirmation.status !== 'pending' || confirmation.alike === undefined
        ? {}
        : { alikeText: alikeText(tool?.title ?? confirmation.tool, confirmation.alike.id, this.#s.locale) }),
    };
  }

  /** A pending card's limit lines; a limit that cannot be read now is left out, never a failed card. */
  async #limitsText(confirmation: Confirmation): Promise<readonly string[]> {
    if (confirmation.status !== 'pending' || this.#s.limits === undefined) return [];
    try {
      return limitLines(await this.#s.limits(confirmation), this.#s.locale);
    } catch {
      return [];
    }
  }

  /**
   * The record's origins in words, per value where it holds values, each tool named by its title where
   * the registry knows it; "not recorded" for a tool with destinations asked outside a run.
   */
  #originsText(confirmation: Confirmation): OriginsText | undefined {
    const titleOf = this.#s.titleOf;
    const title = (tool: string) => titleOf?.(tool);
    return originsText(
      {
        origins: titledOrigins(confirmation.origins, title),
        originValues: titledValueOrigins(confirmation.originValues, title),
        originsOutsideRun: confirmation.originsOutsideRun === true,
        editedFields: editedFields(confirmation),
      },
      this.#s.locale,
    );
  }

  #tool(name: string): ConfirmationToolView | undefined {
    if (!this.#tools.has(name)) this.#tools.set(name, this.#s.view.tool(name));
    return this.#tools.get(name);
  }
}

/** A stored payload is JSON; one that is not (a store edited by hand) is shown as JSON text still. */
function canonicalText(payload: unknown): string {
  try {
    return canonicalJson(payload);
  } catch {
    return JSON.stringify(payload) ?? 'null';
  }
}
