import { ArgumentsProblem, readArguments } from '../arguments.js';
import type { Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/** The arguments: a JSON string or an object, read within the registry's limits. */
export function argumentsStep({ settings, answers }: StepKit): Step {
  return (call) => {
    const parsed = readArguments(call.input, settings.limits);
    if (parsed instanceof ArgumentsProblem)
      return answers.fail(call, 'INVALID_ARGUMENTS', { detail: parsed.detail });
    call.input = parsed;
    return call;
  };
}
