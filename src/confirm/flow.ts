import { type ConfirmationAction, type EventListener, emitSafely } from '../events.js';
import { formatMessage, type Locale, type MessageParams } from '../messages/index.js';
import { type ErrorCode, failure } from '../result.js';
import type { Approval } from '../tool.js';
import type { ToolInfo } from '../tools/tool-info.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { ConfirmationStore } from './store.js';
import type { Confirmation, ConfirmationFailure } from './types.js';

/** A registered `send` tool as the confirmation path needs it. */
export interface SendToolHandle {
  readonly info: ToolInfo;
  readonly deliver: (payload: unknown, approval: Approval) => unknown;
}

/**
 * What the registry hands the confirmation path: its store, clock and settings, and a way to find a
 * send tool as registered *now* (so one unregistered or regated since is refused).
 */
export interface ConfirmFlow {
  readonly store: ConfirmationStore;
  readonly now: () => number;
  readonly ttlMs: number;
  readonly requireDigest: boolean;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly onEvent: EventListener | undefined;
  readonly sendTool: (name: string) => SendToolHandle | undefined;
  readonly describeError: (error: unknown, tool: string) => string;
}

/** Builds a failure in `locale`, carrying the confirmation when there is one. */
export function confirmationFailure(
  code: ErrorCode,
  params: MessageParams,
  locale: Locale,
  confirmation?: Confirmation,
): ConfirmationFailure {
  const base = failure(code, formatMessage(code, params, locale));
  return confirmation === undefined ? base : { ...base, confirmation };
}

/** The `STORE_FAILED` detail for what a store threw or rejected with. */
export function storeFailure(error: unknown): string {
  return describeThrown(error).slice(0, 500);
}

/**
 * A store call's value, or the `STORE_FAILED` detail: a store that throws never reaches the host. (The
 * confirmation round trip — create, get, claim, finish — awaits its store calls inside its own
 * `try` instead, to save this wrapper's promise and closure on every call.)
 */
export async function callStore<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; detail: string }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, detail: storeFailure(error) };
  }
}

/** Reports a confirmation step to the registry's listener, never breaking the call. */
export function emitConfirmation(
  flow: ConfirmFlow,
  action: ConfirmationAction,
  confirmation: Pick<Confirmation, 'id' | 'tool'>,
  by?: string,
): void {
  if (flow.onEvent === undefined) return;
  emitSafely(flow.onEvent, {
    type: 'confirmation',
    action,
    confirmationId: confirmation.id,
    tool: confirmation.tool,
    ...(by === undefined ? {} : { by }),
    at: flow.now(),
  });
}
