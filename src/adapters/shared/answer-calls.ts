import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { type CallIdRule, planCalls, type RawCall } from './call-plan.js';
import type { ResolvedAdapterOptions } from './options.js';
import { replyLocale } from './reply-locale.js';
import { runModelCalls } from './run-calls.js';
import { type ToolReply, toToolReply } from './tool-reply.js';

/** One call, answered: the name and id it is answered under, and the text or error the model sees. */
export interface AnsweredCall {
  readonly name: string;
  readonly id: string | undefined;
  readonly reply: ToolReply;
}

/**
 * What every provider's answer function does before putting replies in its own shape: plan each
 * call's legal name and id, run it through the model's exit, and word the result.
 */
export async function answerCalls<C, Call extends RawCall>(
  registry: ToolRegistry<C>,
  calls: readonly Call[],
  rule: CallIdRule,
  ctx: InvokeContext<C>,
  options: ResolvedAdapterOptions,
  argsOf: (call: Call | undefined, name: string) => unknown,
): Promise<AnsweredCall[]> {
  const plan = planCalls(calls, rule);
  const results = await runModelCalls(
    registry,
    plan.map(({ name }, index) => ({ name, args: argsOf(calls[index], name) })),
    ctx,
    options,
  );
  const locale = replyLocale(registry, ctx);
  return results.map((result, index) => {
    const { name, id } = plan[index] ?? { name: '', id: undefined };
    return { name, id, reply: toToolReply(result, name, options.maxResultChars, locale) };
  });
}
