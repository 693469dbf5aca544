import { firstStepId } from '../../confirm/bundles/bundle-ids.js';
import type { Confirmation } from '../../confirmation.js';
import type { Locale } from '../../messages/index.js';
import type { LimitState } from '../../messages/limit-words.js';
import type { NotifyResult } from '../../notice.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { approvalCard } from './approval-card.js';
import type { BotConnector, CardActivity, CardPlace } from './bot-connector.js';
import { bundleCard } from './bundle-card.js';
import { CARD_CONTENT_TYPE, type Card } from './card-elements.js';
import type { TeamsPeople } from './teams-person.js';
import type { TeamsRegistry } from './teams-registry.js';

/** What the cards are drawn and posted with. */
export interface CardSettings {
  readonly registry: () => TeamsRegistry;
  readonly connector: BotConnector;
  readonly people: TeamsPeople;
  /** The conversation new cards are posted to. */
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly locale: () => Locale;
}

/** The most places and drawings remembered; the oldest are forgotten first. */
const MAX_REMEMBERED = 5_000;
/** A change that names no confirmation redraws at most this many of the newest cards. */
const RECENT = 50;

/**
 * The approval card of each confirmation (a bundle has one, its first step's): posted once when it
 * is created, and replaced by what the store says now after every decision — by this instance's own
 * notices, and, for the cards this instance posted or saw acted on, by changes other instances made
 * to a shared store (`confirmations.watch`). Updates for one confirmation run one at a time; one that
 * would draw the card this process last drew is skipped.
 */
export class ApprovalCards {
  readonly #s: CardSettings;
  readonly #places = new Map<string, CardPlace>();
  readonly #drawn = new Map<string, string>();
  readonly #links = new Map<string, string>();
  readonly #queues = new Map<string, Promise<NotifyResult>>();
  #watching = false;

  constructor(settings: CardSettings) {
    this.#s = settings;
  }

  /** The console page a notice named for `id` (`notify.consoleUrl`), if this process saw one. */
  consoleLink(id: string): string | undefined {
    return this.#links.get(firstStepId(id));
  }

  learnLink(id: string, link: string | undefined): void {
    if (link !== undefined) remember(this.#links, firstStepId(id), link);
  }

  /** Where the card of `id` is, learnt from an action on it (any instance may have posted it). */
  learnPlace(id: string, place: CardPlace): void {
    remember(this.#places, firstStepId(id), place);
    this.#watch();
  }

  /** Posts the card of a new confirmation. */
  post(asked: string): Promise<NotifyResult> {
    const id = firstStepId(asked);
    return this.#inTurn(id, async () => {
      if (this.#places.has(id)) return this.#update(id);
      // Watching starts before the post, so a change made elsewhere while it is on its way is not missed.
      this.#watch();
      const card = await this.draw(id);
      if (!card.ok) return card;
      const place = await this.#s.connector.post(
        this.#s.serviceUrl,
        this.#s.conversationId,
        activityOf(card.card),
      );
      remember(this.#places, id, place);
      remember(this.#drawn, id, JSON.stringify(card.card));
      // Decided while the post was on its way: drawn again (skipped when nothing changed).
      return this.#update(id);
    });
  }

  /** Replaces the card with the confirmation as it stands now. */
  refresh(asked: string): Promise<NotifyResult> {
    const id = firstStepId(asked);
    return this.#inTurn(id, () => this.#update(id));
  }

  /** The card of `id` (its bundle's, for a step) as the store holds it now. */
  async draw(asked: string): Promise<{ ok: true; card: Card } | { ok: false; error: string }> {
    const id = firstStepId(asked);
    const registry = this.#s.registry();
    const locale = this.#s.locale();
    const read = await registry.confirmations.get(id);
    if (!read.ok) return { ok: false, error: read.error };
    const { confirmation } = read;
    const nameOf = (person: string) => this.#s.people.nameOf(person);
    if (confirmation.bundle !== undefined) {
      const bundle = await registry.confirmations.bundle(confirmation.bundle.id);
      if (!bundle.ok) return { ok: false, error: bundle.error };
      const drawn = bundleCard({
        bundle: bundle.bundle,
        tool: (name) => registry.confirmations.tool(name),
        locale,
        nameOf,
        consoleLink: this.#links.get(id),
      });
      return { ok: true, card: drawn.card };
    }
    return {
      ok: true,
      card: approvalCard({
        confirmation,
        tool: registry.confirmations.tool(confirmation.tool),
        locale,
        nameOf,
        consoleLink: this.#links.get(id),
        titleOf: (tool) => registry.get?.(tool)?.title,
        limits: await limitsOf(registry, confirmation),
      }),
    };
  }

  async #update(id: string): Promise<NotifyResult> {
    const place = this.#places.get(id);
    if (place === undefined)
      return {
        ok: false,
        error: `no card for confirmation ${id} was posted or acted on through this instance`,
      };
    const card = await this.draw(id);
    if (!card.ok) return card;
    const drawn = JSON.stringify(card.card);
    if (this.#drawn.get(id) === drawn) return { ok: true };
    await this.#s.connector.update(place, activityOf(card.card));
    remember(this.#drawn, id, drawn);
    return { ok: true };
  }

  /** Once a card is known here, changes to its confirmation from any instance redraw it. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    try {
      this.#s.registry().confirmations.watch((notice) => {
        // A change without an id (a sweep, another process) redraws the newest cards known here.
        const ids =
          notice.id === undefined ? [...this.#places.keys()].slice(-RECENT) : [firstStepId(notice.id)];
        for (const id of ids) if (this.#places.has(id)) void this.refresh(id);
      });
    } catch {
      this.#watching = false;
    }
  }

  /** Runs `task` after the ones before it for the same confirmation; never rejects. */
  #inTurn(id: string, task: () => Promise<NotifyResult>): Promise<NotifyResult> {
    const run = async (): Promise<NotifyResult> => {
      try {
        return await task();
      } catch (error) {
        return { ok: false, error: describeThrown(error) };
      }
    };
    const next = (this.#queues.get(id) ?? Promise.resolve({ ok: true })).then(run);
    this.#queues.set(id, next);
    void next.then(() => {
      if (this.#queues.get(id) === next) this.#queues.delete(id);
    });
    return next;
  }
}

/**
 * Where a pending call's limits stand, read as the asker's call (never counted); none for a tool
 * without limits, and none when they cannot be read now — never a card that fails to draw.
 */
async function limitsOf(registry: TeamsRegistry, confirmation: Confirmation): Promise<readonly LimitState[]> {
  if (confirmation.status !== 'pending' || registry.check === undefined) return [];
  try {
    const rules = registry.get?.(confirmation.tool)?.rules ?? [];
    if (!rules.some((rule) => rule.limit !== undefined)) return [];
    const check = await registry.check(confirmation.tool, confirmation.input, {
      ...(confirmation.actor === undefined ? {} : { actor: confirmation.actor }),
      ...(confirmation.scope === undefined ? {} : { scope: confirmation.scope }),
      caller: 'autonomous',
    });
    return check.limits;
  } catch {
    return [];
  }
}

/** A message activity with the card as its one attachment. */
export function activityOf(card: Card): CardActivity {
  return { type: 'message', attachments: [{ contentType: CARD_CONTENT_TYPE, content: card }] };
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
}
