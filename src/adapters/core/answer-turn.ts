import type { InvokeContext, ToolRegistry } from '../../registry.js';
import type { ReadOnlyResult } from '../../result.js';
import { answerCall } from './answer-call.js';
import { type CallIdRule, planCalls, type RawCall } from './call-plan.js';
import { createLimiter } from './limit-concurrency.js';
import type { ResolvedAdapterOptions } from './options.js';
import { replyLocale } from './reply-locale.js';
import { type ToolReply, toToolReply } from './tool-reply.js';

/** One call, answered: the name and id it is answered under, and the text or error the model sees. */
export interface AnsweredCall {
  readonly name: string;
  readonly id: string | undefined;
  readonly reply: ToolReply;
}

/** The arguments to run a call with, or a result the adapter decided without running it. */
export type PreparedArguments = { readonly args: unknown } | { readonly refused: ReadOnlyResult };

/** A turn of calls for `answerTurn`: what the provider sent, and how to read each call. */
export interface TurnToAnswer<C, Call extends RawCall> {
  readonly registry: ToolRegistry<C>;
  readonly calls: readonly Call[];
  /** How the provider's call ids look. */
  readonly rule: CallIdRule;
  readonly ctx: InvokeContext<C>;
  readonly options: ResolvedAdapterOptions;
  /** The arguments of a call, given the name it is answered under. Must not throw. */
  readonly argumentsOf: (call: Call, name: string) => PreparedArguments;
}

/**
 * What every provider's answer function does before putting replies in its own shape: plan each
 * call's legal name and id, answer each (`answerCall`, at most `concurrency` at once, the first
 * `maxCallsPerTurn` only), and word the result. One reply per call, in order. Never rejects.
 */
export async function answerTurn<C, Call extends RawCall>(
  turn: TurnToAnswer<C, Call>,
): Promise<AnsweredCall[]> {
  const { registry, calls, ctx, options } = turn;
  const plan = planCalls(calls, turn.rule);
  const limit = createLimiter(options.concurrency);
  const results = await Promise.all(
    plan.map(({ name, id }, position) => {
      const call = calls[position] as Call;
      const prepared =
        position < options.maxCallsPerTurn ? turn.argumentsOf(call, name) : { args: undefined };
      return answerCall({
        registry,
        name,
        ctx,
        options,
        limit,
        position,
        callId: id,
        ...('refused' in prepared ? { args: undefined, refused: prepared.refused } : { args: prepared.args }),
      });
    }),
  );
  const locale = replyLocale(registry, ctx);
  return results.map((result, index) => {
    const { name, id } = plan[index] ?? { name: '', id: undefined };
    return { name, id, reply: toToolReply(result, name, options.maxResultChars, locale) };
  });
}
