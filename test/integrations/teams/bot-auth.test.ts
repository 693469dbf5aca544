import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FakeBotFramework, startFakeBotFramework } from './support/fake-bot-framework.js';
import { teamsDesk } from './support/teams-desk.js';
import { pressActivity, signedRequest } from './support/teams-requests.js';

let fake: FakeBotFramework;
beforeEach(async () => {
  fake = await startFakeBotFramework();
});
afterEach(async () => {
  await fake.close();
});

it('a flood of tokens naming unknown keys reads the published keys again at most once, and decides nothing', async () => {
  const { teams, ask, delivered } = teamsDesk(fake);
  const asked = await ask();
  const posted = await fake.posted(asked.confirmationId);
  const activity = pressActivity(fake, posted, 'approve', 'li-guid');
  for (let i = 0; i < 20; i++) {
    const forged = await fake.token({ key: 'unpublished', kid: `made-up-${i}` });
    expect((await teams.fetch(signedRequest(activity, forged))).status).toBe(401);
  }
  // The first read, and one more for an unknown kid; then the five-minute wait.
  expect(fake.keyReads()).toBeLessThanOrEqual(2);
  expect(delivered).toEqual([]);
  // A real token still works with the keys already read.
  expect((await teams.fetch(signedRequest(activity, await fake.token()))).status).toBe(200);
  expect(delivered).toHaveLength(1);
});

it('an activity that is not one of our card actions is acknowledged once verified, and refused unsigned', async () => {
  const { teams } = teamsDesk(fake);
  const update = {
    type: 'conversationUpdate',
    id: 'f:1',
    channelId: 'msteams',
    serviceUrl: fake.serviceUrl,
    conversation: { id: '19:approvers@thread.tacv2' },
    membersAdded: [{ id: '28:bot' }],
  };
  expect((await teams.fetch(signedRequest(update, undefined))).status).toBe(401);
  expect((await teams.fetch(signedRequest(update, await fake.token()))).status).toBe(200);
  const body = new Request('https://desk.example/api/messages', {
    method: 'POST',
    body: 'x'.repeat(300_000),
  });
  expect((await teams.fetch(body)).status).toBe(413);
});
