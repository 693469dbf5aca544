import type { BundleView } from '../../confirm/bundles/bundle-view.js';
import { bundleRejectedText } from '../../messages/bundle-words.js';
import type { Locale } from '../../messages/index.js';
import type { ErrorCode } from '../../result.js';
import type { CardAction } from './activity.js';
import { showsWholePayload } from './approval-card.js';
import type { ApprovalCards } from './approval-cards.js';
import { bundleCard } from './bundle-card.js';
import type { Card } from './card-elements.js';
import { plainText } from './card-elements.js';
import type { TeamsPeople, TeamsPerson } from './teams-person.js';
import type { TeamsRegistry } from './teams-registry.js';
import { teamsWords } from './teams-words.js';

/** What the decisions are made with. */
export interface DecisionSettings {
  readonly registry: () => TeamsRegistry;
  readonly people: TeamsPeople;
  readonly cards: ApprovalCards;
  readonly locale: () => Locale;
}

/** The invoke's answer: the card as it stands now (with a line for this person), or a message only. */
export type InvokeAnswer =
  | { readonly kind: 'card'; readonly card: Card }
  | { readonly kind: 'message'; readonly text: string };

/** The registry's refusals that mean the card was out of date: it is drawn again, nothing decided. */
const STALE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['PAYLOAD_CHANGED', 'ALREADY_DECIDED', 'EXPIRED']);

/**
 * What a press on a card asks of the registry. The Teams user is mapped to a person by the app first
 * (nobody: nothing is decided, and the answer names no one); then every decision is a
 * `registry.confirm` bound to the digest the card carried, a `registry.reject`, or (Undo) a
 * `registry.cancel` with that person — so the one check list decides. The one thing Teams itself must
 * answer is whether its card showed the whole payload: an Approve of one that did not is refused
 * here, judged from the stored record, never from the action. The answer is always the card as the
 * store holds it now, so a stale card — edited since, or decided by someone else — is refreshed.
 */
export class TeamsDecisions {
  readonly #s: DecisionSettings;

  constructor(settings: DecisionSettings) {
    this.#s = settings;
  }

  async act(action: CardAction): Promise<InvokeAnswer> {
    const words = teamsWords(this.#s.locale());
    const { id } = action.data;
    let said: string | undefined;
    if (action.verb !== 'refresh') {
      const person = await this.#s.people.of(action.user);
      if (person === undefined) return { kind: 'message', text: words.notLinked };
      if (action.verb === 'approve') said = await this.#approve(id, action.data.digest, person);
      else if (action.verb === 'reject') said = await this.#reject(id, action.reason, person);
      else said = await this.#undo(id, person);
    }
    const drawn = await this.#s.cards.draw(id);
    if (!drawn.ok) return { kind: 'message', text: words.notDone(drawn.error) };
    // Everyone's copy too (the decided notice does it as well; the same drawing is sent once).
    if (action.verb !== 'refresh') void this.#s.cards.refresh(id);
    return { kind: 'card', card: said === undefined ? drawn.card : withLine(drawn.card, said) };
  }

  /** Approve: a bundle's whole card, or one confirmation's, bound to the digest the card showed. */
  async #approve(id: string, digest: string, person: TeamsPerson): Promise<string | undefined> {
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const words = teamsWords(locale);
    const read = await registry.confirmations.get(id, { locale });
    if (!read.ok) return `${words.staleCard} ${read.error}`;
    const bundled = await this.#bundleOf(read.confirmation.bundle?.id);
    if (bundled !== undefined) return this.#approveBundle(bundled, digest, person);
    const tool = registry.confirmations.tool(read.confirmation.tool);
    if (!showsWholePayload({ confirmation: read.confirmation, tool, locale }))
      return words.notApprovableHere(this.#s.cards.consoleLink(id));
    const result = await registry.confirm(id, {
      approvedBy: person.id,
      digest,
      ...(person.flags === undefined ? {} : { flags: person.flags }),
      ...(person.scope === undefined ? {} : { scope: person.scope }),
      locale,
    });
    if (result.ok || result.code === 'DELIVERY_FAILED' || result.code === 'SCHEDULED') return undefined;
    if (result.code === 'AWAITING_APPROVALS') return result.error;
    return this.#refused(result.code, result.error);
  }

  /** "Approve all N steps": only when the card drawn from the bundle as stored shows every step whole. */
  async #approveBundle(bundle: BundleView, digest: string, person: TeamsPerson): Promise<string | undefined> {
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const first = bundle.steps[0]?.id ?? bundle.id;
    const drawn = bundleCard({
      bundle,
      tool: (name) => registry.confirmations.tool(name),
      locale,
      nameOf: (p) => p,
    });
    if (!drawn.isWhole || registry.confirmBundle === undefined)
      return teamsWords(locale).notApprovableHere(this.#s.cards.consoleLink(first));
    const result = await registry.confirmBundle(bundle.id, {
      approvedBy: person.id,
      digest,
      ...(person.flags === undefined ? {} : { flags: person.flags }),
      ...(person.scope === undefined ? {} : { scope: person.scope }),
      locale,
    });
    return result.ok ? undefined : this.#refused(result.code, result.error);
  }

  /** Reject (or "Reject all" on a bundle's card): no is never dangerous, so no digest binds it. */
  async #reject(id: string, reason: string | undefined, person: TeamsPerson): Promise<string | undefined> {
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const read = await registry.confirmations.get(id, { locale });
    const bundled = read.ok ? await this.#bundleOf(read.confirmation.bundle?.id) : undefined;
    const options = { rejectedBy: person.id, ...(reason === undefined ? {} : { reason }), locale };
    if (bundled !== undefined && registry.rejectBundle !== undefined) {
      const result = await registry.rejectBundle(bundled.id, options);
      return result.ok ? bundleRejectedText(result, locale) : this.#refused(result.code, result.error);
    }
    const result = await registry.reject(id, options);
    return result.ok ? undefined : this.#refused(result.code, result.error);
  }

  /** Undo: `registry.cancel` as this person, so only someone who approved it may take it back. */
  async #undo(id: string, person: TeamsPerson): Promise<string | undefined> {
    const result = await this.#s.registry().cancel(id, { by: person.id, locale: this.#s.locale() });
    return result.ok ? undefined : this.#refused(result.code, result.error);
  }

  async #bundleOf(bundleId: string | undefined): Promise<BundleView | undefined> {
    if (bundleId === undefined) return undefined;
    const bundle = await this.#s.registry().confirmations.bundle(bundleId, { locale: this.#s.locale() });
    return bundle.ok ? bundle.bundle : undefined;
  }

  #refused(code: ErrorCode, error: string): string {
    const words = teamsWords(this.#s.locale());
    return STALE.has(code) ? `${words.staleCard} ${words.notDone(error)}` : words.notDone(error);
  }
}

/** The card with one line for the person who acted, on top: what their press did or why it did nothing. */
function withLine(card: Card, text: string): Card {
  const body = Array.isArray(card.body) ? card.body : [];
  return { ...card, body: [plainText([[text, { weight: 'Bolder', color: 'Attention' }]]), ...body] };
}
