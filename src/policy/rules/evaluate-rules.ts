import { createHash } from 'node:crypto';
import type { ApprovalRequirement, RuleCall } from '../../rule.js';
import { describeThrown } from '../../util/describe-thrown.js';
import type { CompiledLimit, CompiledRule } from './compile-rules.js';
import { keyPartOf } from './limit-by.js';

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
  /** The value `by` gave, for a limit counted per value (`'cus-42'`). */
  readonly byValue?: string | number | boolean;
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
  const verdict = new Verdict();
  for (const rule of rules) {
    const applies = rule.when === undefined ? true : run(verdict, rule, rule.when, call);
    if (applies === false) continue;
    if (applies !== true) {
      verdict.fail(
        rule,
        isFailed(applies) ? applies.problem : `its condition gave ${typeof applies}, not a boolean`,
      );
      continue;
    }
    const { effect } = rule;
    const shadow = rule.mode === 'shadow';
    switch (effect.kind) {
      case 'deny':
        verdict.report(rule, 'deny', effect.reason);
        if (!shadow) verdict.denied ??= { rule: rule.name, reason: effect.reason, failed: false };
        break;
      case 'confirm':
        verdict.report(rule, 'confirm');
        if (!shadow) verdict.confirm ??= rule.name;
        break;
      case 'approve':
        verdict.report(rule, 'approvals');
        if (!shadow) verdict.ask(rule.name, effect.approvals, effect.approverFlags, effect.passkey);
        break;
      case 'limit': {
        const { limit } = effect;
        const amount = run(verdict, rule, limit.amount, call);
        const counted = typeof amount === 'bigint' ? Number(amount) : amount;
        if (typeof counted !== 'number' || !Number.isFinite(counted) || counted < 0) {
          if (isFailed(counted)) verdict.fail(rule, counted.problem);
          else {
            // The caller's own input gave it: saying which value is no leak, and says how to fix it.
            const problem = `its sum ${limit.measure} gave ${describeValue(counted)}, not a number of at least 0`;
            verdict.fail(rule, problem, `rule "${rule.name}": ${problem}, so the call is refused`);
          }
          break;
        }
        let byValue: string | number | boolean | undefined;
        if (limit.byValue !== undefined) {
          const given = run(verdict, rule, limit.byValue.run, call);
          const part = isFailed(given) ? given : keyPartOf(given);
          if (typeof part === 'object') {
            if (isFailed(given)) verdict.fail(rule, given.problem);
            else {
              // Never counted under a shared key: a call without its own value cannot be counted.
              const problem = `it counts per ${limit.by}, whose value ${part.problem}`;
              verdict.fail(rule, problem, `rule "${rule.name}" ${problem}, so the call is refused`);
            }
            break;
          }
          byValue = part;
        }
        verdict.limits ??= [];
        verdict.limits.push(limitUse({ rule, limit, call, amount: counted, shadow, byValue }));
        break;
      }
    }
  }
  return verdict.settle();
}

const NONE: readonly never[] = Object.freeze([]);

/** What the rules found so far; built without a closure per rule, as it runs on every call. */
class Verdict {
  denied: RuleVerdict['denied'];
  confirm: string | undefined;
  limits: LimitUse[] | undefined;
  /** The last reading of the clock for timed rules (0: none yet). */
  clock = 0;
  #approvals = 1;
  #passkey = false;
  #flags: Set<string> | undefined;
  #asking: string[] | undefined;
  #reports: RuleReport[] | undefined;

  report(rule: CompiledRule, decision: RuleReport['decision'], reason?: string): void {
    const { name, mode } = rule;
    this.#reports ??= [];
    this.#reports.push(
      reason === undefined ? { rule: name, mode, decision } : { rule: name, mode, decision, reason },
    );
  }

  /**
   * A rule that failed denies (fail closed); a shadow one only reports. The caller reads `told`, when
   * the problem is theirs to fix (a missing value), else only that the rule could not be evaluated.
   */
  fail(rule: CompiledRule, problem: string, told?: string): void {
    this.report(rule, 'error', problem);
    if (rule.mode === 'shadow') return;
    const reason = told ?? `rule "${rule.name}" could not be evaluated, so the call is refused`;
    this.denied ??= { rule: rule.name, reason, failed: true };
  }

  ask(rule: string, approvals: number, flags: readonly string[], passkey: boolean): void {
    this.#approvals = Math.max(this.#approvals, approvals);
    if (passkey) this.#passkey = true;
    this.#flags ??= new Set();
    for (const flag of flags) this.#flags.add(flag);
    this.#asking ??= [];
    this.#asking.push(rule);
  }

  settle(): RuleVerdict {
    const asking = this.#asking;
    const requirement =
      asking === undefined
        ? undefined
        : Object.freeze({
            approvals: this.#approvals,
            approverFlags: Object.freeze([...(this.#flags ?? [])].sort()),
            rules: Object.freeze(asking),
            ...(this.#passkey ? { passkey: true as const } : {}),
          });
    const { denied, confirm, limits } = this;
    return { denied, confirm, requirement, limits: limits ?? NONE, reports: this.#reports ?? NONE };
  }
}

/** Why a rule's expression or function failed. */
interface Failed {
  readonly problem: string;
}

const isFailed = (value: unknown): value is Failed =>
  typeof value === 'object' && value !== null && typeof (value as Failed).problem === 'string';

/**
 * Runs a rule's condition or sum: what it threw is a failure, and one the app wrote (a function, or
 * CEL that cel-js walks) is timed — closures compiled from CEL are bounded by construction.
 */
function run(
  verdict: Verdict,
  rule: CompiledRule,
  part: (call: RuleCall) => unknown,
  call: RuleCall,
): unknown {
  if (rule.timed && verdict.clock === 0) verdict.clock = performance.now();
  let value: unknown;
  try {
    value = part(call);
  } catch (error) {
    return { problem: describeThrown(error).slice(0, 300) };
  }
  if (!rule.timed) return value;
  // One reading of the clock per timed rule: each one's time runs from the reading before it.
  const now = performance.now();
  const took = now - verdict.clock;
  verdict.clock = now;
  return took > RULE_TIME_LIMIT_MS ? { problem: `it took longer than ${RULE_TIME_LIMIT_MS} ms` } : value;
}

/** A value a sum gave, in a few characters. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? (Array.isArray(value) ? 'a list' : 'an object') : String(value);
}

function limitUse(used: {
  readonly rule: CompiledRule;
  readonly limit: CompiledLimit;
  readonly call: RuleCall;
  readonly amount: number;
  readonly shadow: boolean;
  readonly byValue: string | number | boolean | undefined;
}): LimitUse {
  const { rule, limit, call, amount, shadow, byValue } = used;
  const now = call.now.getTime();
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const who =
    byValue !== undefined
      ? byValue
      : limit.by === 'actor'
        ? (call.actor ?? '')
        : limit.by === 'scope'
          ? (call.scope ?? '')
          : '';
  // A global count is shared by every tool that counts the same measure in the same window. The parts
  // are a JSON array, so no value (whatever separators it holds) can make another counter's key.
  const parts =
    limit.by === 'global'
      ? ['global', limit.measure, limit.per]
      : [call.tool, rule.name, limit.by, who, limit.per];
  const text = JSON.stringify(shadow ? ['shadow', ...parts] : parts);
  const key = text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
  const use = {
    rule: rule.name,
    shadow,
    limit,
    key,
    windowStart,
    windowEnd: windowStart + limit.windowMs,
    amount,
  };
  return byValue === undefined ? use : { ...use, byValue };
}
