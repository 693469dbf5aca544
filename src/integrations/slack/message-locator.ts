import { METADATA_EVENT_TYPE } from './action-value.js';
import type { SlackApi } from './slack-api.js';

/** Where one approval message is. */
export interface MessagePlace {
  readonly channel: string;
  readonly ts: string;
}

/** How far back `conversations.history` is read for a message this instance did not post. */
export const HISTORY_LIMIT = 200;
/** The most places remembered; the oldest are forgotten first (and found again through history). */
const MAX_PLACES = 5_000;

/**
 * Finds the message of a confirmation, posted by this instance or another: first the places this
 * process saw (its own posts, the messages people clicked), then the channel's latest 200 messages
 * (`conversations.history` with `include_all_metadata`), matched by the confirmation id every
 * message carries in its metadata. An older message is not found, and so not updated.
 */
export class MessageLocator {
  readonly #api: SlackApi;
  readonly #places = new Map<string, MessagePlace>();
  /** The configured channel, or its id once a post told it (history needs the id, not a name). */
  #channel: string;

  constructor(api: SlackApi, channel: string) {
    this.#api = api;
    this.#channel = channel;
  }

  remember(id: string, place: MessagePlace, posted = false): void {
    if (posted) this.#channel = place.channel;
    this.#places.delete(id);
    this.#places.set(id, place);
    if (this.#places.size > MAX_PLACES) this.#places.delete(this.#places.keys().next().value as string);
  }

  /** Where this process saw it, without asking Slack. */
  known(id: string): MessagePlace | undefined {
    return this.#places.get(id);
  }

  async find(id: string): Promise<MessagePlace | undefined> {
    const known = this.#places.get(id);
    if (known !== undefined) return known;
    const channel = this.#channel;
    const messages = await this.#api.history(channel, HISTORY_LIMIT, METADATA_EVENT_TYPE);
    const found = messages.find((message) => message.confirmationId === id);
    if (found === undefined) return undefined;
    const place = { channel, ts: found.ts };
    this.remember(id, place);
    return place;
  }
}
