import { refusalFor } from '../policy/gates.js';
import type { ToolRegistry } from '../registry.js';
import type { Plan } from './types.js';

/** Something about a plan that would fail before it runs. */
export interface PlanProblem {
  readonly seq: number;
  readonly tool: string;
  readonly code: 'UNKNOWN_TOOL' | 'SEND_REQUIRES_CONFIRM';
  readonly message: string;
}

/**
 * Checks a plan against a registry before anything runs: every step names a registered tool, and no
 * step is a `send` tool (a plan can never send; a person must start and confirm it).
 *
 * @example
 * ```ts
 * import { ToolRegistry, validatePlan } from 'graded-tools';
 * const { ok, problems } = validatePlan({ name: 'p', steps: [{ tool: 'nope.tool' }] }, new ToolRegistry());
 * ok; // false
 * problems[0]?.code; // 'UNKNOWN_TOOL'
 * ```
 */
export function validatePlan<Seed, AppContext>(
  plan: Plan<Seed, AppContext>,
  registry: ToolRegistry<AppContext>,
): { ok: boolean; problems: PlanProblem[] } {
  const problems: PlanProblem[] = [];
  for (const [seq, step] of plan.steps.entries()) {
    const tool = registry.get(step.tool);
    if (tool === undefined) {
      problems.push({
        seq,
        tool: step.tool,
        code: 'UNKNOWN_TOOL',
        message: `Step ${seq}: no tool named "${step.tool}" is registered.`,
      });
    } else if (refusalFor({ sideEffect: tool.sideEffect }, {}, 'plan') === 'SEND_REQUIRES_CONFIRM') {
      problems.push({
        seq,
        tool: tool.name,
        code: 'SEND_REQUIRES_CONFIRM',
        message: `Step ${seq}: "${tool.name}" is a send tool; a plan cannot send. Let a person invoke and confirm it.`,
      });
    }
  }
  return { ok: problems.length === 0, problems };
}
