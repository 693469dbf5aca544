import { formatMessage } from '../../messages/index.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import { failure, type ReadOnlyResult } from '../../result.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { createLimiter } from './limit-concurrency.js';
import type { ResolvedAdapterOptions } from './options.js';
import { replyLocale } from './reply-locale.js';

/** One call to put through the model's exit: a (sanitised) name and the raw arguments. */
export interface ModelCall {
  readonly name: string;
  readonly args: unknown;
}

/**
 * Puts every call through `registry.invokeReadOnly` — the only way an adapter runs anything — with at
 * most `concurrency` at once, and returns one result per call in the calls' order. Calls past
 * `maxCallsPerTurn` are answered `TOO_MANY_CALLS` without running. Never rejects.
 */
export function runModelCalls<AppContext>(
  registry: ToolRegistry<AppContext>,
  calls: readonly ModelCall[],
  ctx: InvokeContext<AppContext>,
  options: ResolvedAdapterOptions,
): Promise<ReadOnlyResult[]> {
  const limit = createLimiter(options.concurrency);
  return Promise.all(
    calls.map((call, index): Promise<ReadOnlyResult> => {
      if (index >= options.maxCallsPerTurn) {
        const message = formatMessage(
          'TOO_MANY_CALLS',
          { limit: options.maxCallsPerTurn },
          replyLocale(registry, ctx),
        );
        return Promise.resolve(failure('TOO_MANY_CALLS', message));
      }
      return limit(async () => {
        try {
          return await registry.invokeReadOnly(call.name, call.args, ctx);
        } catch (error) {
          // invokeReadOnly promises never to throw; a broken custom registry still must not break the turn.
          return failure(
            'RUN_FAILED',
            formatMessage('RUN_FAILED', { detail: describeThrown(error) }, replyLocale(registry, ctx)),
          );
        }
      });
    }),
  );
}
