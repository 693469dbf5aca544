// graded-tools/langchain: the model's tools as LangChain.js structured tools.

import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig, type ToolSchemaBase } from '@langchain/core/tools';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import { type FrameworkAdapterOptions, resolveAdapterOptions } from './core/options.js';
import { toPassThroughSchema } from './core/pass-through-schema.js';
import { createFrameworkRunner } from './core/run-call.js';

export type { FrameworkAdapterOptions } from './core/options.js';

/** Options for the LangChain adapter. */
export type LangChainAdapterOptions = FrameworkAdapterOptions;

/**
 * The model's tools as `@langchain/core` structured tools, for `createAgent` (langchain v1), a
 * LangGraph.js `ToolNode` or `model.bindTools`: exactly `registry.toFunctionSchemas(ctx)`, each run
 * through the model's exit (`invokeReadOnly`).
 *
 * Validation is the exit's: each tool's `schema` is a Standard JSON Schema that describes the model's
 * JSON Schema (a fresh copy each time LangChain asks, so its annotations never touch the registry's
 * frozen one) and lets every input through, so a schema-failing input reaches the model as our
 * `INVALID_INPUT` with its issue list instead of LangChain's "did not match expected schema". Called
 * with a tool call (as agents do), a tool answers with a `ToolMessage` whose content is the text the
 * model reads (the data as JSON, or `{"error":{"code":…,"message":…}}` with `status: 'error'`) and
 * whose `artifact` is the result (`{ ok, data }` or `{ ok: false, code, error }`) for the app; called
 * with bare arguments it returns that text. Names the list does not have are answered by the agent's
 * tool node and never reach a tool. At most `concurrency` calls of this set run at once.
 *
 * @example
 * ```ts
 * import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
 * import { ToolRegistry } from 'graded-tools';
 * import { toLangChainTools } from 'graded-tools/langchain';
 * import { createAgent } from 'langchain';
 *
 * declare const model: BaseChatModel; // e.g. new ChatOpenAI({ model: 'gpt-4.1-mini' })
 * const registry = new ToolRegistry();
 * const agent = createAgent({ model, tools: toLangChainTools(registry, { scope: 'desk' }) });
 * const state = await agent.invoke({ messages: [{ role: 'user', content: 'Find the refund policy.' }] });
 * console.log(state.messages.at(-1)?.content);
 * ```
 */
export function toLangChainTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: LangChainAdapterOptions = {},
): DynamicStructuredTool[] {
  const runCall = createFrameworkRunner(registry, ctx, resolveAdapterOptions(options));
  return registry.toFunctionSchemas(ctx).map(
    ({ name, description, parameters }) =>
      new DynamicStructuredTool({
        name,
        description,
        // LangChain reads a Standard JSON Schema for the model; its own check finds nothing to refuse.
        schema: toPassThroughSchema(parameters) as unknown as ToolSchemaBase,
        func: async (input: unknown, _runManager?: unknown, config?: ToolRunnableConfig) => {
          const id = config?.toolCall?.id;
          const { result, text } = await runCall(name, input, config?.signal, id);
          if (id === undefined) return text;
          const status = result.ok ? 'success' : 'error';
          return new ToolMessage({ content: text, artifact: result, tool_call_id: id, name, status });
        },
      }),
  );
}
