import { toIso } from './iso-time.js';
import type { Notifier } from './notice.js';
import type { ConfirmationHistoryEntry } from './types.js';

/**
 * One step of an escalation: a confirmation still pending `afterMs` after it was created is announced
 * to `to` (by `registry.sweep()`, once across instances).
 */
export interface EscalationStep {
  /** Milliseconds after `createdAt`; each step's is larger than the one before. */
  readonly afterMs: number;
  /** The channels told at this step (a lead's Slack, an on-call mailbox …). */
  readonly to: readonly Notifier[];
}

/** What a store is asked to mark: step `step` (1 for the first) of `tool`'s pending confirmations. */
export interface EscalationClaim {
  readonly now: number;
  /** The step's number: 1 for the first entry of `escalate`. */
  readonly step: number;
  /** Only confirmations created at or before this (epoch ms: `now - afterMs`). */
  readonly olderThan: number;
  /** Only confirmations of this tool. */
  readonly tool: string;
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

/** The history entry an escalation leaves: still pending, by no one, which step was announced. */
export function escalationEntry(now: number, step: number): ConfirmationHistoryEntry {
  return { at: toIso(now), status: 'pending', escalated: { step } };
}

/** A tool's escalation steps, in order. */
export interface EscalationPlan {
  readonly tool: string;
  readonly steps: readonly EscalationStep[];
}
