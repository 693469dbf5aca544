// graded-tools/mastra: the model's tools as Mastra tools for an Agent.

import { createTool, type Tool } from '@mastra/core/tools';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import type { ReadOnlyResult } from '../result.js';
import { isRecord } from '../util/is-record.js';
import { type FrameworkAdapterOptions, resolveAdapterOptions } from './core/options.js';
import { toPassThroughSchema } from './core/pass-through-schema.js';
import { createFrameworkRunner, replyText } from './core/run-call.js';

export type { FrameworkAdapterOptions } from './core/options.js';

/** Options for the Mastra adapter. */
export type MastraAdapterOptions = FrameworkAdapterOptions;

/** One tool of the set: it takes the model's arguments and gives back the exit's result. */
export type MastraTool = Tool<unknown, ReadOnlyResult>;

/**
 * The model's tools as Mastra tools (`createTool` from `@mastra/core/tools`) for an `Agent`'s
 * `tools`: exactly `registry.toFunctionSchemas(ctx)`, keyed by wire name (a null-prototype record),
 * each run through the model's exit (`invokeReadOnly`). `execute` returns the result (`{ ok: true,
 * data }` or `{ ok: false, code, error }`) for the app; `toModelOutput` shows the model the data as
 * JSON (cut past `maxResultChars`) or `{"error":{"code":…,"message":…}}` as error text.
 *
 * Validation is the exit's: the input schema is a Standard JSON Schema that describes the model's
 * JSON Schema and lets every input through, so the model reads our `INVALID_INPUT` issue list. No
 * tool sets `requireApproval`: a write or send is never listed, so no approval of Mastra (nor one the
 * model gives itself) decides one. At most `concurrency` calls of this set run at once. Mastra itself
 * ends a run quietly when the model calls `constructor` or `__proto__` (nothing runs).
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { ToolRegistry } from 'graded-tools';
 * import { toMastraTools } from 'graded-tools/mastra';
 *
 * const registry = new ToolRegistry();
 * const agent = new Agent({
 *   id: 'desk',
 *   name: 'Desk',
 *   instructions: 'Help the customer.',
 *   model: 'openai/gpt-4.1-mini',
 *   tools: toMastraTools(registry, { scope: 'desk' }),
 * });
 * const result = await agent.generate('Find the refund policy.');
 * console.log(result.text);
 * ```
 */
export function toMastraTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: MastraAdapterOptions = {},
): Record<string, MastraTool> {
  const resolved = resolveAdapterOptions(options);
  const runCall = createFrameworkRunner(registry, ctx, resolved);
  const tools: Record<string, MastraTool> = Object.create(null);
  for (const { name, description, parameters } of registry.toFunctionSchemas(ctx)) {
    tools[name] = createTool({
      id: name,
      description,
      // Mastra reads a Standard JSON Schema for the model; its own check finds nothing to refuse.
      inputSchema: toPassThroughSchema(parameters),
      execute: async (input, context) =>
        (await runCall(name, input, context?.abortSignal, context?.agent?.toolCallId)).result,
      toModelOutput: (output: unknown) => {
        // Outputs restored from storage may not be results of this version: show them as JSON.
        if (!isRecord(output) || typeof output.ok !== 'boolean') {
          return { type: 'text', value: JSON.stringify(output ?? null) ?? 'null' };
        }
        const result = output as unknown as ReadOnlyResult;
        const value = replyText(registry, ctx, resolved, name, result);
        return { type: result.ok ? 'text' : 'error-text', value };
      },
    }) as MastraTool;
  }
  return tools;
}
