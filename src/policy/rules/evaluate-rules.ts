import { createHash } from 'node:crypto';
import { describeThrown } from '../../util/describe-thrown.js';
import type { CompiledLimit, CompiledRule } from './compile-rules.js';
import type { ApprovalRequirement, RuleCall } from './rule.js';

/** A rule that runs longer than this has failed, and so denies: evaluation must stay bounded. */
export const RULE_TIME_LIMIT_MS = 100;

/** One limit a call would count against: the counter, its window, and what the call adds. */
export interface LimitUse {
  readonly rule: string;
  readonly shadow: boolean;
  readonly limit: CompiledLimit;
  readonly key: string;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly amount: number;
}

/** What one rule decided about one call, for the `rule` event and `registry.check`. */
export interface RuleReport {
  readonly rule: string;
  readonly mode: 'enforce' | 'shadow';
  readonly decision: 'deny' | 'limit' | 'confirm' | 'approvals' | 'error';
  /** The deny reason, or for `error` what went wrong. */
  readonly reason?: string;
}

/** Everything the rules say about one call, before any limit is counted. */
export interface RuleVerdict {
  /** The first enforced rule that refused (or failed: a rule that throws denies). */
  readonly denied: { readonly rule: string; readonly reason: string; readonly failed: boolean } | undefined;
  /** The enforced rule that made a `write` go to a person first. */
  readonly confirm: string | undefined;
  /** What enforced rules asked of approvers, when more than one plain approval. */
  readonly requirement: ApprovalRequirement | undefined;
  /** The limits the call counts against (enforced and shadow). */
  readonly limits: readonly LimitUse[];
  /** Each rule that applied (or failed), in order. */
  readonly reports: readonly RuleReport[];
}

/**
 * What a tool's rules decide about one call: pure, and never throws. A rule applies when its `when`
 * gives `true`; one that throws, gives anything but a boolean, or runs past `RULE_TIME_LIMIT_MS`
 * denies (a shadow one only reports). Denies win; approvals take the largest count and every flag
 * asked; every applying limit counts.
 */
export function evaluateRules(rules: readonly CompiledRule[], call: RuleCall): RuleVerdict {
  let denied: RuleVerdict['denied'];
  let confirm: string | undefined;
  let approvals = 1;
  const approverFlags = new Set<string>();
  const asking: string[] = [];
  const limits: LimitUse[] = [];
  const reports: RuleReport[] = [];
  for (const rule of rules) {
    const shadow = rule.mode === 'shadow';
    const report = (decision: RuleReport['decision'], reason?: string) =>
      reports.push(
        reason === undefined
          ? { rule: rule.name, mode: rule.mode, decision }
          : { rule: rule.name, mode: rule.mode, decision, reason },
      );
    const failed = (detail: string) => {
      report('error', detail);
      denied ??= shadow
        ? undefined
        : {
            rule: rule.name,
            reason: `rule "${rule.name}" could not be evaluated, so the call is refused`,
            failed: true,
          };
    };
    const applies = rule.when === undefined ? true : bounded(() => rule.when?.(call));
    if (typeof applies !== 'boolean') {
      failed(isFailed(applies) ? applies.problem : `its condition gave ${typeof applies}, not a boolean`);
      continue;
    }
    if (!applies) continue;
    const { effect } = rule;
    switch (effect.kind) {
      case 'deny':
        report('deny', effect.reason);
        if (!shadow) denied ??= { rule: rule.name, reason: effect.reason, failed: false };
        break;
      case 'confirm':
        report('confirm');
        if (!shadow) confirm ??= rule.name;
        break;
      case 'approve':
        report('approvals');
        if (shadow) break;
        approvals = Math.max(approvals, effect.approvals);
        for (const flag of effect.approverFlags) approverFlags.add(flag);
        asking.push(rule.name);
        break;
      case 'limit': {
        const amount = bounded(() => effect.limit.amount(call));
        const counted = typeof amount === 'bigint' ? Number(amount) : amount;
        if (typeof counted !== 'number' || !Number.isFinite(counted) || counted < 0) {
          failed(
            isFailed(counted)
              ? counted.problem
              : `its sum gave ${String(counted)}, not a number of at least 0`,
          );
          break;
        }
        limits.push(limitUse(rule, effect.limit, call, counted, shadow));
        break;
      }
    }
  }
  const requirement =
    asking.length === 0
      ? undefined
      : Object.freeze({
          approvals,
          approverFlags: Object.freeze([...approverFlags].sort()),
          rules: Object.freeze(asking),
        });
  return { denied, confirm, requirement, limits, reports };
}

/** Why a rule's expression or function failed. */
interface Failed {
  readonly problem: string;
}

/** Runs one rule's expression or function, failing it when it throws or takes too long. */
function bounded(run: () => unknown): unknown {
  const started = performance.now();
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    return { problem: describeThrown(error).slice(0, 300) };
  }
  if (performance.now() - started > RULE_TIME_LIMIT_MS)
    return { problem: `it took longer than ${RULE_TIME_LIMIT_MS} ms` };
  if (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
    return { problem: 'it returned a promise: rules are synchronous' };
  return value;
}

const isFailed = (value: unknown): value is Failed =>
  typeof value === 'object' && value !== null && typeof (value as Failed).problem === 'string';

function limitUse(
  rule: CompiledRule,
  limit: CompiledLimit,
  call: RuleCall,
  amount: number,
  shadow: boolean,
): LimitUse {
  const now = call.now.getTime();
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const who = limit.by === 'actor' ? (call.actor ?? '') : limit.by === 'scope' ? (call.scope ?? '') : '';
  // A global count is shared by every tool that counts the same measure in the same window.
  const parts =
    limit.by === 'global'
      ? ['global', limit.measure, limit.per]
      : [call.tool, rule.name, limit.by, who, limit.per];
  const text = JSON.stringify(shadow ? ['shadow', ...parts] : parts);
  const key = text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
  return {
    rule: rule.name,
    shadow,
    limit,
    key,
    windowStart,
    windowEnd: windowStart + limit.windowMs,
    amount,
  };
}
