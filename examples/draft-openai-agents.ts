// From draft to decision with the OpenAI Agents SDK: the agent reads through graded-tools' read
// tools, returns the reply as structured output (`outputType`, the send tool's input shape), the app
// proposes it, a person decides, and the decision is the agent's next turn.
import { Agent, type AgentInputItem, type JsonSchemaDefinition, type Model, run } from '@openai/agents';
import type { Locale, ToolRegistry } from 'graded-tools';
import { toAgentsTools } from 'graded-tools/openai-agents';
import {
  DESK_CONTEXT,
  DRAFT_INSTRUCTIONS,
  type DraftLoopResult,
  draftPrompt,
  draftSchema,
  FOLLOW_UP_INSTRUCTIONS,
  type PersonStep,
  proposeAndHear,
} from './draft-desk.js';

/** Options of `runDraftLoop`. */
export interface AgentsDraftLoopOptions {
  /** Any Agents SDK model: `new OpenAIResponsesModel(client, 'gpt-4.1-mini')`, or a test's ScriptedModel. */
  readonly model: Model;
  readonly registry: ToolRegistry;
  readonly conversationId: string;
  readonly person: PersonStep;
  readonly locale?: Locale;
  readonly signal?: AbortSignal;
}

/**
 * One draft loop: draft (read tools + `outputType`), propose, a person decides, the agent hears it.
 */
export async function runDraftLoop(options: AgentsDraftLoopOptions): Promise<DraftLoopResult> {
  const { model, registry, conversationId } = options;
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const desk = { name: 'Desk', model, tools: toAgentsTools(registry, DESK_CONTEXT) };
  // The send tool's input is strict-compatible (every field required, nothing extra), so strict holds.
  const outputType: JsonSchemaDefinition = {
    type: 'json_schema',
    name: 'reply_draft',
    strict: true,
    schema: draftSchema(registry) as JsonSchemaDefinition['schema'],
  };
  const drafter = new Agent({ ...desk, instructions: DRAFT_INSTRUCTIONS, outputType });
  // A name the list does not have (the send tool's, say) is answered to the model; the run goes on.
  const runOptions = { toolNotFoundBehavior: 'return_error_to_model', ...signal } as const;
  const drafted = await run(drafter, draftPrompt(conversationId), runOptions);

  const heard = await proposeAndHear({ ...options, draft: drafted.finalOutput });
  if (!heard.ok) return heard;

  // The next turn: the same desk in plain text, the whole history, and the decision as a user message.
  const next: AgentInputItem[] = [...drafted.history, { role: 'user', content: heard.decisionText }];
  const followed = await run(new Agent({ ...desk, instructions: FOLLOW_UP_INSTRUCTIONS }), next, runOptions);
  return { ...heard, draft: drafted.finalOutput, followUp: followed.finalOutput ?? '' };
}
