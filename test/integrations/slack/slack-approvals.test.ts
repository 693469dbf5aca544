import { describe, expect, it } from 'vitest';
import { blocksProblem } from './support/fake-slack.js';
import { textOf, useFakeSlack } from './support/fake-slack-session.js';
import { BOT_TOKEN, slackDesk } from './support/slack-desk.js';
import { buttonOf, click, formBody, SIGNING_SECRET, signed, submit } from './support/slack-requests.js';

const session = useFakeSlack();
const { posted, ephemerals, updates } = session;

describe('slackApprovals', () => {
  it('posts a Block Kit card with the effect, fields, note, expiry and buttons, the id in its metadata', async () => {
    const { ask } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    expect(message.metadata).toEqual({
      event_type: 'graded_tools_confirmation',
      event_payload: { confirmation_id: asked.confirmationId },
    });
    const text = textOf(message);
    expect(text).toContain('Reply to the customer');
    expect(text).toContain('Emails the customer at ana@example.com');
    expect(text).toContain('*Recipient*'); // the payload schema's title
    expect(text).toContain('Your refund is on its way.');
    expect(text).toContain('Customer asked twice.');
    expect(text).toContain('<!date^');
    expect(JSON.parse(String(buttonOf(message, 'graded_tools_approve')?.value))).toEqual({
      id: asked.confirmationId,
      digest: asked.digest,
    });
    expect(buttonOf(message, 'graded_tools_reject')).toBeDefined();
    expect(buttonOf(message, 'graded_tools_edit')).toBeDefined();
    const call = session.fake.calls.find((c) => c.method === 'chat.postMessage');
    expect(call?.answer.ok).toBe(true);
  });

  it('a signed Approve delivers once and the message then says "Approved by Li"', async () => {
    const { slack, ask, delivered } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    // Wu's click on the same card, arriving after Li's decision.
    const late = formBody(click(message, 'graded_tools_approve', 'U0WU'));
    const response = await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    await session.fake.until(() => message.blocks.length > 0 && textOf(message).includes('Approved by Li'));
    expect(textOf(message)).toContain('sent');
    expect(buttonOf(message, 'graded_tools_approve')).toBeUndefined();
    expect(delivered).toEqual([{ to: 'ana@example.com', text: 'Your refund is on its way.' }]);
    // The click's own update and the decided notice's draw the same card: Slack gets it once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates()).toHaveLength(1);
    // A second click (another request) is the registry's to refuse: nothing is sent twice.
    await slack.fetch(signed(late));
    await session.fake.until(() => ephemerals().length === 1);
    expect(String(ephemerals()[0]?.args.text)).toMatch(/^Not done: .*already/);
    expect(delivered).toHaveLength(1);
  });

  it('refuses a tampered body, a stale timestamp, a wrong secret, no signature and a replay (401), deciding nothing', async () => {
    const now = () => Date.now();
    const { slack, ask, delivered, registry } = slackDesk(session.fake, { now });
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    const body = formBody(click(message, 'graded_tools_approve', 'U0LI'));
    const tampered = signed(body.replace('U0LI', 'U0WU'), { signBody: body });
    expect((await slack.fetch(tampered)).status).toBe(401);
    const stale = signed(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect((await slack.fetch(stale)).status).toBe(401);
    expect((await slack.fetch(signed(body, { secret: 'another-secret' }))).status).toBe(401);
    const unsigned = new Request('https://desk.example/slack/interactivity', { method: 'POST', body });
    expect((await slack.fetch(unsigned)).status).toBe(401);
    expect((await slack.fetch(new Request('https://desk.example/slack/interactivity'))).status).toBe(405);

    const once = signed(body);
    const again = once.clone();
    expect((await slack.fetch(once)).status).toBe(200);
    expect((await slack.fetch(again)).status).toBe(401);
    await session.fake.until(() => delivered.length === 1);
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.history.filter((h) => h.status === 'delivering')).toHaveLength(1);
  });

  it('an unmapped Slack user, or a person lookup that throws, is told so privately and decides nothing', async () => {
    const { slack, ask, delivered, registry } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    for (const user of ['U0NOBODY', 'U0BROKEN']) {
      const response = await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', user))));
      expect(response.status).toBe(200);
    }
    await session.fake.until(() => ephemerals().length === 2);
    expect(ephemerals().map((c) => [c.args.user, c.args.channel])).toEqual([
      ['U0NOBODY', 'C0APPROVERS'],
      ['U0BROKEN', 'C0APPROVERS'],
    ]);
    expect(String(ephemerals()[0]?.args.text)).toContain('not linked');
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('pending');
    expect(delivered).toEqual([]);
    expect(updates()).toEqual([]);
  });

  it('a quorum of two in Slack: the first click says 1 of 2, the same person again is refused, the second delivers', async () => {
    const { slack, ask, delivered } = slackDesk(session.fake);
    const asked = await ask('payment.send', { amount: 900 });
    const message = await posted(asked.confirmationId);
    expect(textOf(message)).toContain('Needs 2 approvals from finance');

    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
    await session.fake.until(() => textOf(message).includes('1 of 2 approved: Li'));
    expect(buttonOf(message, 'graded_tools_approve')).toBeDefined();
    expect(delivered).toEqual([]);
    await session.fake.until(() => ephemerals().length === 1);
    expect(String(ephemerals()[0]?.args.text)).toContain('approval is recorded');

    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
    await session.fake.until(() => ephemerals().length === 2);
    expect(String(ephemerals()[1]?.args.text)).toContain('already approved');
    // Ana holds no finance flag: the rules' approverFlags refuse her.
    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0ANA'))));
    await session.fake.until(() => ephemerals().length === 3);
    expect(String(ephemerals()[2]?.args.text)).toContain('finance');
    expect(delivered).toEqual([]);

    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0WU'))));
    await session.fake.until(() => textOf(message).includes('Approved by Li and Wu'));
    expect(delivered).toEqual([{ amount: 900, currency: 'EUR' }]);
  });

  it('Reject opens a modal for the reason; its submission rejects with that reason', async () => {
    const { slack, ask, registry, delivered } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    await slack.fetch(signed(formBody(click(message, 'graded_tools_reject', 'U0ANA'))));
    const opened = await session.fake.until(() => session.fake.ok('views.open')[0]);
    const view = opened.args.view as Record<string, unknown>;
    expect(view.callback_id).toBe('graded_tools_reject');
    const read = await registry.confirmations.get(asked.confirmationId);
    expect(read.ok && read.confirmation.status).toBe('pending');

    const response = await slack.fetch(signed(formBody(submit(view, 'U0ANA', { reason: 'wrong customer' }))));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    await session.fake.until(() => textOf(message).includes('Rejected by Ana: wrong customer'));
    const done = await registry.confirmations.get(asked.confirmationId);
    expect(done.ok && done.confirmation.history.at(-1)).toMatchObject({
      status: 'rejected',
      by: 'ana',
      note: 'wrong customer',
    });
    expect(delivered).toEqual([]);
  });

  it('Edit opens a modal; a refused edit is shown in it, an accepted one is confirmed with that payload', async () => {
    const { slack, ask, delivered } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    await slack.fetch(signed(formBody(click(message, 'graded_tools_edit', 'U0LI'))));
    const opened = await session.fake.until(() => session.fake.ok('views.open')[0]);
    const view = opened.args.view as Record<string, unknown>;
    expect(view.callback_id).toBe('graded_tools_edit');

    const refused = await slack.fetch(signed(formBody(submit(view, 'U0LI', { field_0: 'x'.repeat(501) }))));
    expect(await refused.json()).toMatchObject({
      response_action: 'errors',
      errors: { field_0: expect.any(String) },
    });
    expect(delivered).toEqual([]);

    const accepted = await slack.fetch(
      signed(formBody(submit(view, 'U0LI', { field_0: 'Refund sent today.' }))),
    );
    expect(accepted.status).toBe(200);
    await session.fake.until(() => textOf(message).includes('Approved by Li'));
    expect(delivered).toEqual([{ to: 'ana@example.com', text: 'Refund sent today.' }]);
    expect(textOf(message)).toContain('Refund sent today.');
  });

  it('a decision made elsewhere (registry.confirm, as the console does) updates the Slack message', async () => {
    const { ask, registry } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
    expect(sent.ok).toBe(true);
    await session.fake.until(() => textOf(message).includes('Approved by lead-2'));
    expect(updates()).toHaveLength(1);
    expect(session.fake.ok('conversations.history')).toEqual([]); // this instance knew where it posted

    const other = await ask();
    const second = await posted(other.confirmationId);
    await registry.reject(other.confirmationId, { rejectedBy: 'lead-2', reason: 'not now' });
    await session.fake.until(() => textOf(second).includes('Rejected by lead-2: not now'));
  });

  it('a reminder replies in the card’s thread', async () => {
    const { slack, ask } = slackDesk(session.fake);
    const asked = await ask();
    const message = await posted(asked.confirmationId);
    const outcome = await slack.notifier.send(
      {
        id: `${asked.confirmationId}.reminder`,
        kind: 'reminder',
        locale: 'en',
        confirmation: {
          id: asked.confirmationId,
          tool: 'message.send',
          title: 'Reply to the customer',
          createdAt: '2030-01-01T00:00:00Z',
          expiresAt: asked.expiresAt,
          status: 'pending',
        },
      },
      {},
    );
    expect(outcome).toEqual({ ok: true });
    const reply = session.fake.channels.get('C0APPROVERS')?.find((m) => m.threadTs === message.ts);
    expect(reply?.text).toMatch(/^Reminder: this still waits for approval and expires <!date\^/);
  });

  it('escapes every payload value for mrkdwn: no mention, channel or link can come from a payload', async () => {
    const { ask } = slackDesk(session.fake);
    const asked = await ask('message.send', {
      to: '<!channel> & <@U0LI>',
      text: 'Click <https://evil.example|here> & <!here>',
    });
    const message = await posted(asked.confirmationId);
    const text = textOf(message);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<https://evil');
    expect(text).toContain('&lt;!channel&gt; &amp; &lt;@U0LI&gt;');
  });
});

describe('the signing secret, the bot token and Block Kit limits', () => {
  it('a wrong bot token is refused by Slack: the notifier says so, nothing throws', async () => {
    const { slackApprovals } = await import('graded-tools/slack');
    const slack = slackApprovals({
      registry: {
        confirm: async () => ({}) as never,
        reject: async () => ({}) as never,
        cancel: async () => ({}) as never,
        confirmations: {} as never,
      },
      signingSecret: SIGNING_SECRET,
      botToken: 'xoxb-wrong',
      channel: 'C0APPROVERS',
      person: () => undefined,
      slackApiUrl: session.fake.url,
    });
    expect(slack.notifier.channel).toBe('slack-approvals');
    const outcome = await slack.notifier.send(
      {
        id: 'c_00000000.created',
        kind: 'created',
        locale: 'en',
        confirmation: {
          id: 'c_00000000',
          tool: 'message.send',
          title: 'Send',
          createdAt: '2030-01-01T00:00:00Z',
          expiresAt: '2030-01-01T01:00:00Z',
          status: 'pending',
        },
      },
      {},
    );
    expect(outcome.ok).toBe(false);
  });

  it('refuses options that cannot work, at setup', async () => {
    const { slackApprovals } = await import('graded-tools/slack');
    const base = {
      registry: () => ({}) as never,
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      channel: 'C0APPROVERS',
      person: () => undefined,
    };
    expect(() => slackApprovals({ ...base, signingSecret: '' })).toThrow(/signingSecret/);
    expect(() => slackApprovals({ ...base, person: undefined as never })).toThrow(/person/);
    expect(() => slackApprovals({ ...base, slackApiUrl: 'ftp://x' })).toThrow(/slackApiUrl/);
  });
});
