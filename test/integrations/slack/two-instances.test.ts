import { join } from 'node:path';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { useFakeSlack } from './support/fake-slack-session.js';
import { slackDesk } from './support/slack-desk.js';
import { buttonOf, click, formBody, signed } from './support/slack-requests.js';

// Two app instances sharing one SQLite file, each with its own Slack approvals: A posts the card,
// B takes the click or makes the decision, and the card A posted is the one updated.
const session = useFakeSlack();
const { posted } = session;
let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('graded-tools-slack-');
});
afterEach(() => {
  dir.remove();
});

it('instance B decides a card instance A posted, and updates that message (found through its metadata)', async () => {
  const path = join(dir.path, 'confirmations.db');
  const storeA = createSqliteStore({ path });
  const storeB = createSqliteStore({ path });
  try {
    const a = slackDesk(session.fake, { store: storeA });
    const b = slackDesk(session.fake, { store: storeB });

    // A click on A's card reaches B (behind a load balancer): B decides and updates A's message.
    const first = await a.ask();
    const card = await posted(first.confirmationId);
    expect((await b.slack.fetch(signed(formBody(click(card, 'graded_tools_approve', 'U0LI'))))).status).toBe(
      200,
    );
    await session.fake.until(() => JSON.stringify(card.blocks).includes('Approved by Li'));
    expect(buttonOf(card, 'graded_tools_approve')).toBeUndefined();

    // A decision made on B outside Slack (its console): B never saw A's message, and finds it by metadata.
    const second = await a.ask();
    const other = await posted(second.confirmationId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = await b.registry.confirm(second.confirmationId, {
      approvedBy: 'lead-2',
      digest: second.digest,
    });
    expect(sent.ok).toBe(true);
    await session.fake.until(() => JSON.stringify(other.blocks).includes('Approved by lead-2'));
    const history = session.fake.ok('conversations.history');
    expect(history).toHaveLength(1);
    expect(history[0]?.args).toMatchObject({
      channel: 'C0APPROVERS',
      include_all_metadata: 'true',
      limit: '200',
    });

    // Each send was delivered once, by B; A delivered nothing and posted both cards.
    expect(a.delivered).toEqual([]);
    expect(b.delivered).toHaveLength(2);
    expect(session.fake.ok('chat.postMessage')).toHaveLength(2);
    expect(session.fake.ok('chat.update').map((c) => c.args.ts)).toEqual([card.ts, other.ts]);
  } finally {
    storeA.close();
    storeB.close();
  }
});
