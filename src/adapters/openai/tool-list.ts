import type OpenAI from 'openai';
import type { JsonSchema } from '../../json-schema.js';
import type { InvokeContext, ToolRegistry } from '../../registry.js';
import type { FunctionSchema } from '../../tools/function-schema.js';
import { internalName, modelTools, refuseRootKeywords } from '../core/list-tools.js';
import { type AdapterOptions, resolveAdapterOptions } from '../core/options.js';
import { toOpenAIStrictSchema } from './strict-schema.js';

/** Options for the OpenAI adapter: pass the same ones to the list and to the answer functions. */
export interface OpenAIAdapterOptions extends AdapterOptions {
  /**
   * Send tools with `strict: true` and their schemas converted to OpenAI's strict subset (default
   * false). The answer functions then strip the `null`s strict mode makes the model send for
   * optional properties.
   */
  readonly strict?: boolean;
}

/** The most tools OpenAI accepts in one request. */
export const OPENAI_MAX_TOOLS = 128;

/** What OpenAI refuses at the root of a function's parameters, strict or not. */
const ROOT_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'enum', 'const', 'not'] as const;

const strictCache = new WeakMap<object, JsonSchema>();

function parametersFor<C>(registry: ToolRegistry<C>, schema: FunctionSchema, strict: boolean): JsonSchema {
  refuseRootKeywords(registry, schema, ROOT_KEYWORDS, 'OpenAI');
  if (!strict) return schema.parameters;
  // The registry hands out the same frozen schema object until the tool changes: convert it once.
  let converted = strictCache.get(schema.parameters);
  if (converted === undefined) {
    converted = toOpenAIStrictSchema(schema.parameters, internalName(registry, schema.name));
    strictCache.set(schema.parameters, converted);
  }
  return converted;
}

/** One tool as OpenAI gets it: the model's schema, its (maybe strict) parameters, the strict flag. */
export interface OpenAITool {
  readonly schema: FunctionSchema;
  readonly parameters: OpenAI.FunctionParameters;
  readonly strict: boolean;
}

/** The model's list checked for OpenAI: count, root keywords, and with `strict` the strict subset. */
export function openAITools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C>,
  options: OpenAIAdapterOptions,
): OpenAITool[] {
  resolveAdapterOptions(options);
  const strict = options.strict === true;
  return modelTools(registry, ctx, 'OpenAI', OPENAI_MAX_TOOLS).map((schema) => ({
    schema,
    parameters: parametersFor(registry, schema, strict),
    strict,
  }));
}
