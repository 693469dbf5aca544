import { describe, expect, it } from 'vitest';
import { blocksProblem } from './support/fake-slack.js';
import { textOf, useFakeSlack } from './support/fake-slack-session.js';
import { slackDesk } from './support/slack-desk.js';
import { buttonOf, click, formBody, signed } from './support/slack-requests.js';

const HOLD = 30_000;
const UNDO = 'graded_tools_cancel';

const session = useFakeSlack();
const { posted, ephemerals } = session;

/** A payment reminder held 30 s after it is approved, approved by Li in Slack. */
async function heldAndApproved() {
  const desk = slackDesk(session.fake);
  const asked = await desk.ask('reminder.send', { to: 'ana@example.com' });
  const message = await posted(asked.confirmationId);
  await desk.slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
  await session.fake.until(() => buttonOf(message, UNDO));
  return { ...desk, asked, message };
}

describe('a held send in Slack: Undo', () => {
  it('an approve of a held send: "Approved by Li — sending at …" with Undo, nothing sent, no "Not done"', async () => {
    const { message, delivered, registry, asked } = await heldAndApproved();
    expect(textOf(message)).toMatch(/Approved by Li — sending at <!date\^\d+\^\{time\}\|\d\d:\d\d UTC>/);
    expect(buttonOf(message, 'graded_tools_approve')).toBeUndefined();
    expect(JSON.parse(String(buttonOf(message, UNDO)?.value))).toEqual({
      id: asked.confirmationId,
      digest: asked.digest,
    });
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    expect(delivered).toEqual([]);
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('scheduled');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ephemerals()).toEqual([]);
  });

  it("Li's Undo cancels it through the registry: the message says who, and the sweep sends nothing", async () => {
    const { slack, message, delivered, registry, asked, advance } = await heldAndApproved();
    const response = await slack.fetch(signed(formBody(click(message, UNDO, 'U0LI'))));
    expect(response.status).toBe(200);
    await session.fake.until(() => textOf(message).includes('Cancelled by Li; nothing was sent'));
    expect(buttonOf(message, UNDO)).toBeUndefined();
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.history.at(-1)).toMatchObject({ status: 'cancelled', by: 'li' });
    advance(HOLD + 1);
    expect(await registry.sweep()).toMatchObject({ ok: true, delivered: [] });
    expect(delivered).toEqual([]);
  });

  it('someone who did not approve it is refused (told privately); left alone, it is sent and the message says so', async () => {
    const { slack, message, delivered, registry, asked, advance } = await heldAndApproved();
    await slack.fetch(signed(formBody(click(message, UNDO, 'U0WU'))));
    await session.fake.until(() => ephemerals().length === 1);
    expect(ephemerals()[0]?.args).toMatchObject({ user: 'U0WU', channel: 'C0APPROVERS' });
    expect(String(ephemerals()[0]?.args.text)).toMatch(/^Not done: You may not make this decision/);
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('scheduled');
    expect(buttonOf(message, UNDO)).toBeDefined();
    // An unlinked Slack user decides nothing either.
    await slack.fetch(signed(formBody(click(message, UNDO, 'U0NOBODY'))));
    await session.fake.until(() => ephemerals().length === 2);
    expect(String(ephemerals()[1]?.args.text)).toContain('not linked');

    const stale = { ...message, blocks: structuredClone(message.blocks) };
    advance(HOLD);
    const swept = await registry.sweep();
    expect(swept.ok && swept.delivered.map((c) => c.status)).toEqual(['delivered']);
    expect(delivered).toEqual([{ to: 'ana@example.com' }]);
    await session.fake.until(() => textOf(message).includes('Approved by Li — sent'));
    expect(buttonOf(message, UNDO)).toBeUndefined();
    // Too late: Li's Undo on a card Slack still showed is refused, and it was sent once.
    await slack.fetch(signed(formBody(click(stale, UNDO, 'U0LI'))));
    await session.fake.until(() => ephemerals().length === 3);
    expect(String(ephemerals()[2]?.args.text)).toMatch(/^Not done: .*already/);
    expect(delivered).toHaveLength(1);
  });
});
