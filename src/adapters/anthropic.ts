import type Anthropic from '@anthropic-ai/sdk';
import type { InvokeContext, ToolRegistry } from '../registry.js';
import { isRecord } from '../util/is-record.js';
import { answerTurn } from './core/answer-turn.js';
import { type CallIdRule, planCalls, type RawCall } from './core/call-plan.js';
import { modelTools, refuseRootKeywords } from './core/list-tools.js';
import { type AdapterOptions, resolveAdapterOptions } from './core/options.js';

export { INVALID_TOOL_NAME } from './core/call-plan.js';
export type { AdapterOptions } from './core/options.js';

type Tool = Anthropic.Messages.Tool;
type ContentBlock = Anthropic.Messages.ContentBlock;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type ToolResultBlockParam = Anthropic.Messages.ToolResultBlockParam;

/** Options for the Anthropic adapter. */
export type AnthropicAdapterOptions = AdapterOptions;

/** Anthropic refuses these at the root of `input_schema` ("does not support oneOf, allOf, or anyOf"). */
const ROOT_KEYWORDS = ['anyOf', 'oneOf', 'allOf'] as const;

/** `tool_use` ids must match `^[a-zA-Z0-9_-]+$`; generated ones start `toolu_gt_`. */
const ID_RULE: CallIdRule = { isLegal: (id) => /^[A-Za-z0-9_-]{1,256}$/.test(id), prefix: 'toolu_gt_' };

/**
 * The model's tools for the Messages API: exactly `registry.toFunctionSchemas(ctx)` as `{ name,
 * description, input_schema }`. Throws `ToolDefinitionError` at list time for a root `anyOf`/`oneOf`/
 * `allOf`, which the API refuses. Schemas are frozen: copy one before changing it.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { ToolRegistry } from 'graded-tools';
 * import { answerAnthropicToolUses, sanitizeAnthropicContent, toAnthropicTools } from 'graded-tools/anthropic';
 *
 * const registry = new ToolRegistry();
 * const client = new Anthropic();
 * const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Hi' }];
 * for (let turn = 0; turn < 8; turn += 1) {
 *   const reply = await client.messages.create({
 *     model: 'claude-sonnet-4-5',
 *     max_tokens: 1024,
 *     messages,
 *     tools: toAnthropicTools(registry),
 *   });
 *   messages.push({ role: 'assistant', content: sanitizeAnthropicContent(reply.content) });
 *   const results = await answerAnthropicToolUses(registry, reply);
 *   if (results.length === 0) break;
 *   messages.push({ role: 'user', content: results });
 * }
 * ```
 */
export function toAnthropicTools<C>(
  registry: ToolRegistry<C>,
  ctx: InvokeContext<C> = {},
  options: AnthropicAdapterOptions = {},
): Tool[] {
  resolveAdapterOptions(options);
  return modelTools(registry, ctx, 'Anthropic', Number.POSITIVE_INFINITY).map((schema) => {
    refuseRootKeywords(registry, schema, ROOT_KEYWORDS, 'Anthropic');
    return {
      name: schema.name,
      description: schema.description,
      // The registry refuses a root that is not `type: 'object'`, so this is the shape the API wants.
      input_schema: schema.parameters as Anthropic.Messages.Tool.InputSchema,
    };
  });
}

interface ReadUse extends RawCall {
  readonly input: unknown;
}

function blocksOf(source: unknown): unknown[] {
  const list = Array.isArray(source) ? source : isRecord(source) ? source.content : undefined;
  return Array.isArray(list) ? list : [];
}

function isToolUse(block: unknown): block is Record<string, unknown> {
  return isRecord(block) && block.type === 'tool_use';
}

function readUse(block: Record<string, unknown>): ReadUse {
  return { id: block.id, name: block.name, input: block.input };
}

/**
 * Runs the `tool_use` blocks of an assistant message through the model's exit and returns one
 * `tool_result` block per use, in order — put them first in the next user message. Failures
 * (unknown, hidden, `write`/`send` or illegal names, bad input, a failing tool) carry the registry's
 * message with `is_error: true`; successes the JSON of the data, cut at `maxResultChars`. Never
 * throws for anything the model sent; never rejects. Ids match `sanitizeAnthropicContent`.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { answerAnthropicToolUses } from 'graded-tools/anthropic';
 *
 * const registry = new ToolRegistry();
 * const results = await answerAnthropicToolUses(registry, [
 *   { type: 'tool_use', id: 'toolu_1', name: 'ticket__submit', input: { summary: 'x' } },
 * ]);
 * console.log(results[0]?.is_error); // true: the model never reaches a write tool
 * ```
 */
export async function answerAnthropicToolUses<C>(
  registry: ToolRegistry<C>,
  message:
    | { readonly content: readonly (ContentBlock | ContentBlockParam)[] | string }
    | readonly (ContentBlock | ContentBlockParam)[]
    | null
    | undefined,
  ctx: InvokeContext<C> = {},
  options: AnthropicAdapterOptions = {},
): Promise<ToolResultBlockParam[]> {
  const resolved = resolveAdapterOptions(options);
  const uses = blocksOf(message).filter(isToolUse).map(readUse);
  const answered = await answerTurn({
    registry,
    calls: uses,
    rule: ID_RULE,
    ctx,
    options: resolved,
    argumentsOf: (use) => ({ args: use.input }),
  });
  return answered.map(
    ({ id, reply }): ToolResultBlockParam =>
      reply.ok
        ? { type: 'tool_result', tool_use_id: id ?? '', content: reply.text }
        : { type: 'tool_result', tool_use_id: id ?? '', content: reply.message, is_error: true },
  );
}

/**
 * The assistant content to put back into `messages`, safe to send again: `tool_use` blocks get legal
 * names (`invalid_tool_name` for an illegal one), unique legal ids (the ones `answerAnthropicToolUses`
 * answers) and an object `input`; every other block (text, thinking with its signature) is kept as is.
 *
 * @example
 * ```ts
 * import { sanitizeAnthropicContent } from 'graded-tools/anthropic';
 *
 * const content = sanitizeAnthropicContent([
 *   { type: 'tool_use', id: 'same', name: 'kb__search', input: {} },
 *   { type: 'tool_use', id: 'same', name: 'kb search', input: {} },
 * ]);
 * // ids 'same' and 'toolu_gt_1'; names 'kb__search' and 'invalid_tool_name'
 * console.log(content);
 * ```
 */
export function sanitizeAnthropicContent(
  content: readonly (ContentBlock | ContentBlockParam)[] | string,
): ContentBlockParam[] | string {
  if (typeof content === 'string') return content;
  const blocks: readonly unknown[] = Array.isArray(content) ? content : [];
  const plan = planCalls(blocks.filter(isToolUse).map(readUse), ID_RULE);
  let next = 0;
  return blocks.map((block) => {
    if (!isToolUse(block)) return block as ContentBlockParam;
    const { name, id } = plan[next] ?? { name: '', id: undefined };
    next += 1;
    return {
      ...block,
      id: id ?? '',
      name,
      input: isRecord(block.input) ? block.input : {},
    } as ContentBlockParam;
  });
}
