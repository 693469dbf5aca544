import type { Origins } from '../../confirmation.js';
import type { RuleCall } from '../../rule.js';

/** One call as its rules see it; `now` is made only if a rule reads it (most never do). */
class CallForRules implements RuleCall {
  readonly input: Readonly<Record<string, unknown>>;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
  readonly flags: Readonly<Record<string, true>>;
  readonly tool: string;
  readonly context: unknown;
  readonly origins: Origins;
  readonly #at: number;
  #now: Date | undefined;

  constructor(facts: Omit<RuleCall, 'now'>, at: number) {
    this.input = facts.input;
    this.actor = facts.actor;
    this.scope = facts.scope;
    this.flags = facts.flags;
    this.tool = facts.tool;
    this.context = facts.context;
    this.origins = facts.origins;
    this.#at = at;
  }

  get now(): Date {
    this.#now ??= new Date(this.#at);
    return this.#now;
  }
}

/** The call its rules see, at `at` (epoch ms from the registry's clock). */
export function ruleCall(facts: Omit<RuleCall, 'now'>, at: number): RuleCall {
  return new CallForRules(facts, at);
}
