import { formatMessage } from '../../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { failure, type ReadOnlyResult } from '../../result.js';
import { describeThrown } from '../../util/describe-thrown.js';
import type { Limiter } from './limit-concurrency.js';
import type { ResolvedAdapterOptions } from './options.js';
import { replyLocale } from './reply-locale.js';

/** One call to answer, with what every adapter knows about the turn it belongs to. */
export interface CallToAnswer<C> {
  readonly registry: ToolRegistry<C>;
  /** The (sanitised) name the model called. */
  readonly name: string;
  /** The raw arguments, as the model sent them. */
  readonly args: unknown;
  readonly ctx: InvokeContext<C>;
  readonly options: ResolvedAdapterOptions;
  /** Bounds how many calls run at once (per turn, per tool set or per server). */
  readonly limit: Limiter;
  /** How many calls of the same turn came before this one; `undefined` when turns are not counted. */
  readonly position?: number | undefined;
  /** A result decided before running (an adapter's own refusal of the arguments). */
  readonly refused?: ReadOnlyResult | undefined;
  /** The provider's id for this call, when it has one: tracing's `gen_ai.tool.call.id`. */
  readonly callId?: string | undefined;
}

/** The `TOO_MANY_CALLS` answer for a call past `maxCallsPerTurn`, in the call's language. */
export function tooManyCalls<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C>,
  limit: number,
): ReadOnlyResult {
  return failure('TOO_MANY_CALLS', formatMessage('TOO_MANY_CALLS', { limit }, replyLocale(registry, ctx)));
}

/**
 * The one-call answer every adapter gives. A call past the turn's `maxCallsPerTurn` is answered
 * `TOO_MANY_CALLS` without running; any other runs through `registry.invokeReadOnly` — the only way an
 * adapter runs anything — under `limit`. Never rejects.
 */
export function answerCall<C>(call: CallToAnswer<C>): Promise<ReadOnlyResult> {
  const { registry, options } = call;
  const ctx = typeof call.callId === 'string' ? { ...call.ctx, callId: call.callId } : call.ctx;
  if (call.position !== undefined && call.position >= options.maxCallsPerTurn) {
    return Promise.resolve(tooManyCalls(registry, ctx, options.maxCallsPerTurn));
  }
  if (call.refused !== undefined) return Promise.resolve(call.refused);
  // invokeReadOnly promises never to throw; a broken custom registry still must not break the turn.
  const runFailed = (error: unknown): ReadOnlyResult =>
    failure(
      'RUN_FAILED',
      formatMessage('RUN_FAILED', { detail: describeThrown(error) }, replyLocale(registry, ctx)),
    );
  return call.limit(() => {
    try {
      return registry.invokeReadOnly(call.name, call.args, ctx).then(undefined, runFailed);
    } catch (error) {
      return Promise.resolve(runFailed(error));
    }
  });
}
