import { describe, expect, it } from 'vitest';
import { blocksProblem } from './support/fake-slack.js';
import { textOf, useFakeSlack } from './support/fake-slack-session.js';
import { slackDesk } from './support/slack-desk.js';
import { buttonOf, click, formBody, signed, submit } from './support/slack-requests.js';

const session = useFakeSlack();
const { posted } = session;

describe('slackApprovals: bundles', () => {
  it('posts one card listing every step, in order; "Approve all" decides the bundle whole, delivered in order', async () => {
    const { slack, registry, delivered } = slackDesk(session.fake);
    const asked = await registry.proposeBundle(
      [
        { tool: 'payment.send', input: { amount: 150 } },
        { tool: 'message.send', input: { to: 'ana@example.com', text: 'We paid you 150 EUR.' } },
      ],
      { actor: 'agent:desk-bot', note: 'Pay, then tell them.' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const first = asked.confirmations[0]?.confirmationId ?? '';
    const message = await posted(first);
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    // One message for the bundle, none for its second step.
    expect(session.fake.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    const text = textOf(message);
    expect(text).toContain('2 steps, in order');
    expect(text.indexOf('Step 1 of 2: Pay a supplier')).toBeLessThan(
      text.indexOf('Step 2 of 2: Reply to the customer'),
    );
    expect(text).toContain('We paid you 150 EUR.');
    expect(JSON.parse(String(buttonOf(message, 'graded_tools_approve')?.value))).toEqual({
      id: first,
      digest: asked.digest,
    });
    expect(buttonOf(message, 'graded_tools_edit')).toBeUndefined();

    // The payment needs two finance approvers: Li's click counts for both steps, nothing goes out yet.
    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
    // The step waiting behind the payment says so in words, not as a raw status.
    await session.fake.until(() => textOf(message).includes('approved, goes out in its turn'));
    expect(textOf(message)).not.toContain('_scheduled_');
    expect(delivered).toEqual([]);
    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0WU'))));
    await session.fake.until(() => delivered.length === 2);
    expect(delivered).toEqual([
      { amount: 150, currency: 'EUR' },
      { to: 'ana@example.com', text: 'We paid you 150 EUR.' },
    ]);
    await session.fake.until(() => buttonOf(message, 'graded_tools_approve') === undefined);
  });

  it('a bundle too long to show whole offers no Approve, only Reject and the console', async () => {
    const { registry } = slackDesk(session.fake, { consoleUrl: 'https://approvals.example.com' });
    const long = 'x'.repeat(2_500);
    const asked = await registry.proposeBundle(
      Array.from({ length: 12 }, (_, i) => ({
        tool: 'letter.send',
        input: { body: `${i}${long}`, extra: long },
      })),
      { actor: 'agent:desk-bot' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const message = await posted(asked.confirmations[0]?.confirmationId ?? '');
    expect(blocksProblem(message.blocks, 50)).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_approve')).toBeUndefined();
    expect(buttonOf(message, 'graded_tools_reject')).toBeDefined();
    expect(textOf(message)).toContain('too long to show whole');
  });

  it('"Reject all" stops a held step too, and tells the person what it stopped', async () => {
    const { slack, registry, delivered, advance } = slackDesk(session.fake);
    const asked = await registry.proposeBundle(
      [
        { tool: 'reminder.send', input: { to: 'ana@example.com' } },
        { tool: 'payment.send', input: { amount: 150 } },
      ],
      { actor: 'agent:desk-bot' },
    );
    if (!asked.ok) throw new Error(asked.error);
    const first = asked.confirmations[0]?.confirmationId ?? '';
    const message = await posted(first);
    // Li approves: the reminder is held in its undo window, the payment waits for a second approver.
    await slack.fetch(signed(formBody(click(message, 'graded_tools_approve', 'U0LI'))));
    await session.fake.until(() => textOf(message).includes('approved, goes out in its turn'));
    await slack.fetch(signed(formBody(click(message, 'graded_tools_reject', 'U0WU'))));
    const opened = await session.fake.until(() => session.fake.ok('views.open')[0]);
    const view = opened.args.view as Record<string, unknown>;
    await slack.fetch(signed(formBody(submit(view, 'U0WU', { reason: 'wrong supplier' }))));
    await session.fake.until(() =>
      session
        .ephemerals()
        .some((e) => String(e.args.text).includes('Rejected: steps 1 and 2 will not go out.')),
    );
    const read = await registry.confirmations.bundle(asked.bundleId);
    expect(read.ok && read.bundle.steps.map((s) => s.status)).toEqual(['cancelled', 'rejected']);
    advance(31_000);
    await registry.sweep();
    expect(delivered).toEqual([]);
  });
});
