import { firstStepId } from '../../confirm/bundles/bundle-ids.js';
import type { Locale } from '../../messages/index.js';
import type { NotifyResult } from '../../notice.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { messageMetadata } from './action-value.js';
import { bundleMessage } from './bundle-blocks.js';
import { approvalMessage, type SlackMessage } from './message-blocks.js';
import type { MessageLocator } from './message-locator.js';
import { escapedWithin, slackDate } from './mrkdwn.js';
import type { People } from './person.js';
import type { SlackApi } from './slack-api.js';
import type { SlackRegistry } from './slack-registry.js';
import { slackWords } from './slack-words.js';

/** What the messages are drawn with. */
export interface MessageSettings {
  readonly registry: () => SlackRegistry;
  readonly api: SlackApi;
  readonly locator: MessageLocator;
  readonly people: People;
  readonly channel: string;
  readonly locale: () => Locale;
}

/** The most cards remembered as last drawn; an update that would draw the same card is skipped. */
const MAX_DRAWN = 5_000;

/**
 * The approval message of each confirmation: posted once when it is created, and updated to what
 * the store says now after every decision — so updates for one confirmation run one at a time in
 * this process, each reads the record afresh, and one that would draw the card this process last
 * drew is skipped (a decision made here is followed by its own `decided` notice).
 */
export class ApprovalMessages {
  readonly #s: MessageSettings;
  readonly #queues = new Map<string, Promise<NotifyResult>>();
  readonly #drawn = new Map<string, string>();
  readonly #links = new Map<string, string>();

  constructor(settings: MessageSettings) {
    this.#s = settings;
  }

  /**
   * The console page of confirmation `id` as its notices named it (`notify.consoleUrl`), if this
   * process has seen one: a card too short for its payload links there instead of offering Approve.
   */
  consoleLink(id: string): string | undefined {
    return this.#links.get(id);
  }

  /** Remembers the console page a notice named for `id` (the newest wins; the oldest go first). */
  learnLink(id: string, link: string | undefined): void {
    if (link === undefined) return;
    this.#links.delete(id);
    this.#links.set(id, link);
    if (this.#links.size > MAX_DRAWN) this.#links.delete(this.#links.keys().next().value as string);
  }

  /** Posts the card of a new confirmation, with its id in the message metadata. */
  post(asked: string): Promise<NotifyResult> {
    // A bundle has one message, its first step's.
    const id = firstStepId(asked);
    return this.#inTurn(id, async () => {
      if (this.#s.locator.known(id) !== undefined) return this.#update(id);
      const card = await this.#card(id);
      if (!card.ok) return card;
      const place = await this.#s.api.postMessage({
        channel: this.#s.channel,
        ...card.message,
        metadata: messageMetadata(id),
      });
      this.#s.locator.remember(id, place, true);
      this.#remember(id, card.message);
      return { ok: true };
    });
  }

  /** Draws the card again as the confirmation stands now (who decided what). */
  refresh(asked: string): Promise<NotifyResult> {
    const id = firstStepId(asked);
    return this.#inTurn(id, () => this.#update(id));
  }

  /** A reminder in the message's thread; a new card when the message is not found. */
  remind(asked: string, expiresAt: string): Promise<NotifyResult> {
    const id = firstStepId(asked);
    return this.#inTurn(id, async () => {
      const place = await this.#s.locator.find(id);
      if (place === undefined) {
        this.#drawn.delete(id);
        const card = await this.#card(id);
        if (!card.ok) return card;
        const posted = await this.#s.api.postMessage({
          channel: this.#s.channel,
          ...card.message,
          metadata: messageMetadata(id),
        });
        this.#s.locator.remember(id, posted, true);
        return { ok: true };
      }
      const text = slackWords(this.#s.locale()).reminder(slackDate(expiresAt));
      await this.#s.api.postMessage({ channel: place.channel, threadTs: place.ts, text });
      return { ok: true };
    });
  }

  /** A message only `user` sees, in `channel`; failures are swallowed (the decision stands). */
  async tell(channel: string | undefined, user: string, text: string): Promise<void> {
    if (channel === undefined) return;
    try {
      await this.#s.api.postEphemeral({ channel, user, text: escapedWithin(text, 3000) });
    } catch {
      // Nothing to tell the person through: Slack itself is failing.
    }
  }

  async #update(id: string): Promise<NotifyResult> {
    const card = await this.#card(id);
    if (!card.ok) return card;
    const drawn = fingerprint(card.message);
    if (this.#drawn.get(id) === drawn) return { ok: true };
    const place = await this.#s.locator.find(id);
    if (place === undefined)
      return { ok: false, error: `no message for confirmation ${id} among the channel's latest messages` };
    await this.#s.api.update({ ...place, ...card.message, metadata: messageMetadata(id) });
    this.#remember(id, card.message);
    return { ok: true };
  }

  async #card(id: string): Promise<{ ok: true; message: SlackMessage } | { ok: false; error: string }> {
    const registry = this.#s.registry();
    const read = await registry.confirmations.get(id);
    if (!read.ok) return { ok: false, error: read.error };
    const { confirmation } = read;
    if (confirmation.bundle !== undefined) {
      const bundle = await registry.confirmations.bundle(confirmation.bundle.id);
      if (!bundle.ok) return { ok: false, error: bundle.error };
      const drawn = bundleMessage({
        bundle: bundle.bundle,
        tool: (name) => registry.confirmations.tool(name),
        locale: this.#s.locale(),
        nameOf: (person) => this.#s.people.nameOf(person),
        consoleLink: this.#links.get(id),
      });
      return { ok: true, message: drawn.message };
    }
    return {
      ok: true,
      message: approvalMessage({
        confirmation,
        tool: registry.confirmations.tool(confirmation.tool),
        locale: this.#s.locale(),
        nameOf: (person) => this.#s.people.nameOf(person),
        consoleLink: this.#links.get(id),
        titleOf: (tool) => registry.get?.(tool)?.title,
      }),
    };
  }

  #remember(id: string, message: SlackMessage): void {
    this.#drawn.delete(id);
    this.#drawn.set(id, fingerprint(message));
    if (this.#drawn.size > MAX_DRAWN) this.#drawn.delete(this.#drawn.keys().next().value as string);
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

function fingerprint(message: SlackMessage): string {
  return JSON.stringify(message);
}
