import type { AuditSink } from '../audit/audit-sink.js';
import type { CountedLimit } from '../confirmation.js';
import { type EventListener, emitSafely } from '../events.js';
import type { MessageParams } from '../messages/index.js';
import type { CompiledRule } from '../policy/rules/compile-rules.js';
import {
  evaluateRules,
  type LimitUse,
  type RuleReport,
  type RuleVerdict,
} from '../policy/rules/evaluate-rules.js';
import type { ErrorCode, ToolFailure } from '../result.js';
import type { ApprovalRequirement, RuleCall } from '../rule.js';
import type { CallerKind, SideEffect } from '../tool.js';
import { describeThrown } from '../util/describe-thrown.js';
import { afterAuditingRefusal } from './audit-refusal.js';

/** Where limits are counted: the registry's confirmation store (the three stores have these). */
export interface LimitCounter {
  spendLimit?(spend: {
    readonly key: string;
    readonly windowStart: number;
    readonly windowEnd: number;
    readonly amount: number;
    readonly max: number;
  }): Promise<{ readonly ok: boolean; readonly used: number }>;
  refundLimit?(spend: {
    readonly key: string;
    readonly windowStart: number;
    readonly amount: number;
  }): Promise<void>;
  peekLimit?(key: string, windowStart: number): Promise<number>;
}

/** What the rules let the call do next. */
export type RulesAnswer =
  | {
      readonly kind: 'refuse';
      readonly code: ErrorCode;
      readonly params: MessageParams;
      readonly extra: Partial<ToolFailure>;
    }
  | {
      readonly kind: 'proceed';
      /** A `write` a rule sends to a person first. */
      readonly asksPerson: boolean;
      /** What the approvers must be, when more than one plain approval. */
      readonly requires: ApprovalRequirement | undefined;
      /** What was counted against limits that count on delivery: the confirmation keeps it. */
      readonly counted: readonly CountedLimit[];
    };

/** A tool without rules: nothing to add. */
export const NO_RULES: Extract<RulesAnswer, { kind: 'proceed' }> = {
  kind: 'proceed',
  asksPerson: false,
  requires: undefined,
  counted: [],
};

/** One call as the rules step needs it. */
export interface RuledCall {
  readonly rules: readonly CompiledRule[];
  readonly call: RuleCall;
  readonly grade: SideEffect;
  readonly caller: CallerKind;
  /** A person asks, or the call is a proposal: a write a rule sends to a person may wait for one. */
  readonly mayWaitForPerson: boolean;
  readonly counter: LimitCounter;
  readonly onEvent: EventListener | undefined;
  readonly now: number;
  /** Where an enforced refusal (deny, limit, a rule that failed) is appended to the audit log. */
  readonly audit?: AuditSink | undefined;
}

/**
 * The rules step of the one call path, after the input is validated and before anything runs:
 * evaluate, report, refuse on a deny, then count the limits — each in one conditional write of the
 * store, given back if a later limit of the same call refuses — and say whether a person comes first.
 * Synchronous unless a limit is counted.
 */
export function applyRules(ruled: RuledCall): RulesAnswer | Promise<RulesAnswer> {
  const verdict = evaluateRules(ruled.rules, ruled.call);
  report(ruled, verdict.reports);
  if (verdict.denied !== undefined) {
    const { rule, reason, failed } = verdict.denied;
    const refused: RulesAnswer = {
      kind: 'refuse',
      code: 'RULE_DENIED',
      params: { detail: reason },
      extra: { rule },
    };
    return afterAuditingRefusal(ruled, { rule, decision: failed ? 'error' : 'deny', reason }, refused);
  }
  const next = proceed(ruled, verdict);
  // Refused before any limit is counted: a call that cannot go on uses up nobody's allowance.
  if (next.asksPerson && !ruled.mayWaitForPerson)
    return {
      kind: 'refuse',
      code: 'SEND_REQUIRES_CONFIRM',
      params: { detail: 'rule' },
      extra: { requiresConfirm: true },
    };
  if (verdict.limits.length === 0) return next;
  const spent: LimitUse[] = [];
  return spendLimits(ruled, verdict.limits, spent).then((refused) => {
    if (refused !== undefined) return refused;
    const counted = spent.filter((use) => use.limit.count === 'delivered').map(countedLimit);
    return counted.length === 0 ? next : { ...next, counted };
  });
}

/** A spent use as the confirmation remembers it, to give it back exactly. */
export function countedLimit(use: LimitUse): CountedLimit {
  const { rule, key, windowStart, windowEnd, amount } = use;
  return { rule, key, windowStart, windowEnd, amount };
}

function proceed(ruled: RuledCall, verdict: RuleVerdict): Extract<RulesAnswer, { kind: 'proceed' }> {
  const asksPerson =
    ruled.grade === 'write' && (verdict.confirm !== undefined || verdict.requirement !== undefined);
  if (!asksPerson && verdict.requirement === undefined) return NO_RULES;
  return { kind: 'proceed', asksPerson, requires: verdict.requirement, counted: [] };
}

/** Who counts a call's limits, and where a refusal is reported and logged. */
export type LimitSpender = Pick<RuledCall, 'caller' | 'counter' | 'onEvent' | 'now' | 'audit'> & {
  readonly call: Pick<RuleCall, 'tool' | 'actor'>;
};

/**
 * Counts every limit in order; on the first refusal gives back what was counted, and says why. Also
 * counts what a person's edit adds to a call's limits (`judgeEdit`). `spent` receives each use counted.
 */
export async function spendLimits(
  ruled: LimitSpender,
  uses: readonly LimitUse[],
  spent: LimitUse[] = [],
): Promise<Extract<RulesAnswer, { kind: 'refuse' }> | undefined> {
  const { counter } = ruled;
  for (const use of uses) {
    let outcome: { readonly ok: boolean; readonly used: number };
    try {
      if (counter.spendLimit === undefined) throw new Error('this confirmation store keeps no limits');
      const { key, windowStart, windowEnd, amount } = use;
      outcome = await counter.spendLimit({
        key,
        windowStart,
        windowEnd,
        amount,
        max: use.shadow ? Number.POSITIVE_INFINITY : use.limit.max,
      });
    } catch (error) {
      const detail = describeThrown(error).slice(0, 500);
      if (use.shadow) {
        // A shadow rule never refuses: not even when its count cannot be kept.
        const reason = `${limitInWords(use)}: the call could not be counted (${detail})`;
        report(ruled, [{ rule: use.rule, mode: 'shadow', decision: 'error', reason }]);
        continue;
      }
      await refund(counter, spent);
      return {
        kind: 'refuse',
        code: 'STORE_FAILED',
        params: { detail },
        extra: {},
      };
    }
    if (use.shadow) {
      if (outcome.used > use.limit.max)
        report(ruled, [
          { rule: use.rule, mode: 'shadow', decision: 'limit', reason: limitState(use, outcome.used) },
        ]);
      spent.push(use);
      continue;
    }
    if (!outcome.ok) {
      await refund(counter, spent);
      const reason = limitState(use, outcome.used);
      report(ruled, [{ rule: use.rule, mode: 'enforce', decision: 'limit', reason }]);
      await afterAuditingRefusal(ruled, { rule: use.rule, decision: 'limit', reason }, undefined);
      const resetsAt = new Date(use.windowEnd).toISOString();
      return {
        kind: 'refuse',
        code: 'LIMIT_REACHED',
        params: { detail: limitInWords(use), until: resetsAt },
        extra: { rule: use.rule, resetsAt },
      };
    }
    spent.push(use);
  }
  return undefined;
}

/** Takes back what was counted; a refund that fails leaves the count tighter, never looser. */
export async function refund(
  counter: LimitCounter,
  spent: readonly Pick<LimitUse, 'key' | 'windowStart' | 'amount'>[],
): Promise<void> {
  for (const { key, windowStart, amount } of spent) {
    try {
      await counter.refundLimit?.({ key, windowStart, amount });
    } catch {
      // A refund that fails leaves the count higher than it should be: tighter, never looser.
    }
  }
}

/** `at most 20 calls per day per actor` / `at most 500 of input.amount per day per input.customer ("cus-42")`. */
export function limitInWords(use: LimitUse): string {
  const { limit } = use;
  const what = limit.measure === 'calls' ? `${limit.max} calls` : `${limit.max} of ${limit.measure}`;
  const value = use.byValue === undefined ? '' : ` (${JSON.stringify(use.byValue)})`;
  return `at most ${what} per ${limit.per} per ${limit.by}${value}`;
}

function limitState(use: LimitUse, used: number): string {
  return `${limitInWords(use)}: ${used} used, this call adds ${use.amount}`;
}

function report(ruled: LimitSpender, reports: readonly RuleReport[]): void {
  const { onEvent } = ruled;
  if (onEvent === undefined || reports.length === 0) return;
  for (const { rule, mode, decision, reason } of reports) {
    emitSafely(onEvent, {
      type: 'rule',
      tool: ruled.call.tool,
      caller: ruled.caller,
      rule,
      decision,
      enforced: mode === 'enforce',
      ...(reason === undefined ? {} : { reason }),
      at: ruled.now,
    });
  }
}
