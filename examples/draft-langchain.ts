// From draft to decision with LangChain: the agent (`createAgent` from langchain v1) reads through
// graded-tools' read tools, returns the reply as structured output (`responseFormat`, the send
// tool's input shape), the app proposes it, a person decides, and the decision is the next turn.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { Locale, ToolRegistry } from 'graded-tools';
import { toLangChainTools } from 'graded-tools/langchain';
import { createAgent, HumanMessage, toolStrategy } from 'langchain';
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

/** The structured output's name: what the model calls to hand in its draft. It sends nothing. */
export const DRAFT_OUTPUT_NAME = 'reply_draft';

/** Options of `runDraftLoop`. */
export interface LangChainDraftLoopOptions {
  /** Any tool-calling chat model: `new ChatOpenAI({ model: 'gpt-4.1-mini' })`, or a test's fake. */
  readonly model: BaseChatModel;
  readonly registry: ToolRegistry;
  readonly conversationId: string;
  readonly person: PersonStep;
  readonly locale?: Locale;
  readonly signal?: AbortSignal;
}

/** One draft loop: draft (read tools + `responseFormat`), propose, a person decides, the agent hears it. */
export async function runDraftLoop(options: LangChainDraftLoopOptions): Promise<DraftLoopResult> {
  const { model, registry, conversationId } = options;
  const tools = toLangChainTools(registry, DESK_CONTEXT);
  const config = options.signal === undefined ? {} : { signal: options.signal };
  // toolStrategy works with every tool-calling model: the draft comes back as the arguments of a
  // call to `reply_draft`, which LangChain checks against the schema and turns into the response.
  const drafter = createAgent({
    model,
    tools,
    systemPrompt: DRAFT_INSTRUCTIONS,
    responseFormat: toolStrategy({
      ...draftSchema(registry),
      type: 'object',
      title: DRAFT_OUTPUT_NAME,
      description: 'Hand in the reply draft for a person to review. This sends nothing.',
    }),
  });
  const drafted = await drafter.invoke({ messages: [new HumanMessage(draftPrompt(conversationId))] }, config);
  const draft: unknown = drafted.structuredResponse;

  const heard = await proposeAndHear({ ...options, draft });
  if (!heard.ok) return heard;

  // The next turn: the same model and tools in plain text, the history and the decision as a user message.
  const follower = createAgent({ model, tools, systemPrompt: FOLLOW_UP_INSTRUCTIONS });
  const messages: BaseMessage[] = [...drafted.messages, new HumanMessage(heard.decisionText)];
  const followed = await follower.invoke({ messages }, config);
  const last = followed.messages.at(-1);
  return { ...heard, draft, followUp: last === undefined ? '' : last.text };
}
