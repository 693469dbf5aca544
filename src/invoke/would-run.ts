import type { CallerKind } from '../tool.js';

/**
 * What a dry call (`registry.check`) reached: every step before running passed; here is the input
 * as validated, and the rules' answer would have been `answer` (limits not counted).
 */
export class WouldRun {
  readonly input: Readonly<Record<string, unknown>>;
  readonly caller: CallerKind;
  readonly now: number;
  constructor(input: Readonly<Record<string, unknown>>, caller: CallerKind, now: number) {
    this.input = input;
    this.caller = caller;
    this.now = now;
  }
}
