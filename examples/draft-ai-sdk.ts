// From draft to decision with the Vercel AI SDK: the agent reads through graded-tools' read tools,
// returns the reply as structured output (`output: Output.object`, the send tool's input shape), the
// app proposes it, a person decides, and the decision is the agent's next turn.
import { generateText, jsonSchema, type LanguageModel, type ModelMessage, Output, stepCountIs } from 'ai';
import type { Locale, ToolRegistry } from 'graded-tools';
import { sanitizeAiSdkMessages, toAiSdkTools } from 'graded-tools/ai-sdk';
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
export interface AiSdkDraftLoopOptions {
  /** Any AI SDK language model: `openai('gpt-4.1-mini')` from @ai-sdk/openai, or a test's mock. */
  readonly model: LanguageModel;
  readonly registry: ToolRegistry;
  readonly conversationId: string;
  readonly person: PersonStep;
  readonly locale?: Locale;
  readonly signal?: AbortSignal;
}

/** One draft loop: draft (read tools + `Output.object`), propose, a person decides, the agent hears it. */
export async function runDraftLoop(options: AiSdkDraftLoopOptions): Promise<DraftLoopResult> {
  const { model, registry, conversationId } = options;
  const common = {
    model,
    tools: toAiSdkTools(registry, DESK_CONTEXT),
    // The AI SDK replays the model's calls itself: keep an illegal name or a repeated id legal.
    prepareStep: ({ messages }: { messages: ModelMessage[] }) => ({
      messages: sanitizeAiSdkMessages(messages),
    }),
    stopWhen: stepCountIs(8),
    ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
  };
  const asked: ModelMessage[] = [{ role: 'user', content: draftPrompt(conversationId) }];
  // No validator here on purpose: `propose` checks the draft against the send tool's own schema.
  const drafted = await generateText({
    ...common,
    system: DRAFT_INSTRUCTIONS,
    messages: asked,
    output: Output.object({ schema: jsonSchema(draftSchema(registry) as Parameters<typeof jsonSchema>[0]) }),
  });

  const heard = await proposeAndHear({ ...options, draft: drafted.output });
  if (!heard.ok) return heard;

  // The next turn: the conversation so far and the decision as a user message, answered in plain text.
  const followed = await generateText({
    ...common,
    system: FOLLOW_UP_INSTRUCTIONS,
    messages: [...asked, ...drafted.response.messages, { role: 'user', content: heard.decisionText }],
  });
  return { ...heard, draft: drafted.output, followUp: followed.text };
}
