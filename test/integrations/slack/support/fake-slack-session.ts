// One fake Slack per test, started before it and closed after it, and what the tests read from it.
import { afterEach, beforeEach } from 'vitest';
import { type FakeMessage, type FakeSlack, startFakeSlack } from './fake-slack.js';
import { BOT_TOKEN } from './slack-desk.js';

/** A fake Slack started before each test of the file and closed after it. */
export function useFakeSlack() {
  let current: FakeSlack | undefined;
  beforeEach(async () => {
    current = await startFakeSlack({ token: BOT_TOKEN });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const fake = (): FakeSlack => {
    if (current === undefined) throw new Error('the fake Slack runs only inside a test');
    return current;
  };
  return {
    /** This test's fake Slack. */
    get fake(): FakeSlack {
      return fake();
    },
    /** The card posted for confirmation `id` (waits for the `created` notice to reach the fake). */
    posted(id: string): Promise<FakeMessage> {
      return fake().until(() =>
        fake()
          .channels.get('C0APPROVERS')
          ?.find((m) => JSON.stringify(m.metadata ?? {}).includes(id) && m.threadTs === undefined),
      );
    },
    /** The private messages Slack took (`chat.postEphemeral`), oldest first. */
    ephemerals: () => fake().ok('chat.postEphemeral'),
    /** The card updates Slack took (`chat.update`), oldest first. */
    updates: () => fake().ok('chat.update'),
  };
}

/** A card's blocks as one string, to look for words in. */
export const textOf = (message: FakeMessage): string => JSON.stringify(message.blocks);
