// A registry with four send tools, wired to Teams approvals pointed at the fake Bot Framework.
import { type ConfirmRequired, ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { type TeamsPerson, teamsApprovals } from 'graded-tools/teams';
import { expect } from 'vitest';
import { APP_ID, APP_PASSWORD, CONVERSATION, type FakeBotFramework } from './fake-bot-framework.js';

/** The app's directory: Entra object id → approver. `nobody-guid` is nobody; `broken-guid` throws. */
export const DIRECTORY: Record<string, TeamsPerson> = {
  'li-guid': { id: 'li', name: 'Li', flags: { finance: true } },
  'wu-guid': { id: 'wu', name: 'Wu', flags: { finance: true } },
  'ana-guid': { id: 'ana', name: 'Ana' },
};

export function teamsDesk(
  fake: FakeBotFramework,
  options: { store?: ConfirmationStore; consoleUrl?: string; locale?: 'en' | 'zh-CN' } = {},
) {
  const delivered: unknown[] = [];
  let offset = 0;
  const teams = teamsApprovals({
    registry: () => registry,
    appId: APP_ID,
    appPassword: APP_PASSWORD,
    serviceUrl: fake.serviceUrl,
    conversationId: CONVERSATION,
    person: (entraObjectId) => {
      if (entraObjectId === 'broken-guid') throw new Error('directory down');
      return DIRECTORY[entraObjectId];
    },
    openIdMetadataUrl: fake.openIdMetadataUrl,
    tokenUrl: fake.tokenUrl,
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  });
  const registry = new ToolRegistry({
    ...(options.store === undefined ? {} : { confirmations: options.store }),
    notify: {
      to: [teams.notifier],
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
        properties: { to: { type: 'string', title: 'Recipient' }, text: { type: 'string', minLength: 1 } },
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
      name: 'refund.send',
      title: 'Refund a customer',
      description: 'Refund a customer; two people approve it, and either may edit the amount.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      prepare: (input: { amount: number }) => ({ amount: input.amount }),
      payloadSchema: {
        type: 'object',
        properties: { amount: { type: 'number', title: 'Amount' } },
        required: ['amount'],
        additionalProperties: false,
      },
      editable: ['amount'],
      rules: [{ name: 'two-people', approvals: 2 }],
      deliver: (payload) => {
        delivered.push(payload);
        return { refunded: true };
      },
    })
    .register({
      name: 'wire.send',
      title: 'Wire money',
      description: 'Wire money to a supplier; approved with a passkey in the console only.',
      sideEffect: 'send',
      passkey: true,
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      prepare: (input: { amount: number }) => ({ amount: input.amount }),
      deliver: (payload) => {
        delivered.push(payload);
        return { wired: true };
      },
    })
    .register({
      name: 'letter.send',
      title: 'Send a letter',
      description: 'Email a letter of any length to a customer.',
      sideEffect: 'send',
      inputSchema: { type: 'object', additionalProperties: { type: 'string' } },
      prepare: (input: Record<string, string>) => ({ ...input }),
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
  return { teams, registry, delivered, ask, advance };
}
