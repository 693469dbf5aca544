// graded-tools/openai-agents: the model's tools as OpenAI Agents SDK function tools.

import { type Tool, tool } from '@openai/agents';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import { type FrameworkAdapterOptions, resolveAdapterOptions } from './core/options.js';
import { createFrameworkRunner } from './core/run-call.js';
import { stripStrictNulls } from './openai/strip-nulls.js';
import { openAITools } from './openai/tool-list.js';

export type { FrameworkAdapterOptions } from './core/options.js';

/** Options for the Agents SDK adapter. */
export interface AgentsAdapterOptions extends FrameworkAdapterOptions {
  /**
   * List the tools with `strict: true` and OpenAI's strict form of each schema (default true). Set
   * false for a schema strict mode cannot express.
   */
  readonly strict?: boolean;
}

// The SDK's JSON-object schema types, which it does not export: the shapes its `tool()` tells apart.
type StrictParameters = {
  type: 'object';
  properties: Record<string, never>;
  required: never[];
  additionalProperties: false;
};
type LooseParameters = Omit<StrictParameters, 'additionalProperties'> & { additionalProperties: true };
/** What this adapter reads of the SDK's per-call details (its `ToolCallDetails`, not exported). */
type CallDetails = {
  readonly toolCall?: { readonly arguments?: string; readonly callId?: string };
  readonly signal?: AbortSignal;
};

/** The tool list's type: function tools that take the agent's run context, whatever it is. */
export type AgentsTool = Extract<Tool<unknown>, { type: 'function' }>;

/**
 * The model's tools as `@openai/agents` function tools for an `Agent`: exactly
 * `registry.toFunctionSchemas(ctx)`, each `tool({ name, description, parameters, strict, execute })`
 * whose `execute` puts the call through the model's exit (`invokeReadOnly`). What the model reads
 * back is text: the data as JSON (cut past `maxResultChars`), or `{"error":{"code":…,"message":…}}`
 * for a refusal or schema-failing input (the exit's issue list, which the SDK does not rewrite). No
 * tool sets `needsApproval`: a write or send is never listed, so no approval of the SDK decides one.
 *
 * A name the list does not have makes the SDK end the run by default: pass
 * `toolNotFoundBehavior: 'return_error_to_model'` to `run` (or the `Runner`) so the model reads the
 * error and goes on. With `strict` (the default) schemas are sent in OpenAI's strict form and the
 * `null`s strict mode makes the model send for optional fields are removed before the exit checks
 * the input; a schema strict mode cannot express throws `ToolDefinitionError` (`UNSUPPORTED_SCHEMA`)
 * at list time. At most `concurrency` calls of this set run at once.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { ToolRegistry } from 'graded-tools';
 * import { toAgentsTools } from 'graded-tools/openai-agents';
 *
 * const registry = new ToolRegistry();
 * const agent = new Agent({ name: 'Desk', instructions: 'Help the customer.', tools: toAgentsTools(registry, { scope: 'desk' }) });
 * const result = await run(agent, 'Find the refund policy.', { toolNotFoundBehavior: 'return_error_to_model' });
 * console.log(result.finalOutput);
 * ```
 */
export function toAgentsTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: AgentsAdapterOptions = {},
): AgentsTool[] {
  const strict = options.strict !== false;
  const runCall = createFrameworkRunner(registry, ctx, resolveAdapterOptions(options));
  return openAITools(registry, ctx, { ...options, strict }).map(({ schema, parameters }) => {
    const name = schema.name;
    const original = schema.parameters;
    const execute = async (input: unknown, _run: unknown, details?: CallDetails) => {
      // The model's own argument text when the SDK hands it over, so the registry's limits see it.
      const raw = details?.toolCall?.arguments ?? JSON.stringify(input);
      const prepared = strict ? stripStrictNulls(raw, original) : { args: raw };
      // Too deep to strip: the raw text goes on, and the registry's own depth limit refuses it.
      const args = 'args' in prepared ? prepared.args : raw;
      return (await runCall(name, args, details?.signal, details?.toolCall?.callId)).text;
    };
    // A mutable copy: the SDK prepares the schema it is given; the registry's stays frozen.
    const copy: unknown = structuredClone(parameters);
    const common = { name, description: schema.description, execute };
    return strict
      ? tool({ ...common, parameters: copy as StrictParameters, strict: true })
      : tool({ ...common, parameters: copy as LooseParameters, strict: false });
  });
}
