import { destinationKeys } from '../../origins/origins-in-run.js';
import { VALUE_KEYS } from '../../runs/identifiers.js';
import { describeThrown } from '../../util/describe-thrown.js';
import type { Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * The agent run a call names (`ctx.run`): read once, with its destinations' keys, its actor checked.
 * A call naming none passes on at once and stays synchronous.
 */
export function agentRun({ settings, answers }: StepKit): Step {
  return (call) => {
    const { run } = call.ctx;
    if (run === undefined) return call;
    const keys = destinationKeys(VALUE_KEYS, call.entry.tool.info.destinations ?? [], call.input);
    return settings.runs.find(run, call.ctx.actor, keys).then(
      (found) => {
        if (found === undefined) return answers.fail(call, 'RUN_NOT_FOUND', {});
        call.run = found;
        return call;
      },
      (error: unknown) => answers.fail(call, 'STORE_FAILED', { detail: describeThrown(error) }),
    );
  };
}
