import type { Origins } from '../confirmation.js';
import type { CallerKind } from '../tool.js';

/**
 * What a dry call (`registry.check`) reached: every step before running passed; here is the input
 * as validated, and the rules' answer would have been `answer` (limits not counted).
 */
export class WouldRun {
  readonly input: Readonly<Record<string, unknown>>;
  readonly caller: CallerKind;
  readonly now: number;
  /** The call's `ctx.context` and its destinations' origins, as its rules would read them. */
  readonly context: unknown;
  readonly origins: Origins;
  constructor(
    input: Readonly<Record<string, unknown>>,
    facts: { caller: CallerKind; now: number; context: unknown; origins: Origins },
  ) {
    this.input = input;
    this.caller = facts.caller;
    this.now = facts.now;
    this.context = facts.context;
    this.origins = facts.origins;
  }
}
