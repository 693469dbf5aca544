// A registry with two send tools, wired to Slack approvals pointed at the fake Slack.
import { type ConfirmRequired, ToolRegistry } from 'graded-tools';
import { type SlackPerson, slackApprovals } from 'graded-tools/slack';
import type { ConfirmationStore } from 'graded-tools/store';
import { expect } from 'vitest';
import type { FakeSlack } from './fake-slack.js';
import { SIGNING_SECRET } from './slack-requests.js';

export const BOT_TOKEN = 'xoxb-test-0000-graded-tools';

/** The app's directory: Slack user → approver. `U0NOBODY` is nobody; `U0BROKEN` throws. */
export const DIRECTORY: Record<string, SlackPerson> = {
  U0LI: { id: 'li', name: 'Li', flags: { finance: true } },
  U0WU: { id: 'wu', name: 'Wu', flags: { finance: true } },
  U0ANA: { id: 'ana', name: 'Ana' },
};

export function slackDesk(
  fake: FakeSlack,
  options: { store?: ConfirmationStore; now?: () => number; consoleUrl?: string } = {},
) {
  const delivered: unknown[] = [];
  // The registry's clock, moved on by `advance` (a held send's undo window).
  let offset = 0;
  const slack = slackApprovals({
    registry: () => registry,
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    channel: 'C0APPROVERS',
    person: (slackUserId) => {
      if (slackUserId === 'U0BROKEN') throw new Error('directory down');
      return DIRECTORY[slackUserId];
    },
    slackApiUrl: fake.url,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const registry = new ToolRegistry({
    ...(options.store === undefined ? {} : { confirmations: options.store }),
    notify: {
      to: [slack.notifier],
      ...(options.consoleUrl === undefined ? {} : { consoleUrl: options.consoleUrl }),
    },
    now: () => Date.now() + offset,
  })
    .register({
      name: 'message.send',
      title: 'Reply to the customer',
      description: 'Email a reply to a customer.',
      sideEffect: 'send',
      effect: 'Emails the customer at {to}',
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string' }, text: { type: 'string' } },
        required: ['to', 'text'],
      },
      prepare: (input: { to: string; text: string }) => ({ to: input.to, text: input.text }),
      payloadSchema: {
        type: 'object',
        properties: {
          to: { type: 'string', title: 'Recipient' },
          text: { type: 'string', minLength: 1, maxLength: 500 },
        },
        required: ['to', 'text'],
        additionalProperties: false,
      },
      editable: ['text'],
      deliver: (payload) => {
        delivered.push(payload);
        return { sent: true };
      },
    })
    .register({
      name: 'payment.send',
      title: 'Pay a supplier',
      description: 'Pay a supplier.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      prepare: (input: { amount: number }) => ({ amount: input.amount, currency: 'EUR' }),
      rules: [{ name: 'two-finance', approvals: 2, approverFlags: ['finance'] }],
      deliver: (payload) => {
        delivered.push(payload);
        return { paid: true };
      },
    })
    .register({
      name: 'letter.send',
      title: 'Send a letter',
      description: 'Email a letter of any length to a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', additionalProperties: { type: 'string' } },
      prepare: (input: Record<string, string>) => ({ ...input }),
      payloadSchema: {
        type: 'object',
        properties: { body: { type: 'string' } },
        additionalProperties: { type: 'string' },
      },
      editable: ['body'],
      deliver: (payload) => {
        delivered.push(payload);
        return { sent: true };
      },
    })
    .register({
      name: 'reminder.send',
      title: 'Send a payment reminder',
      description: 'Email a payment reminder, 30 s after it is approved.',
      sideEffect: 'send',
      holdMs: 30_000,
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      prepare: (input: { to: string }) => ({ to: input.to }),
      deliver: (payload) => {
        delivered.push(payload);
        return { queued: true };
      },
    });
  const ask = async (
    tool = 'message.send',
    input: object = { to: 'ana@example.com', text: 'Your refund is on its way.' },
  ) => {
    const asked = await registry.propose(tool, input, {
      actor: 'agent:desk-bot',
      note: 'Customer asked twice.',
    });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    return asked as ConfirmRequired;
  };
  const advance = (ms: number) => {
    offset += ms;
  };
  return { slack, registry, delivered, ask, advance };
}
