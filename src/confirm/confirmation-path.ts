import { type AuditSink, auditSink } from '../audit/audit-sink.js';
import type { EventListener } from '../events.js';
import type { Locale } from '../messages/index.js';
import { createMemoryStore } from '../stores/memory/memory-store.js';
import type { ConfirmationStore } from '../stores/store.js';
import { type Telemetry, withConfirmationSteps } from '../telemetry/telemetry.js';
import type { RegisteredTool } from '../tools/registered-tool.js';
import { ConfirmationFlow } from './confirmation-flow.js';
import type { SendToolHandle } from './flow-context.js';
import { ApprovalLinks } from './links/approval-links.js';
import { ApproverNotices } from './notices/approver-notices.js';
import type { NotifySettings } from './notices/notify-options.js';
import { escalationPlans } from './sweeps/escalations.js';

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
  readonly sideEffectOf: (tool: string) => string | undefined;
  readonly longestDeliveryTimeoutMs: () => number;
  /** The tools registered now, for their escalation steps. */
  readonly registered: () => Iterable<RegisteredTool>;
}

/**
 * The confirmation path as a registry holds it: the flow (ask, approve, decide, sweeps, read view)
 * over one store — a new memory store when none is given — and the one-time links issued on it.
 */
export function createConfirmationPath(
  settings: ConfirmationPathSettings,
  tools: ConfirmationPathTools,
): {
  readonly flow: ConfirmationFlow;
  readonly links: ApprovalLinks;
  readonly store: ConfirmationStore;
  /** Where the invoke path appends rule refusals (each decision's entry commits with it in the store). */
  readonly audit: AuditSink | undefined;
} {
  const store = settings.confirmations ?? createMemoryStore();
  const audit = auditSink(store.audit, settings.onEvent, settings.now);
  const { notify, locale, now, onEvent } = settings;
  const flow = new ConfirmationFlow({
    store,
    now,
    ttlMs: settings.confirmationTtlMs,
    requireDigest: settings.requireDigest,
    requireDifferentApprover: settings.requireDifferentApprover,
    // Always: a tool's own `escalate` needs the notices even when the registry has no `notify.to`.
    notices: new ApproverNotices({
      notifiers: notify.notifiers,
      consoleUrl: notify.consoleUrl,
      includePayload: notify.includePayload,
      locale,
      onEvent,
      now,
      titleOf: tools.titleOf,
      sideEffectOf: tools.sideEffectOf,
    }),
    remindBeforeMs: notify.remindBeforeMs,
    escalations: () => escalationPlans(tools.registered(), notify.escalate),
    locale,
    defaultTimeoutMs: settings.defaultTimeoutMs,
    onEvent: withConfirmationSteps(onEvent, settings.telemetry),
    sendTool: tools.sendTool,
    longestDeliveryTimeoutMs: tools.longestDeliveryTimeoutMs,
    describeError: settings.describeError,
    telemetry: settings.telemetry,
    audit,
  });
  const links = new ApprovalLinks({
    store,
    now,
    locale,
    onEvent,
    check: (kind, asked) => flow.checkLink(kind, asked),
  });
  return { flow, links, store, audit };
}
