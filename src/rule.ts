import type { Origins } from './origins/origin.js';

/**
 * What a rule sees of one call: the validated input and who asks, where, with which flags, when, the
 * app's own `context`, and where each destination came from (`origins`). A CEL `when` reads the same
 * names (`input.amount > 500`, `actor`, `scope`, `flags.beta`, `tool`, `now`, `context.payees`,
 * `origins.recipient`); `actor` and `scope` are `''` there when the call gave none, `context` is `{}`.
 */
export interface RuleCall {
  readonly input: Readonly<Record<string, unknown>>;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
  /** The granted feature flags (only `true` ones). */
  readonly flags: Readonly<Record<string, true>>;
  /** The tool's internal name. */
  readonly tool: string;
  readonly now: Date;
  /**
   * The call's `ctx.context`, as the app handed it (what the app vouches for: the person's request,
   * their payees). A person's edit at confirm time is judged without it (it is not stored).
   */
  readonly context: unknown;
  /**
   * Within an agent run, for a tool with `destinations`: where each destination's value came from
   * (`origins.recipient[0].from === 'request'`). `{}` outside a run.
   */
  readonly origins: Origins;
}

/** When a rule applies: a CEL expression (compiled and type-checked at `register`) or a function. */
export type RuleCondition = string | ((call: RuleCall) => boolean);

/** The fixed window a limit counts in (UTC: a day starts at midnight UTC). */
export type LimitWindow = 'minute' | 'hour' | 'day';

/**
 * Whose count a limit keeps: per asking `actor`, per `scope`, one for the `tool`, or one `global`
 * count shared by every tool whose limit says `global` with the same measure and window.
 */
export type LimitKey = 'actor' | 'scope' | 'tool' | 'global';

/**
 * Whose count a limit keeps: a `LimitKey`; or one count per value of an input field (`'input.customer'`,
 * a path the input schema describes, to a string, number or boolean); or per value of a CEL expression
 * over the call (the names a `when` reads; it gives a string or an int); or, in code, per value a
 * function returns. A call whose value is missing, empty or not a single value is refused
 * (`RULE_DENIED`): it is never counted under a shared key.
 */
export type LimitBy = LimitKey | (string & {}) | ((call: RuleCall) => string | number);

/**
 * When a call counts: `'asked'` (default) when it is asked, for good; `'delivered'` when it is asked
 * too (so racing calls cannot pass the cap together), but given back when its confirmation ends
 * without going out — `rejected`, `expired`, `cancelled` in the undo window, or delivery `failed`. An
 * `unknown` delivery stays counted (it may have gone out). A call with no confirmation counts as asked.
 */
export type LimitCount = 'asked' | 'delivered';

/** At most `calls` calls per window. */
export interface CallLimit {
  readonly calls: number;
  readonly per: LimitWindow;
  readonly by: LimitBy;
  /** Default `'asked'`. */
  readonly count?: LimitCount;
}

/** At most `max` in total of `sum` (a CEL expression or a function giving a number ≥ 0) per window. */
export interface SumLimit {
  readonly sum: string | ((call: RuleCall) => number);
  readonly max: number;
  readonly per: LimitWindow;
  readonly by: LimitBy;
  /** Default `'asked'`. */
  readonly count?: LimitCount;
}

/**
 * One rule of a tool. A rule only ever tightens: it can refuse a call, limit how often or how much,
 * ask a person to confirm a `write`, or ask more (or flagged) people to approve — never let the model
 * reach a `write` or `send`, never let a `send` out without a person. Each rule does one thing:
 * `deny`, `limit`, `confirm`, or `approvals` / `approverFlags`.
 *
 * @example
 * ```ts
 * import type { Rule } from 'graded-tools';
 * const rules: Rule[] = [
 *   { when: 'input.amount > 500', approvals: 2, approverFlags: ['finance'] },
 *   { when: '!input.to.endsWith("@example.com")', deny: 'Refunds go only to example.com customers.' },
 *   { limit: { calls: 20, per: 'day', by: 'actor' } },
 *   { limit: { sum: 'input.amount', max: 500, per: 'day', by: 'input.customer', count: 'delivered' } },
 *   { when: 'input.amount > 10000', deny: 'Over 10,000: use the finance system.', mode: 'shadow' },
 * ];
 * ```
 */
export interface Rule {
  /** A name for events, `registry.check` and reports; default `#<position>` (from 1). */
  readonly name?: string;
  /** When the rule applies; omitted: always. A rule that throws or times out denies. */
  readonly when?: RuleCondition;
  /** Refuses the call with this reason (the model reads it for a read tool it can see). */
  readonly deny?: string;
  /** Counts calls (or a summed argument) and refuses past the limit with `LIMIT_REACHED`. */
  readonly limit?: CallLimit | SumLimit;
  /** A `write` tool's call goes to a person first: pending, confirmed, then `run` once. */
  readonly confirm?: boolean;
  /** How many different people must approve (a `send`, or a `write` this makes confirm). */
  readonly approvals?: number;
  /** Approvers must hold these feature flags. */
  readonly approverFlags?: readonly string[];
  /** `'shadow'`: evaluated and reported in a `rule` event, never enforced. Default `'enforce'`. */
  readonly mode?: 'enforce' | 'shadow';
}

/** What a rule asks of the people who approve: how many different ones, holding which flags. */
export interface ApprovalRequirement {
  /** Different people who must approve the same payload (at least 1). */
  readonly approvals: number;
  /** Feature flags each of them must hold. */
  readonly approverFlags: readonly string[];
  /** The rules that asked for more than one plain approval. */
  readonly rules: readonly string[];
}

/**
 * A rule as a reviewer reads it (`registry.get(name).rules`, `graded-tools access`): its name, mode,
 * condition as written (`'(function)'` for a function) and its one effect.
 */
export interface RuleInfo {
  readonly name: string;
  readonly mode: 'enforce' | 'shadow';
  readonly when?: string;
  readonly deny?: string;
  /** `by` as written (`'(function)'` for a function); `count` only when `'delivered'`. */
  readonly limit?:
    | {
        readonly calls: number;
        readonly per: LimitWindow;
        readonly by: LimitKey | (string & {});
        readonly count?: 'delivered';
      }
    | {
        readonly sum: string;
        readonly max: number;
        readonly per: LimitWindow;
        readonly by: LimitKey | (string & {});
        readonly count?: 'delivered';
      };
  readonly confirm?: true;
  readonly approvals?: number;
  readonly approverFlags?: readonly string[];
}
