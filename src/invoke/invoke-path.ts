import { formatMessage } from '../messages/index.js';
import { NO_ORIGINS } from '../origins/origins-in-run.js';
import { type CallContext, readCallContext } from '../policy/call-context.js';
import { failure, type InvokeResult } from '../result.js';
import type { CallerKind } from '../tool.js';
import type { ToolEntry } from '../tools/tool-table.js';
import { CallAnswers } from './answers.js';
import type { LimitCounter } from './apply-rules.js';
import type { AskConfirmation } from './ask-confirmation.js';
import { Call, type ProposalAbout } from './call.js';
import { stepChooser, type ToolSteps } from './choose-steps.js';
import type { InvokeSettings } from './invoke-settings.js';
import { runSteps } from './run-steps.js';
import { WouldRun } from './would-run.js';

export type { ProposalAbout } from './call.js';
export type { InvokeSettings } from './invoke-settings.js';

/**
 * Who asked: `'invoke'` (a person, or autonomous when the context says so), a fixed caller kind, or
 * `'propose'`: an autonomous caller asking for a send or a write, which is stored for a person and
 * never run here.
 */
export type Asked = 'invoke' | CallerKind | 'propose';

/**
 * The one call path, for every caller: resolve, then the tool's own list of steps (`choose-steps.ts`)
 * — gates → arguments → validate → its agent run → destinations → rules → ask | run — run by
 * `runSteps`. It never throws, and without a run it is synchronous up to the tool's own work: a tool
 * that returns a plain value costs no promise of ours, one that returns a promise costs one race.
 */
export class InvokePath {
  readonly #settings: InvokeSettings;
  readonly #answers: CallAnswers;
  readonly #choose: (entry: ToolEntry) => ToolSteps;
  readonly #steps = new WeakMap<ToolEntry, ToolSteps>();

  constructor(settings: InvokeSettings) {
    this.#settings = settings;
    this.#answers = new CallAnswers(settings);
    this.#choose = stepChooser({ settings, answers: this.#answers });
  }

  /**
   * Calls `name` as `asked`; `about` only with `'propose'`; `ask` and `counter` for a bundle's own
   * confirmations and counts.
   */
  invoke(
    asked: Asked,
    name: unknown,
    input: unknown,
    rawCtx: unknown,
    about?: ProposalAbout,
    ask?: AskConfirmation,
    counter?: LimitCounter,
  ): Promise<InvokeResult> {
    const outcome = this.#attempt(asked, name, input, rawCtx, about, ask, counter, false);
    return outcome instanceof Promise
      ? (outcome as Promise<InvokeResult>)
      : Promise.resolve(outcome as InvokeResult);
  }

  /**
   * `registry.check`'s walk: the steps up to the rules, nothing run or counted. What the call would
   * reach the rules with, or the answer a step before them gave.
   */
  async reach(
    asked: Asked,
    name: unknown,
    input: unknown,
    rawCtx: unknown,
    about?: ProposalAbout,
  ): Promise<InvokeResult | WouldRun> {
    const reached = await this.#attempt(asked, name, input, rawCtx, about, undefined, undefined, true);
    if (!(reached instanceof Call)) return reached;
    const { ctx } = reached;
    return new WouldRun(reached.input as Record<string, unknown>, {
      caller: ctx.caller,
      now: this.#settings.now(),
      context: ctx.context,
      origins: reached.origins ?? NO_ORIGINS,
    });
  }

  #attempt(
    asked: Asked,
    name: unknown,
    input: unknown,
    rawCtx: unknown,
    about: ProposalAbout,
    ask: AskConfirmation | undefined,
    counter: LimitCounter | undefined,
    checking: boolean,
  ): Call | InvokeResult | Promise<Call | InvokeResult> {
    const started = this.#settings.onEvent === undefined ? 0 : performance.now();
    const proposing = asked === 'propose';
    const ctx = readCallContext(rawCtx, proposing ? 'autonomous' : asked, this.#settings.locale);
    if (!('caller' in ctx)) {
      return failure('INVALID_OPTION', formatMessage('INVALID_OPTION', { detail: ctx.detail }, ctx.locale));
    }
    const answers = this.#answers;
    let call: Call | undefined;
    try {
      const entry = this.#settings.table.resolve(name);
      if (entry === undefined) return answers.unknownTool(ctx, name, started, input);
      call = new Call({
        ctx,
        entry,
        asked: name,
        started,
        span: answers.startSpan(ctx, entry, name, input),
        proposal: proposing ? { about } : undefined,
        ask: ask ?? this.#settings.ask,
        counter: counter ?? this.#settings.counter,
      });
      call.input = input;
      const steps = this.#stepsOf(entry);
      return runSteps(checking ? steps.check : steps.call, call, answers);
    } catch (error) {
      return answers.unexpected(call, ctx as CallContext, name, error);
    }
  }

  /** The tool's steps, chosen at its first call and kept while it stays registered. */
  #stepsOf(entry: ToolEntry): ToolSteps {
    let steps = this.#steps.get(entry);
    if (steps === undefined) {
      steps = this.#choose(entry);
      this.#steps.set(entry, steps);
    }
    return steps;
  }
}
