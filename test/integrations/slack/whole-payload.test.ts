import { describe, expect, it } from 'vitest';
import { blocksProblem, type FakeMessage } from './support/fake-slack.js';
import { textOf, useFakeSlack } from './support/fake-slack-session.js';
import { slackDesk } from './support/slack-desk.js';
import { buttonOf, click, formBody, signed, submit } from './support/slack-requests.js';

// What the person saw is what is sent: a card that cannot show the whole payload offers no Approve,
// and a forged or stale Approve for it is refused on the server.
const session = useFakeSlack();
const { posted, ephemerals } = session;

const CONSOLE = 'https://desk.example/approvals';
const APPROVE = 'graded_tools_approve';
const LONG_BODY = `Dear Ana,\n${'We are sorry for the trouble with your order. '.repeat(120)}\nThe last line matters.`;
const MANY_FIELDS = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`line_${i}`, `value ${i}`]));

/** `user` clicking `actionId` on `message` with the Reject button's value: a forged or stale button. */
function forged(message: FakeMessage, actionId: string, user: string): object {
  const body = click(message, 'graded_tools_reject', user) as { actions: Record<string, unknown>[] };
  return { ...body, actions: body.actions.map((action) => ({ ...action, action_id: actionId })) };
}

describe('a card that cannot show the whole payload in Slack', () => {
  it.each([
    ['one value too long to show whole', { to: 'ana@example.com', body: LONG_BODY }],
    ['more fields than the card shows', MANY_FIELDS],
  ])('%s: no Approve, no Edit, says why and links to the console; Reject stays', async (_, input) => {
    const { ask } = slackDesk(session.fake, { consoleUrl: CONSOLE });
    const asked = await ask('letter.send', input);
    const message = await posted(asked.confirmationId);
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    expect(buttonOf(message, APPROVE)).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_edit')).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_reject')).toBeDefined();
    expect(textOf(message)).toContain('too long to show whole in Slack');
    expect(buttonOf(message, 'graded_tools_open_console')?.url).toBe(
      `${CONSOLE}/confirmations/${asked.confirmationId}`,
    );
  });

  it('without a console link, it says so and offers only Reject', async () => {
    const { ask } = slackDesk(session.fake);
    const asked = await ask('letter.send', { body: LONG_BODY });
    const message = await posted(asked.confirmationId);
    expect(buttonOf(message, APPROVE)).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_edit')).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_open_console')).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_reject')).toBeDefined();
    expect(textOf(message)).toContain('too long to show whole in Slack');
    expect(textOf(message)).toContain('no link to the approvals console');
  });

  it('a forged or stale Approve for it is refused on the server: nothing sent, the person told why', async () => {
    const { slack, ask, delivered, registry } = slackDesk(session.fake, { consoleUrl: CONSOLE });
    const asked = await ask('letter.send', { to: 'ana@example.com', body: LONG_BODY });
    const message = await posted(asked.confirmationId);
    expect((await slack.fetch(signed(formBody(forged(message, APPROVE, 'U0LI'))))).status).toBe(200);
    await session.fake.until(() => ephemerals().length === 1);
    expect(ephemerals()[0]?.args).toMatchObject({ user: 'U0LI', channel: 'C0APPROVERS' });
    expect(String(ephemerals()[0]?.args.text)).toContain('too long to show whole in Slack');
    expect(String(ephemerals()[0]?.args.text)).toContain(`${CONSOLE}/confirmations/${asked.confirmationId}`);
    // A forged Edit opens no modal, and a forged edit submission approves nothing either.
    await slack.fetch(signed(formBody(forged(message, 'graded_tools_edit', 'U0LI'))));
    await session.fake.until(() => ephemerals().length === 2);
    expect(session.fake.ok('views.open')).toEqual([]);
    const view = {
      callback_id: 'graded_tools_edit',
      private_metadata: JSON.stringify({
        id: asked.confirmationId,
        digest: asked.digest,
        channel: 'C0APPROVERS',
        ts: message.ts,
        fields: ['body'],
      }),
      blocks: [
        {
          type: 'input',
          block_id: 'field_0',
          element: { type: 'plain_text_input', action_id: 'value' },
        },
      ],
    };
    await slack.fetch(signed(formBody(submit(view, 'U0LI', { field_0: 'Short now.' }))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(delivered).toEqual([]);
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('pending');
    expect(read.ok && read.confirmation.history).toHaveLength(1);
  });

  it('a payload that fits whole keeps Approve and Edit, and no console notice', async () => {
    const { ask } = slackDesk(session.fake, { consoleUrl: CONSOLE });
    const asked = await ask('letter.send', { to: 'ana@example.com', body: 'A short letter.' });
    const message = await posted(asked.confirmationId);
    expect(buttonOf(message, APPROVE)).toBeDefined();
    expect(buttonOf(message, 'graded_tools_edit')).toBeDefined();
    expect(textOf(message)).not.toContain('too long');
  });
});
