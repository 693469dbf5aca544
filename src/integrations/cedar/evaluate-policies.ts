import { type CedarValueJson, type EntityJson, isAuthorized } from '@cedar-policy/cedar-wasm/nodejs';
import type { RuleCall } from '../../rule.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { describeCedarErrors } from './describe-cedar-errors.js';
import type { CedarPolicy } from './read-policy-set.js';
import { toCedarRecord, toCedarValue } from './to-cedar-value.js';

/** One call's answer: the policies that matched, and those that could not be evaluated (with why). */
export interface Evaluation {
  readonly matched: ReadonlySet<string>;
  readonly failed: ReadonlyMap<string, string>;
}

/**
 * Evaluates the policies against a call, once per call object: every rule made from the set asks the
 * same question. The request is `User::"<actor>"` doing `Action::"invoke"` on `Tool::"<tool>"`, with
 * `{ input, scope, flags, origins, app }` as context (`''` for a missing actor or scope; `app` the
 * call's `ctx.context` when Cedar can read it). Throws when Cedar cannot take the request at all (an
 * input it cannot read).
 */
export function createEvaluator(
  policies: readonly CedarPolicy[],
  entities: EntityJson[],
): (call: RuleCall) => Evaluation {
  // Forbids and permits go to Cedar apart: its answer names only the policies that decided, so a
  // matching forbid would hide the permits that matched too.
  const sets = (['forbid', 'permit'] as const)
    .map((effect) => policies.filter((policy) => policy.effect === effect))
    .filter((set) => set.length > 0)
    .map((set) => Object.fromEntries(set.map((policy) => [policy.id, policy.text])));
  const answers = new WeakMap<RuleCall, Evaluation | Error>();
  // Cedar's first evaluation in a process takes seconds (the wasm warming up): pay it here, at setup,
  // not inside the first call's rule, whose time limit would deny it.
  try {
    evaluate({
      input: {},
      actor: undefined,
      scope: undefined,
      flags: {},
      tool: 'warm.up',
      now: new Date(0),
      context: undefined,
      origins: {},
    });
  } catch {
    // Only the warming counts; a real call reports its own errors.
  }
  return (call) => {
    let answer = answers.get(call);
    if (answer === undefined) {
      try {
        answer = evaluate(call);
      } catch (error) {
        answer = error instanceof Error ? error : new Error(describeThrown(error));
      }
      answers.set(call, answer);
    }
    if (answer instanceof Error) throw answer;
    return answer;
  };

  /** The app's `ctx.context` as a Cedar value, or left out when Cedar cannot read it (a policy reading it errors). */
  function appContext(value: unknown): CedarValueJson | undefined {
    if (value === undefined) return undefined;
    try {
      return toCedarValue(value, 'context.app');
    } catch {
      return undefined;
    }
  }

  function evaluate(call: RuleCall): Evaluation {
    const context = toCedarRecord(
      { input: call.input, scope: call.scope ?? '', flags: call.flags, origins: call.origins },
      'context',
    );
    const app = appContext(call.context);
    if (app !== undefined) context.app = app;
    const matched = new Set<string>();
    const failed = new Map<string, string>();
    for (const staticPolicies of sets) {
      const answer = isAuthorized({
        principal: { type: 'User', id: call.actor ?? '' },
        action: { type: 'Action', id: 'invoke' },
        resource: { type: 'Tool', id: call.tool },
        context,
        policies: { staticPolicies },
        entities,
      });
      if (answer.type === 'failure') {
        throw new Error(`Cedar could not evaluate the call: ${describeCedarErrors(answer.errors)}`);
      }
      for (const id of answer.response.diagnostics.reason) matched.add(id);
      for (const { policyId, error } of answer.response.diagnostics.errors) {
        failed.set(policyId, describeCedarErrors([error]));
      }
    }
    return { matched, failed };
  }
}
