import type { RuleInfo } from '../../rule.js';
import type { CompiledRule } from './compile-rules.js';

export type { RuleInfo } from '../../rule.js';

/** The reviewer's view of a compiled rule. */
export function describeRule(rule: CompiledRule): RuleInfo {
  const head = {
    name: rule.name,
    mode: rule.mode,
    ...(rule.whenSource === undefined ? {} : { when: rule.whenSource }),
  };
  const { effect } = rule;
  switch (effect.kind) {
    case 'deny':
      return Object.freeze({ ...head, deny: effect.reason });
    case 'confirm':
      return Object.freeze({ ...head, confirm: true as const });
    case 'approve':
      return Object.freeze({
        ...head,
        approvals: effect.approvals,
        approverFlags: effect.approverFlags,
        ...(effect.passkey ? { passkey: true as const } : {}),
      });
    case 'limit': {
      const { measure, max, per, by, count } = effect.limit;
      const counted = count === 'delivered' ? { count } : {};
      const limit =
        measure === 'calls'
          ? { calls: max, per, by, ...counted }
          : { sum: measure, max, per, by, ...counted };
      return Object.freeze({ ...head, limit: Object.freeze(limit) });
    }
  }
}

/**
 * One line in words: `when input.amount > 500: 2 approvals from finance`. For the access report, the
 * CLI and the console.
 */
export function ruleInWords(rule: RuleInfo): string {
  const when = rule.when === undefined ? 'always' : `when ${rule.when}`;
  const shadow = rule.mode === 'shadow' ? ' (shadow: reported, not enforced)' : '';
  let effect: string;
  if (rule.deny !== undefined) effect = `deny: ${rule.deny}`;
  else if (rule.confirm === true) effect = 'a person confirms first';
  else if (rule.limit !== undefined) {
    const { limit } = rule;
    const what = 'calls' in limit ? `${limit.calls} calls` : `${limit.max} of ${limit.sum}`;
    const counted = limit.count === 'delivered' ? ' (counted on delivery: given back when not sent)' : '';
    effect = `at most ${what} per ${limit.per} per ${limit.by}${counted}`;
  } else {
    const flags = rule.approverFlags ?? [];
    effect = `${rule.approvals ?? 1} approval${rule.approvals === 1 ? '' : 's'}${flags.length > 0 ? ` from ${flags.join(', ')}` : ''}${rule.passkey === true ? ', each signed with a passkey' : ''}`;
  }
  return `${rule.name} ${when}: ${effect}${shadow}`;
}
