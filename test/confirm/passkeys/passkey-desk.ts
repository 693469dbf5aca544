import { type ConfirmRequired, ToolRegistry } from 'graded-tools';
import { createPasskeys } from 'graded-tools/passkeys';
import type { ConfirmationStore } from 'graded-tools/store';
import { expect } from 'vitest';
import { SoftwareAuthenticator } from '../../fixtures/software-authenticator.js';
import { manualClock } from '../setup.js';

export const PLACE = { rpID: 'localhost', origin: 'http://localhost:8787' } as const;

/**
 * A registry with passkeys on `store`: `mail.send` asks for a passkey on every send (tool-level),
 * `pay.send` asks two approvers with passkeys over 500 (a rule). Deliveries are recorded.
 */
export function passkeyDesk(store: ConfirmationStore) {
  const clock = manualClock(Date.now());
  const sent: { tool: string; payload: unknown; approvedBy: string }[] = [];
  const registry = new ToolRegistry({
    confirmations: store,
    now: clock.now,
    passkeys: createPasskeys({ rpID: PLACE.rpID, rpName: 'Test approvals', origin: PLACE.origin }),
  });
  const send = (name: string) => ({
    name,
    description: `Send ${name}.`,
    sideEffect: 'send' as const,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, amount: { type: 'number' } },
    } as const,
    prepare: (input: { text?: string; amount?: number }) => ({
      text: input.text ?? '',
      amount: input.amount ?? 0,
    }),
    deliver: (payload: unknown, approval: { approvedBy: string }) => {
      sent.push({ tool: name, payload, approvedBy: approval.approvedBy });
      return { sent: true };
    },
  });
  registry.register({ ...send('mail.send'), passkey: true });
  registry.register({
    ...send('pay.send'),
    rules: [{ when: 'input.amount > 500', approvals: 2, passkey: true }],
  });
  registry.register(send('note.send'));
  // The approver may change `text` before approving: the passkey then signs the edited payload.
  registry.register({
    ...send('memo.send'),
    passkey: true,
    editable: ['text'],
    payloadSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, amount: { type: 'number' } },
      required: ['text', 'amount'],
      additionalProperties: false,
    },
  });
  // Fails its first delivery: a retry re-delivers what the passkey approved.
  let flakyCalls = 0;
  registry.register({
    ...send('flaky.send'),
    passkey: true,
    deliver: (payload: unknown, approval: { approvedBy: string }) => {
      flakyCalls += 1;
      if (flakyCalls === 1) throw new Error('downstream said no');
      sent.push({ tool: 'flaky.send', payload, approvedBy: approval.approvedBy });
      return { sent: true };
    },
  });

  const ask = async (tool = 'mail.send', input: object = { text: 'Hello' }): Promise<ConfirmRequired> => {
    const asked = await registry.invoke(tool, input, { actor: 'agent-7' });
    expect(asked).toMatchObject({ ok: true, requiresConfirm: true });
    return asked as ConfirmRequired;
  };

  /** A person with a registered passkey. */
  const enrol = async (approver: string) => {
    const authenticator = new SoftwareAuthenticator(PLACE);
    const options = await registry.passkeys.registrationOptions({
      approver,
      displayName: approver.toUpperCase(),
    });
    if (!options.ok) throw new Error(options.error);
    const registered = await registry.passkeys.register({
      approver,
      response: authenticator.register(options.options),
    });
    if (!registered.ok) throw new Error(registered.error);
    return authenticator;
  };

  /** The challenge for `approver` to approve confirmation `asked`, as options for the authenticator. */
  const challenge = async (approver: string, asked: { confirmationId: string; digest: string }) => {
    const made = await registry.passkeys.challenge({
      confirmationId: asked.confirmationId,
      approver,
      digest: asked.digest,
    });
    if (!made.ok) throw new Error(`${made.code}: ${made.error}`);
    return made.options;
  };

  return { registry, store, clock, sent, ask, enrol, challenge };
}
