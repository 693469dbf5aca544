import type { Confirmation } from '../../confirmation.js';
import type { EscalationStep } from '../../notice.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import type { EscalationPlan } from '../../tools/escalation-steps.js';
import type { RegisteredTool } from '../../tools/registered-tool.js';
import type { FlowContext } from '../flow-context.js';

/** One tool's escalation steps, as registered now (its own `escalate`, or the registry's). */

/**
 * The plans of the tools registered now that may have confirmations — send tools, and write tools
 * whose rules can send them to a person — each with its own `escalate` or else `fallback`.
 */
export function escalationPlans(
  tools: Iterable<RegisteredTool>,
  fallback: readonly EscalationStep[] | undefined,
): EscalationPlan[] {
  const plans: EscalationPlan[] = [];
  for (const { info, escalate, rules } of tools) {
    if (info.sideEffect === 'read' || (info.sideEffect === 'write' && rules.length === 0)) continue;
    const steps = escalate ?? fallback;
    if (steps !== undefined) plans.push({ tool: info.name, steps });
  }
  return plans;
}

/**
 * Claims and announces the escalation steps that are due, step by step in order: each claimed in the
 * store (one conditional write per confirmation and step, so several instances send it once), then
 * told to that step's channels, reported as a `confirmation` event `escalated`.
 */
export async function escalateDue(
  ctx: FlowContext,
): Promise<{ readonly confirmation: Confirmation; readonly step: number }[]> {
  const { store } = ctx;
  if (!hasCapability(store, 'escalations')) return [];
  const escalated: { confirmation: Confirmation; step: number }[] = [];
  const now = ctx.now();
  for (const { tool, steps } of ctx.escalations()) {
    for (const [i, { afterMs, to }] of steps.entries()) {
      const step = i + 1;
      const marked = await store.escalateDue({ now, step, olderThan: now - afterMs, tool });
      for (const confirmation of marked) {
        ctx.notices?.escalated(confirmation, { step, afterMs }, to);
        await ctx.emit('escalated', confirmation);
        escalated.push({ confirmation, step });
      }
    }
  }
  return escalated;
}
