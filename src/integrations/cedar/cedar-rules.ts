import { checkParseEntities, type EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { Rule } from '../../rule.js';
import { isRecord } from '../../util/is-record.js';
import { describeCedarErrors } from './describe-cedar-errors.js';
import { createEvaluator } from './evaluate-policies.js';
import { policyOutcome } from './policy-outcome.js';
import { type CedarPolicy, readPolicySet } from './read-policy-set.js';

/** An entity the policies may refer to, in Cedar's JSON entity format. */
export type CedarEntity = EntityJson;

/** Options of {@link cedarRules}. */
export interface CedarRulesOptions {
  /** Cedar policies as text: `permit` and `forbid` statements (templates are not supported). */
  readonly policies: string;
  /** Entities for `principal in Group::"finance"` and attribute reads, e.g. `User::"li"` in a group. */
  readonly entities?: readonly CedarEntity[];
}

/**
 * Turns Cedar policies into rules, evaluated by `@cedar-policy/cedar-wasm`. Each call is the request
 * `User::"<actor>"` doing `Action::"invoke"` on `Tool::"<tool name>"` with context
 * `{ input, scope, flags }` (`''` for a missing actor or scope). A matching `forbid` denies with its
 * `@reason("…")`; a matching `permit` with `@approvals("2")` and/or `@approverFlags("finance, legal")`
 * asks for those; a plain `permit` asks for nothing — Cedar's default deny does not apply, a rule only
 * tightens. One rule per such policy, named `cedar:<@id or policy0, policy1, …>`.
 *
 * Cedar has no null and no fractions: a `null` in the input is left out; a number that is not a safe
 * integer reaches Cedar as a String, so comparing it with a Long is an error. A policy that errors
 * (`context.input.amount` missing, such a comparison) or an input Cedar cannot take makes its rule
 * throw, which denies: fail closed. Guard optional fields with `has`. Throws `ToolDefinitionError`
 * (`INVALID_OPTION`) for policies or entities that do not parse or annotations it cannot read.
 *
 * @example
 * ```ts
 * import { cedarRules } from 'graded-tools/cedar';
 * const rules = cedarRules({
 *   policies: `
 *     @reason("Over 10,000: use the finance system.")
 *     forbid (principal, action, resource == Tool::"refund.send")
 *     when { context.input.amount > 10000 };
 *
 *     @approvals("2") @approverFlags("finance")
 *     permit (principal, action, resource == Tool::"refund.send")
 *     when { context.input.amount > 500 };`,
 * });
 * console.log(rules.map((rule) => rule.name)); // ['cedar:policy0', 'cedar:policy1']
 * ```
 */
export function cedarRules(options: CedarRulesOptions): Rule[] {
  if (!isRecord(options)) invalid('cedarRules takes `{ policies, entities? }`.');
  const entities = readEntities(options.entities);
  const policies = readPolicySet(options.policies);
  const named = policies.map((policy) => ({ policy, name: nameOf(policy) }));
  const seen = new Set<string>();
  for (const { name } of named) {
    if (seen.has(name)) invalid(`Two Cedar policies are named ${name}: give each a different @id.`);
    seen.add(name);
  }
  const ruling = named.flatMap(({ policy, name }) => {
    const outcome = policyOutcome(policy, name);
    return outcome === undefined ? [] : [{ policy, name, outcome }];
  });
  const evaluate = createEvaluator(
    ruling.map(({ policy }) => policy),
    entities,
  );
  return ruling.map(({ policy, name, outcome }) => ({
    name,
    when: (call) => {
      const { matched, failed } = evaluate(call);
      const error = failed.get(policy.id);
      if (error !== undefined) throw new Error(`Cedar policy ${name} could not be evaluated: ${error}`);
      return matched.has(policy.id);
    },
    ...outcome,
  }));
}

function nameOf(policy: CedarPolicy): string {
  const id = policy.annotations.id;
  return `cedar:${id === undefined || id === '' ? policy.id : id}`;
}

function readEntities(entities: unknown): EntityJson[] {
  if (entities === undefined) return [];
  if (!Array.isArray(entities)) invalid('`entities` must be an array of Cedar entities.');
  // A copy: later changes to the caller's array do not change what the rules decide.
  const copy = structuredClone(entities) as EntityJson[];
  const parsed = checkParseEntities({ entities: copy });
  if (parsed.type === 'failure')
    invalid(`Cedar entities could not be parsed: ${describeCedarErrors(parsed.errors)}`);
  return copy;
}

function invalid(message: string): never {
  throw new ToolDefinitionError('INVALID_OPTION', '', message);
}
