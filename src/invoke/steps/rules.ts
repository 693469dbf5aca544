import { NO_ORIGINS } from '../../origins/origins-in-run.js';
import { ruleCall } from '../../policy/rules/rule-call.js';
import { applyRules, type RulesAnswer } from '../apply-rules.js';
import type { Call, Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * The rules, after validation and the destinations, before anything runs: a refusal ends the call;
 * otherwise what they ask of the approvers, what they counted, and whether a person comes first.
 * Synchronous unless a limit is counted.
 */
export function rules({ settings, answers }: StepKit): Step {
  const ruled = (call: Call, answer: RulesAnswer) => {
    if (answer.kind === 'refuse') return answers.fail(call, answer.code, answer.params, answer.extra);
    call.requires = answer.requires;
    call.counted = answer.counted;
    call.asksPerson = answer.asksPerson;
    return call;
  };
  return (call) => {
    const { ctx } = call;
    const { tool } = call.entry;
    const now = settings.now();
    const answer = applyRules({
      rules: tool.rules,
      call: ruleCall(
        {
          input: call.input as Record<string, unknown>,
          actor: ctx.actor,
          scope: ctx.scope,
          flags: ctx.flags,
          tool: tool.info.name,
          context: ctx.context,
          origins: call.origins ?? NO_ORIGINS,
        },
        now,
      ),
      grade: tool.info.sideEffect,
      caller: ctx.caller,
      mayWaitForPerson: ctx.caller === 'person' || call.proposal !== undefined,
      counter: call.counter,
      audit: settings.audit,
      onEvent: settings.onEvent,
      now,
    });
    if (!(answer instanceof Promise)) return ruled(call, answer);
    return answer.then((settled) => ruled(call, settled));
  };
}
