import {
  type ConfirmRequired,
  createMemoryStore,
  type InvokeResult,
  type RegistryEvent,
  type RegistryOptions,
  type SendToolDefinition,
  ToolRegistry,
} from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';
import { expect } from 'vitest';
import { createSupportDeskData, createSupportDeskRegistry } from '../../examples/support-desk-registry.js';

export const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** A clock the test moves by hand: expiry and staleness without sleeping. */
export function manualClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** The support desk with a hand-moved clock, its own store and every event recorded. */
export function desk(options: RegistryOptions = {}) {
  const clock = manualClock();
  const events: RegistryEvent[] = [];
  const store = options.confirmations ?? createMemoryStore();
  const data = createSupportDeskData();
  const registry = createSupportDeskRegistry(data, {
    now: clock.now,
    onEvent: (event) => {
      events.push(event);
    },
    ...options,
    confirmations: store,
  });
  const ask = async (text = 'Your refund is on its way.', ctx = {}) =>
    expectConfirmRequired(
      await registry.invoke(
        'message.send',
        { conversationId: 'c-1001', text },
        { scope: 'desk', actor: 'agent-7', ...ctx },
      ),
    );
  const confirmationEvents = () =>
    events.filter((e) => e.type === 'confirmation').map((e) => (e.type === 'confirmation' ? e.action : ''));
  return { registry, store, data, clock, events, confirmationEvents, ask };
}

export function expectConfirmRequired(result: InvokeResult): ConfirmRequired {
  expect(result).toMatchObject({ ok: true, requiresConfirm: true });
  return result as ConfirmRequired;
}

/** A send tool that records every delivery and can be told how to behave. */
export function recordingSendTool(
  name = 'mail.send',
  behave: (payload: unknown, call: number) => unknown = () => ({ sent: true }),
  extra: Partial<SendToolDefinition> = {},
) {
  const deliveries: { payload: unknown; confirmationId: string; approvedBy: string }[] = [];
  const tool: SendToolDefinition = {
    name,
    description: `Send ${name}.`,
    sideEffect: 'send',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    prepare: (input: unknown) => ({ text: (input as { text?: string }).text ?? '' }),
    deliver: (payload, approval) => {
      deliveries.push({ payload, confirmationId: approval.confirmationId, approvedBy: approval.approvedBy });
      return behave(payload, deliveries.length);
    },
    ...extra,
  } as SendToolDefinition;
  return { tool, deliveries };
}

/** A registry around one tool, a hand-moved clock and a store. */
export function registryWith(
  tool: SendToolDefinition,
  options: RegistryOptions = {},
  store?: ConfirmationStore,
) {
  const clock = manualClock();
  const events: RegistryEvent[] = [];
  const registry = new ToolRegistry({
    now: clock.now,
    onEvent: (e) => {
      events.push(e);
    },
    confirmations: store ?? createMemoryStore(),
    ...options,
  }).register(tool);
  return { registry, clock, events };
}
