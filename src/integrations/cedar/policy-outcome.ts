import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { Rule } from '../../rule.js';
import type { CedarPolicy } from './read-policy-set.js';

/** What a matching policy asks of a call: a `deny`, or `approvals` / `approverFlags`. */
export type PolicyOutcome = Pick<Rule, 'deny' | 'approvals' | 'approverFlags'>;

/**
 * What a policy does when it matches, read from its effect and annotations: a `forbid` denies with its
 * `@reason`; a `permit` asks for `@approvals("2")` and `@approverFlags("finance, legal")`, and without
 * them asks for nothing (`undefined`), since a rule only tightens. Throws `ToolDefinitionError` for an
 * annotation that cannot be read or would be ignored where it stands.
 */
export function policyOutcome(policy: CedarPolicy, name: string): PolicyOutcome | undefined {
  const { reason, approvals, approverFlags } = policy.annotations;
  if (policy.effect === 'forbid') {
    if (approvals !== undefined || approverFlags !== undefined) {
      invalid(name, 'a `forbid` denies: `@approvals` and `@approverFlags` belong on a `permit`.');
    }
    if (reason === '')
      invalid(name, '`@reason` needs the text the caller is told, e.g. @reason("Over limit.").');
    return { deny: reason ?? `Denied by Cedar policy ${name}.` };
  }
  if (reason !== undefined) {
    invalid(name, 'a `permit` never denies: `@reason` belongs on a `forbid`.');
  }
  if (approvals === undefined && approverFlags === undefined) return undefined;
  const outcome: { approvals?: number; approverFlags?: readonly string[] } = {};
  if (approvals !== undefined) {
    if (!/^[1-9][0-9]{0,5}$/.test(approvals)) {
      invalid(
        name,
        `\`@approvals\` must be a whole number of people from 1, e.g. @approvals("2") (got "${approvals}").`,
      );
    }
    outcome.approvals = Number(approvals);
  }
  if (approverFlags !== undefined) {
    const flags = approverFlags
      .split(',')
      .map((flag) => flag.trim())
      .filter((flag) => flag !== '');
    if (flags.length === 0) {
      invalid(
        name,
        '`@approverFlags` must name feature flags, comma-separated, e.g. @approverFlags("finance").',
      );
    }
    outcome.approverFlags = flags;
  }
  return outcome;
}

function invalid(name: string, message: string): never {
  throw new ToolDefinitionError('INVALID_OPTION', '', `Cedar policy ${name}: ${message}`);
}
