import type { EscalationStep, Notifier } from '../notice.js';

/** A tool's escalation steps, in order. */
export interface EscalationPlan {
  readonly tool: string;
  readonly steps: readonly EscalationStep[];
}

/**
 * Reads an `escalate` option (a tool's, or the registry's `notify.escalate`) into frozen steps, or says
 * what is wrong with it: steps in order, each `afterMs` positive and larger than the one before, each
 * `to` a non-empty list of channels with `send`.
 */
export function readEscalation(value: unknown, where: string): readonly EscalationStep[] | string {
  if (!Array.isArray(value) || value.length === 0)
    return `\`${where}\` must list at least one step: [{ afterMs, to: [channels] }]`;
  const steps: EscalationStep[] = [];
  let previous = 0;
  for (const [i, step] of [...(value as unknown[])].entries()) {
    const at = `${where}[${i}]`;
    if (typeof step !== 'object' || step === null) return `\`${at}\` must be an object: { afterMs, to }`;
    const { afterMs, to } = step as Record<keyof EscalationStep, unknown>;
    if (typeof afterMs !== 'number' || !Number.isFinite(afterMs) || afterMs <= previous)
      return i === 0
        ? `\`${at}.afterMs\` must be a positive number of milliseconds`
        : `\`${at}.afterMs\` must be larger than the step before's (${previous})`;
    if (!Array.isArray(to) || to.length === 0) return `\`${at}.to\` must list at least one channel`;
    const channels = [...(to as unknown[])];
    if (!channels.every(isNotifier))
      return `\`${at}.to\` must hold channels with a \`send(notice)\` (webhookNotifier, slackNotifier, emailNotifier …)`;
    steps.push(Object.freeze({ afterMs, to: Object.freeze(channels) }));
    previous = afterMs;
  }
  return Object.freeze(steps);
}

function isNotifier(value: unknown): value is Notifier {
  return typeof value === 'object' && value !== null && typeof (value as Notifier).send === 'function';
}
