import type { EventListener } from '../events.js';
import type { Locale } from '../messages/index.js';
import { type Telemetry, withConfirmationSteps } from '../telemetry/telemetry.js';
import { ApprovalLinks } from './approval-links.js';
import { ApproverNotices } from './approver-notices.js';
import { ConfirmationFlow } from './confirmation-flow.js';
import type { SendToolHandle } from './flow-context.js';
import { createMemoryStore } from './memory-store.js';
import type { NotifySettings } from './notify-options.js';
import type { ConfirmationStore } from './store.js';

/** The registry's settings the confirmation path reads (the registry's own, read once). */
export interface ConfirmationPathSettings {
  readonly confirmations: ConfirmationStore | undefined;
  readonly now: () => number;
  readonly confirmationTtlMs: number;
  readonly requireDigest: boolean;
  readonly requireDifferentApprover: boolean;
  readonly notify: NotifySettings;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly onEvent: EventListener | undefined;
  readonly describeError: (error: unknown, tool: string) => string;
  readonly telemetry: Telemetry | undefined;
}

/** What the registry's tool table tells the confirmation path, always as registered now. */
export interface ConfirmationPathTools {
  readonly sendTool: (name: string) => SendToolHandle | undefined;
  readonly titleOf: (tool: string) => string;
  readonly longestSendTimeoutMs: () => number;
}

/**
 * The confirmation path as a registry holds it: the flow (ask, approve, decide, sweeps, read view)
 * over one store — a new memory store when none is given — and the one-time links issued on it.
 */
export function createConfirmationPath(
  settings: ConfirmationPathSettings,
  tools: ConfirmationPathTools,
): { readonly flow: ConfirmationFlow; readonly links: ApprovalLinks; readonly store: ConfirmationStore } {
  const store = settings.confirmations ?? createMemoryStore();
  const { notify, locale, now, onEvent } = settings;
  const flow = new ConfirmationFlow({
    store,
    now,
    ttlMs: settings.confirmationTtlMs,
    requireDigest: settings.requireDigest,
    requireDifferentApprover: settings.requireDifferentApprover,
    notices:
      notify.notifiers.length === 0
        ? undefined
        : new ApproverNotices({
            notifiers: notify.notifiers,
            consoleUrl: notify.consoleUrl,
            includePayload: notify.includePayload,
            locale,
            onEvent,
            now,
            titleOf: tools.titleOf,
          }),
    remindBeforeMs: notify.remindBeforeMs,
    locale,
    defaultTimeoutMs: settings.defaultTimeoutMs,
    onEvent: withConfirmationSteps(onEvent, settings.telemetry),
    sendTool: tools.sendTool,
    longestSendTimeoutMs: tools.longestSendTimeoutMs,
    describeError: settings.describeError,
    telemetry: settings.telemetry,
  });
  const links = new ApprovalLinks({
    store,
    now,
    locale,
    onEvent,
    check: (kind, asked) => flow.checkLink(kind, asked),
  });
  return { flow, links, store };
}
