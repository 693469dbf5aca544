import { LogLevel, WebClient } from '@slack/web-api';
import { isRecord } from '../../util/is-record.js';
import type { Block } from './message-blocks.js';

/** A message of `conversations.history`, as far as this channel reads it. */
export interface HistoryMessage {
  readonly ts: string;
  /** The confirmation id in the message's metadata, when it is one of ours. */
  readonly confirmationId?: string;
}

/**
 * The Slack Web API calls this channel makes — the whole of what it uses of `@slack/web-api` — so
 * that the rest speaks in its own terms and the SDK stays behind one file.
 */
export interface SlackApi {
  postMessage(message: {
    readonly channel: string;
    readonly text: string;
    readonly blocks?: readonly Block[];
    readonly metadata?: Block;
    readonly threadTs?: string;
  }): Promise<{ readonly channel: string; readonly ts: string }>;
  update(message: {
    readonly channel: string;
    readonly ts: string;
    readonly text: string;
    readonly blocks: readonly Block[];
    readonly metadata: Block;
  }): Promise<void>;
  postEphemeral(message: {
    readonly channel: string;
    readonly user: string;
    readonly text: string;
  }): Promise<void>;
  openView(view: { readonly triggerId: string; readonly view: Block }): Promise<void>;
  /** The latest `limit` messages of `channel`, newest first, with their metadata. */
  history(channel: string, limit: number, eventType: string): Promise<readonly HistoryMessage[]>;
}

/**
 * The Web API through `@slack/web-api`'s `WebClient` with the bot token; `slackApiUrl` (tests, a
 * proxy) replaces `https://slack.com/api/`. Two retries on network errors, 10 s per request: a
 * channel must give up in bounded time, and a person clicks again.
 */
export function webApi(botToken: string, slackApiUrl: string | undefined): SlackApi {
  const client = new WebClient(botToken, {
    ...(slackApiUrl === undefined
      ? {}
      : { slackApiUrl: slackApiUrl.endsWith('/') ? slackApiUrl : `${slackApiUrl}/` }),
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2_000 },
    timeout: 10_000,
    logLevel: LogLevel.ERROR,
  });
  const call = async (method: string, args: Record<string, unknown>): Promise<Record<string, unknown>> =>
    (await client.apiCall(method, args)) as unknown as Record<string, unknown>;
  return {
    async postMessage({ channel, text, blocks, metadata, threadTs }) {
      const sent = await call('chat.postMessage', {
        channel,
        text,
        ...(blocks === undefined ? {} : { blocks }),
        ...(metadata === undefined ? {} : { metadata }),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        unfurl_links: false,
        unfurl_media: false,
      });
      if (typeof sent.ts !== 'string' || typeof sent.channel !== 'string')
        throw new Error('chat.postMessage answered without a channel and ts');
      return { channel: sent.channel, ts: sent.ts };
    },
    async update({ channel, ts, text, blocks, metadata }) {
      await call('chat.update', { channel, ts, text, blocks, metadata });
    },
    async postEphemeral({ channel, user, text }) {
      await call('chat.postEphemeral', { channel, user, text });
    },
    async openView({ triggerId, view }) {
      await call('views.open', { trigger_id: triggerId, view });
    },
    async history(channel, limit, eventType) {
      const page = await call('conversations.history', { channel, limit, include_all_metadata: true });
      const messages = Array.isArray(page.messages) ? (page.messages as unknown[]) : [];
      return messages.flatMap((message) => {
        if (!isRecord(message) || typeof message.ts !== 'string') return [];
        const metadata = message.metadata;
        const payload =
          isRecord(metadata) && metadata.event_type === eventType ? metadata.event_payload : undefined;
        const id = isRecord(payload) ? payload.confirmation_id : undefined;
        return [{ ts: message.ts, ...(typeof id === 'string' ? { confirmationId: id } : {}) }];
      });
    },
  };
}
