import { validateStandard } from '../../validation/standard-schema.js';
import type { CompiledValidator } from '../../validation/validator.js';
import type { Call, Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * The input against the tool's Standard Schema. `deferAsync`: nothing between this step and the run
 * reads the input (no rules, no egress), so a check that answers with a promise is awaited under the
 * run's guard, where the timeout and the caller's signal cover it too.
 */
export function validateStandardSchema({ answers }: StepKit, deferAsync: boolean): Step {
  return (call) => {
    const { standard, info } = call.entry.tool;
    const verdict = validateStandard(standard as NonNullable<typeof standard>, call.input);
    if (!(verdict instanceof Promise)) {
      if (!verdict.valid) return answers.invalidInput(call, verdict.issues);
      call.input = verdict.value;
      return call;
    }
    // A call naming a run reads it with the input, and a proposed write asks a person with it.
    const proposedWrite = call.proposal !== undefined && info.sideEffect === 'write';
    if (deferAsync && call.ctx.run === undefined && !proposedWrite) {
      call.pendingVerdict = verdict;
      return call;
    }
    return verdict.then(
      (checked) => {
        if (!checked.valid) return answers.invalidInput(call, checked.issues);
        call.input = checked.value;
        return call;
      },
      (error: unknown) => answers.unexpected(call, call.ctx, info.name, error),
    );
  };
}

/** The input against the tool's JSON Schema, compiled once and shared between identical schemas. */
export function validateJsonSchema(kit: StepKit): Step {
  const { settings, answers } = kit;
  const checked = (call: Call, validator: CompiledValidator | string) => {
    if (typeof validator === 'string') return answers.fail(call, 'SCHEMA_ERROR', { detail: validator });
    const verdict = validator(call.input);
    return verdict.valid ? call : answers.invalidInput(call, verdict.issues);
  };
  return (call) => {
    const validator = settings.table.validatorOf(call.entry);
    // A promise only until the validator's engine has loaded (the first JSON Schema call).
    if (validator instanceof Promise) return validator.then((loaded) => checked(call, loaded));
    return checked(call, validator);
  };
}
