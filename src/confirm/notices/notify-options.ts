import type { EscalationStep, Notifier, NotifyOptions } from '../../notice.js';
import { readEscalation } from '../../tools/escalation-steps.js';

/** The registry's `notify` option, checked once at startup. */
export interface NotifySettings {
  readonly notifiers: readonly Notifier[];
  readonly consoleUrl: string | undefined;
  readonly remindBeforeMs: number;
  readonly includePayload: boolean;
  /** The escalation steps of tools without their own (`notify.escalate`). */
  readonly escalate: readonly EscalationStep[] | undefined;
}

const NONE: NotifySettings = {
  notifiers: [],
  consoleUrl: undefined,
  remindBeforeMs: 0,
  includePayload: false,
  escalate: undefined,
};

/**
 * Reads `notify`, or says what is wrong with it (a mistake found at startup, never a silently
 * missing notification): channels are objects with `send`, `consoleUrl` an http(s) URL, and a
 * reminder comes before expiry.
 */
export function readNotifyOptions(value: unknown, ttlMs: number): NotifySettings | string {
  if (value === undefined) return NONE;
  if (typeof value !== 'object' || value === null) return '`notify` must be an object: { to: [channels], … }';
  const { to, consoleUrl, remindBeforeMs, includePayload, escalate } = value as Record<
    keyof NotifyOptions,
    unknown
  >;
  if (!Array.isArray(to) || to.length === 0) return '`notify.to` must list at least one channel';
  const notifiers = [...to];
  for (const notifier of notifiers) {
    if (
      typeof notifier !== 'object' ||
      notifier === null ||
      typeof (notifier as Notifier).send !== 'function'
    )
      return '`notify.to` must hold channels with a `send(notice)` (webhookNotifier, slackNotifier, emailNotifier …)';
  }
  let url: string | undefined;
  if (consoleUrl !== undefined) {
    if (typeof consoleUrl !== 'string' || !/^https?:\/\//i.test(consoleUrl) || !URL.canParse(consoleUrl))
      return '`notify.consoleUrl` must be the http(s) URL the approvals console is mounted at';
    url = consoleUrl.replace(/\/+$/, '');
  }
  const remind = remindBeforeMs ?? 0;
  if (typeof remind !== 'number' || !(remind >= 0) || remind >= ttlMs)
    return '`notify.remindBeforeMs` must be a number of milliseconds shorter than `confirmationTtlMs`';
  if (includePayload !== undefined && typeof includePayload !== 'boolean')
    return '`notify.includePayload` must be true or false';
  const steps = escalate === undefined ? undefined : readEscalation(escalate, 'notify.escalate');
  if (typeof steps === 'string') return steps;
  return {
    notifiers,
    consoleUrl: url,
    remindBeforeMs: remind,
    includePayload: includePayload === true,
    escalate: steps,
  };
}
