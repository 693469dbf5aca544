import type { InvokeResult } from '../result.js';
import type { CallAnswers } from './answers.js';
import { Call, type Step } from './call.js';

/**
 * Runs a call through its steps, top to bottom, until one answers: the only place where sync and async
 * meet. A step that answers at once costs no promise; the last step's promise is handed back as is (it
 * never rejects), so a fast tool's call costs no extra turn. Past the last step, the call itself comes
 * back (`check` stops before the rules).
 */
export function runSteps(
  steps: readonly Step[],
  call: Call,
  answers: CallAnswers,
  from = 0,
): Call | InvokeResult | Promise<Call | InvokeResult> {
  const last = steps.length - 1;
  let current = call;
  for (let i = from; i <= last; i += 1) {
    let next: ReturnType<Step>;
    try {
      next = (steps[i] as Step)(current);
    } catch (error) {
      return thrown(answers, current, error);
    }
    if (next instanceof Call) {
      current = next;
      continue;
    }
    if (!(next instanceof Promise) || i === last) return next;
    const reached = current;
    return next.then(
      (settled) => (settled instanceof Call ? runSteps(steps, settled, answers, i + 1) : settled),
      (error: unknown) => thrown(answers, reached, error),
    );
  }
  return current;
}

const thrown = (answers: CallAnswers, call: Call, error: unknown) =>
  answers.unexpected(call, call.ctx, call.entry.tool.info.name, error);
