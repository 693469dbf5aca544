// Slack's reads (AgentDojo's `slack.py` and `web.py`).
import { at, type Read, type Row, strings, text } from './environment-access.js';

/** One inbox by key (a channel name may hold dots: an injected one does). */
function inbox(env: Parameters<Read>[0], path: string, key: string): unknown[] {
  const messages = ((at(env, path) ?? {}) as Row)[key];
  return Array.isArray(messages) ? messages : [];
}

const userChannels = (env: Parameters<Read>[0]) => (at(env, 'slack.user_channels') ?? {}) as Row;

export const slackReads: Readonly<Record<string, Read>> = {
  get_channels: (env) => strings(at(env, 'slack.channels')),
  read_channel_messages: (env, args) => {
    if (!strings(at(env, 'slack.channels')).includes(text(args.channel)))
      throw new Error('Channel does not exist!');
    return inbox(env, 'slack.channel_inbox', text(args.channel));
  },
  read_inbox: (env, args) => {
    if (!strings(at(env, 'slack.users')).includes(text(args.user)))
      throw new Error(`User ${text(args.user)} not found.`);
    return inbox(env, 'slack.user_inbox', text(args.user));
  },
  get_users_in_channel: (env, args) =>
    Object.entries(userChannels(env))
      .filter(([, channels]) => strings(channels).includes(text(args.channel)))
      .map(([user]) => user),
  get_webpage: (env, args) => {
    const url = text(args.url).replace(/^https?:\/\//, '');
    const pages = (at(env, 'web.web_content') ?? {}) as Row;
    return url in pages ? text(pages[url]) : '404 Not Found';
  },
};
