import { type RegistryEvent, type SendToolDefinition, ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { manualClock } from '../setup.js';

/** What each delivery saw: the tool, the confirmation id, and which deliveries had finished before it. */
export interface Delivery {
  readonly tool: string;
  readonly id: string;
  readonly text: unknown;
}

/**
 * A finance desk for the bundle tests: `refund.issue` (rules: over 100 EUR needs two `finance`
 * approvers), `email.send`, `case.note` (a write), `invoices.read` (a read); every delivery recorded in
 * order, every event kept, a hand-moved clock. `behave` lets a test make a delivery throw or hang.
 */
export function bundleDesk(
  store: ConfirmationStore,
  options: {
    readonly holdMs?: number;
    /** `email.send`'s undo window, when it has one. */
    readonly emailHoldMs?: number;
    readonly behave?: (tool: string) => unknown;
    readonly timeoutMs?: number;
  } = {},
) {
  const clock = manualClock();
  const events: RegistryEvent[] = [];
  const deliveries: Delivery[] = [];
  const sender = (name: string, extra: Partial<SendToolDefinition> = {}): SendToolDefinition =>
    ({
      name,
      description: `Do ${name}.`,
      sideEffect: 'send',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, amount: { type: 'number' } },
        required: ['text'],
      },
      prepare: (input: { text: string; amount?: number }) => ({ ...input }),
      deliver: async (payload: { text: string }, approval: { confirmationId: string }) => {
        deliveries.push({ tool: name, id: approval.confirmationId, text: payload.text });
        return options.behave?.(name) ?? { done: true };
      },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...extra,
    }) as SendToolDefinition;
  const registry = new ToolRegistry({
    confirmations: store,
    now: clock.now,
    onEvent: (event) => {
      events.push(event);
    },
  })
    .register(
      sender('refund.issue', {
        rules: [{ when: 'input.amount > 100', approvals: 2, approverFlags: ['finance'] }],
        ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }),
      }),
    )
    .register(sender('email.send', options.emailHoldMs === undefined ? {} : { holdMs: options.emailHoldMs }))
    .register({
      name: 'case.note',
      description: 'Note on the case.',
      sideEffect: 'write',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      run: (input: { text: string }) => {
        deliveries.push({ tool: 'case.note', id: '', text: input.text });
        return { noted: true };
      },
    })
    .register({
      name: 'invoices.read',
      description: 'Read invoices.',
      sideEffect: 'read',
      inputSchema: { type: 'object', properties: {} },
      run: () => [],
    });
  const refundAndEmail = (amount = 150) => [
    { tool: 'refund.issue', input: { text: 'refund cus-42', amount } },
    { tool: 'email.send', input: { text: `We refunded ${amount} EUR.` } },
  ];
  return { registry, clock, events, deliveries, refundAndEmail };
}
