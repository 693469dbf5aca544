import type { JsonSchema } from '../../json-schema.js';
import type { LimitCount, LimitKey, LimitWindow, RuleCall } from '../../rule.js';
import type { SideEffect } from '../../tool.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isRecord } from '../../util/is-record.js';
import { compileCel } from './cel.js';
import { compileLimitBy, fieldSchema, inputPath, type LimitByValue } from './limit-by.js';

/** The most rules one tool may hold: each is evaluated on every call. */
export const MAX_RULES = 50;
const MAX_REASON_LENGTH = 500;
const MAX_APPROVALS = 20;
const WINDOWS: Readonly<Record<LimitWindow, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
const KEYS: readonly LimitKey[] = ['actor', 'scope', 'tool', 'global'];

/** A limit as compiled: what one call adds to the count, and within what. */
export interface CompiledLimit {
  /** `'calls'`, or the `sum` expression's source (`'(function)'` for a function). */
  readonly measure: string;
  readonly amount: (call: RuleCall) => unknown;
  readonly max: number;
  readonly per: LimitWindow;
  readonly windowMs: number;
  /** `by` as written: a `LimitKey`, an input path, a CEL source, or `'(function)'`. */
  readonly by: LimitKey | (string & {});
  /** For a `by` other than a `LimitKey`: what gives the call's value (the counter it counts in). */
  readonly byValue: LimitByValue | undefined;
  /** When the call counts: at asking for good, or given back when its confirmation does not go out. */
  readonly count: LimitCount;
  /** The sum (or `by`) runs code that may take long. */
  readonly timed: boolean;
}

/** What the rules may check a `by` path against: the tool's input schema, as `register` read it. */
export interface RuleInput {
  readonly json: JsonSchema;
  /** A Standard Schema's JSON form may be partial: a path it does not describe is trusted. */
  readonly isStandard: boolean;
}

/** What a rule does when it applies. */
export type RuleEffect =
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'limit'; readonly limit: CompiledLimit }
  | { readonly kind: 'confirm' }
  | {
      readonly kind: 'approve';
      readonly approvals: number;
      readonly approverFlags: readonly string[];
      /** Each approver signs with a passkey. */
      readonly passkey: boolean;
    };

/** A rule as `register` compiled it: frozen, its condition a function. */
export interface CompiledRule {
  readonly name: string;
  readonly mode: 'enforce' | 'shadow';
  /** The `when` as written (a CEL source, or `'(function)'`); undefined: always. */
  readonly whenSource: string | undefined;
  readonly when: ((call: RuleCall) => unknown) | undefined;
  readonly effect: RuleEffect;
  /** Runs code that may take long (a function, or CEL that cel-js walks): each run is timed. */
  readonly timed: boolean;
}

/** Why a rule cannot be registered; `register` throws it as a `ToolDefinitionError` naming the rule. */
export class RuleProblem {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/**
 * Compiles a tool's `rules`: every CEL expression is parsed and type-checked now, each rule's one
 * effect is checked against the tool's grade (`confirm` is for `write` tools; `approvals` and
 * `approverFlags` for `send` tools, or a `write` tool they make confirm). Returns the frozen rules, or
 * the first problem naming its rule.
 */
export function compileRules(
  raw: unknown,
  grade: SideEffect,
  input: RuleInput = { json: {}, isStandard: true },
): readonly CompiledRule[] | RuleProblem {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_RULES)
    return new RuleProblem(`\`rules\` must be an array of at most ${MAX_RULES} rules`);
  const compiled: CompiledRule[] = [];
  const names = new Set<string>();
  for (const [index, rule] of [...(raw as unknown[])].entries()) {
    const label = `rule #${index + 1}`;
    let one: CompiledRule | string;
    try {
      one = isRecord(rule) ? compileRule(rule, index, grade, input) : 'must be an object';
    } catch (error) {
      one = `could not be read: ${describeThrown(error).slice(0, 200)}`;
    }
    if (typeof one === 'string') {
      const named = isRecord(rule) && typeof rule.name === 'string' ? `rule "${rule.name}"` : label;
      return new RuleProblem(`${named} ${one}`);
    }
    if (names.has(one.name)) return new RuleProblem(`two rules are named "${one.name}"`);
    names.add(one.name);
    compiled.push(one);
  }
  return Object.freeze(compiled);
}

function compileRule(
  rule: Record<string, unknown>,
  index: number,
  grade: SideEffect,
  input: RuleInput,
): CompiledRule | string {
  const { name, when, deny, limit, confirm, approvals, approverFlags, passkey, mode } = rule;
  if (name !== undefined && (typeof name !== 'string' || name === '' || name.length > 100))
    return '`name` must be a non-empty string of at most 100 characters';
  if (mode !== undefined && mode !== 'enforce' && mode !== 'shadow')
    return "`mode` must be 'enforce' or 'shadow'";
  const condition = compileCondition(when);
  if (typeof condition === 'string') return condition;
  const effect = compileEffect({ deny, limit, confirm, approvals, approverFlags, passkey }, grade, input);
  if (typeof effect === 'string') return effect;
  return Object.freeze({
    name: (name as string | undefined) ?? `#${index + 1}`,
    mode: (mode as 'shadow' | undefined) ?? 'enforce',
    whenSource: condition?.source,
    when: condition?.run,
    effect,
    timed: condition?.timed === true || (effect.kind === 'limit' && effect.limit.timed),
  });
}

function compileCondition(
  when: unknown,
): { source: string; run: (call: RuleCall) => unknown; timed: boolean } | undefined | string {
  if (when === undefined) return undefined;
  if (typeof when === 'function') {
    const run = when as (call: RuleCall) => unknown;
    return { source: '(function)', run: (call) => run(call), timed: true };
  }
  const program = compileCel(when, ['bool']);
  if ('problem' in program) return `\`when\`: ${program.problem}`;
  return { source: when as string, run: program.run, timed: !program.closures };
}

function compileEffect(
  fields: Record<'deny' | 'limit' | 'confirm' | 'approvals' | 'approverFlags' | 'passkey', unknown>,
  grade: SideEffect,
  input: RuleInput,
): RuleEffect | string {
  const { deny, limit, confirm, approvals, approverFlags, passkey } = fields;
  const asks = approvals !== undefined || approverFlags !== undefined || passkey !== undefined;
  const given = [deny !== undefined, limit !== undefined, confirm !== undefined, asks].filter(Boolean).length;
  if (given !== 1)
    return 'must do exactly one thing: `deny`, `limit`, `confirm`, or `approvals`/`approverFlags`/`passkey`';
  if (deny !== undefined) {
    if (
      typeof deny !== 'string' ||
      deny.trim() === '' ||
      deny.length > MAX_REASON_LENGTH ||
      /[\p{Cc}]/u.test(deny)
    )
      return `\`deny\` must be a reason: one line of at most ${MAX_REASON_LENGTH} characters`;
    return { kind: 'deny', reason: deny };
  }
  if (limit !== undefined) {
    const compiled = compileLimit(limit, grade, input);
    return typeof compiled === 'string' ? compiled : { kind: 'limit', limit: compiled };
  }
  if (confirm !== undefined) {
    if (confirm !== true) return '`confirm` must be `true` (omit the rule otherwise)';
    if (grade !== 'write')
      return grade === 'send'
        ? '`confirm` is for write tools: a send is always confirmed (use `approvals` to ask for more people)'
        : '`confirm` is for write tools: a read changes nothing a person must confirm';
    return { kind: 'confirm' };
  }
  if (grade === 'read') return '`approvals`, `approverFlags` and `passkey` are for send and write tools';
  if (passkey !== undefined && passkey !== true) return '`passkey` must be `true` (omit it otherwise)';
  const count = approvals ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_APPROVALS)
    return `\`approvals\` must be a whole number from 1 to ${MAX_APPROVALS}`;
  const flags = approverFlags ?? [];
  if (
    !Array.isArray(flags) ||
    flags.length > 20 ||
    !flags.every((flag) => typeof flag === 'string' && flag !== '' && flag.length <= 100)
  )
    return '`approverFlags` must be an array of feature flag names';
  return {
    kind: 'approve',
    approvals: count,
    approverFlags: Object.freeze([...new Set(flags as string[])]),
    passkey: passkey === true,
  };
}

function compileLimit(limit: unknown, grade: SideEffect, input: RuleInput): CompiledLimit | string {
  if (!isRecord(limit)) return '`limit` must be `{ calls, per, by }` or `{ sum, max, per, by }`';
  const { calls, sum, max, per, by, count } = limit;
  if (typeof per !== 'string' || !Object.hasOwn(WINDOWS, per))
    return "`limit.per` must be 'minute', 'hour' or 'day'";
  const byValue = KEYS.includes(by as LimitKey) ? undefined : compileLimitBy(by, input);
  if (typeof byValue === 'string') return byValue;
  if (count !== undefined && count !== 'asked' && count !== 'delivered')
    return "`limit.count` must be 'asked' or 'delivered'";
  if (count === 'delivered' && grade === 'read')
    return "`limit.count: 'delivered'` is for send and write tools: a read is never confirmed, so it counts when asked";
  const window = {
    per: per as LimitWindow,
    windowMs: WINDOWS[per as LimitWindow],
    by: byValue === undefined ? (by as LimitKey) : byValue.source,
    byValue,
    count: (count as LimitCount | undefined) ?? 'asked',
  };
  const byTimed = byValue?.timed === true;
  if (calls !== undefined) {
    if (sum !== undefined || max !== undefined)
      return '`limit` counts `calls` or a `sum` up to `max`, not both';
    if (typeof calls !== 'number' || !Number.isInteger(calls) || calls < 1)
      return '`limit.calls` must be a whole number of at least 1';
    return Object.freeze({ measure: 'calls', amount: () => 1, max: calls, ...window, timed: byTimed });
  }
  if (typeof max !== 'number' || !Number.isFinite(max) || max <= 0)
    return '`limit.max` must be a positive number';
  if (typeof sum === 'function') {
    const run = sum as (call: RuleCall) => unknown;
    return Object.freeze({
      measure: '(function)',
      amount: (call: RuleCall) => run(call),
      max,
      ...window,
      timed: true,
    });
  }
  const program = compileCel(sum, ['int', 'uint', 'double']);
  if ('problem' in program) return `\`limit.sum\`: ${program.problem}`;
  const notNumber = sumFieldProblem(sum as string, input);
  if (notNumber !== undefined) return notNumber;
  return Object.freeze({
    measure: sum as string,
    amount: program.run,
    max,
    ...window,
    timed: byTimed || !program.closures,
  });
}

/** A `sum` that is a plain input path to a field the schema types as something other than a number. */
function sumFieldProblem(sum: string, input: RuleInput): string | undefined {
  const path = inputPath(sum);
  if (path === undefined) return undefined;
  const field = fieldSchema(input.json, path);
  if (field === undefined || !isRecord(field) || field.type === undefined) return undefined;
  const types = Array.isArray(field.type) ? field.type : [field.type];
  if (types.some((type) => type === 'number' || type === 'integer')) return undefined;
  return `\`limit.sum\` reads ${sum}, which the input schema types as ${types.join(' or ')}, not a number`;
}
