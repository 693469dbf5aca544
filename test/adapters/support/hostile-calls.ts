import type { InvokeEvent, ToolRegistry } from 'graded-tools';
import {
  createSupportDeskData,
  createSupportDeskRegistry,
  type SupportDeskData,
} from '../../../examples/support-desk-registry.js';

/** The name rule OpenAI, Anthropic and Gemini all accept (and the tests hold every name to). */
export const PROVIDER_NAME_RULE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Wire names of the support desk's tools the model must never reach. */
export const WRITE_AND_SEND_WIRE_NAMES = ['ticket__submit', 'message__send'];

/**
 * Names a hostile or confused model sends. Under `DESK_CONTEXT` the model may call `session__fetch`
 * only: `kb__search` is hidden (its flag is not granted).
 */
export const HOSTILE_NAMES: readonly { readonly label: string; readonly name: unknown }[] = [
  { label: 'hallucinated', name: 'delete_everything' },
  { label: 'hidden by a feature flag', name: 'kb__search' },
  { label: 'write wire name', name: 'ticket__submit' },
  { label: 'send wire name', name: 'message__send' },
  { label: 'internal dotted name', name: 'message.send' },
  { label: 'illegal characters', name: 'kb search<script>' },
  { label: 'empty', name: '' },
  { label: 'too long', name: `a${'b'.repeat(80)}` },
  { label: 'prototype key', name: '__proto__' },
  { label: 'constructor', name: 'constructor' },
  { label: 'not a string', name: 42 },
];

/** The context most adapter tests use: the desk scope, no `kb` flag. */
export const DESK_CONTEXT = { scope: 'desk' } as const;

/** A support desk registry with its data and every invoke event recorded. */
export interface Desk {
  readonly registry: ToolRegistry;
  readonly data: SupportDeskData;
  readonly events: InvokeEvent[];
}

/** A fresh support desk (see `examples/support-desk-registry.ts`) that records its events. */
export function createDesk(): Desk {
  const data = createSupportDeskData();
  const events: InvokeEvent[] = [];
  const registry = createSupportDeskRegistry(data, {
    onEvent: (event) => void (event.type === 'invoke' && events.push(event)),
  });
  return { registry, data, events };
}

/** Nothing that writes or sends ran: no ticket, no outbox entry, no successful write/send event. */
export function assertNothingWrittenOrSent(desk: Desk): string[] {
  const problems: string[] = [];
  if (desk.data.tickets.length > 0) problems.push('a ticket was written');
  if (desk.data.outbox.length > 0) problems.push('a message was delivered');
  for (const event of desk.events) {
    if ((event.tool === 'ticket.submit' || event.tool === 'message.send') && event.outcome !== 'refused')
      problems.push(`${event.tool} ended ${event.outcome}`);
  }
  return problems;
}

/** The tools the model's exit ran to their end (not a refusal, not invalid input), in order. */
export function ranTools(events: readonly { tool: string; outcome: string }[]): string[] {
  return events.filter((event) => event.outcome === 'ok').map((event) => event.tool);
}
