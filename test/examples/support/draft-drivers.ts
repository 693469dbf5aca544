// One driver per framework for the draft examples: each runs the example's `runDraftLoop` with the
// framework's own fake model, scripted the same way (read, call the send tool and a made-up name,
// hand in the draft, then answer the decision), and reports what the model was shown in each call.
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { FakeBuiltModel } from '@langchain/core/testing';
import type { StructuredTool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import type { AgentInputItem, SerializedOutputType } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { MockLanguageModelV3 } from 'ai/test';
import type { Locale } from 'graded-tools';
import { runDraftLoop as runAiSdkLoop } from '../../../examples/draft-ai-sdk.js';
import type { DraftLoopResult, PersonStep } from '../../../examples/draft-desk.js';
import { DRAFT_OUTPUT_NAME, runDraftLoop as runLangChainLoop } from '../../../examples/draft-langchain.js';
import { runDraftLoop as runAgentsLoop } from '../../../examples/draft-openai-agents.js';
import type { Desk } from '../../adapters/support/hostile-calls.js';
import { shownResults, text, toolCalls } from '../../adapters/support/mock-model.js';

/** The model's first step: one read each, the send tool's wire name, and a name nobody registered. */
export const FIRST_CALLS = [
  { id: 'read', name: 'session__fetch', args: { conversationId: 'c-1001' } },
  { id: 'kb', name: 'kb__search', args: { query: 'duplicate charge' } },
  { id: 'send', name: 'message__send', args: { conversationId: 'c-1001', text: 'Refunded!' } },
  { id: 'made-up', name: 'delete_everything', args: {} },
] as const;

/** What the model answers once it hears the decision. */
export const FOLLOW_UP = 'Noted.';

/** What the fake model was shown, call by call. */
export interface Seen {
  /** The number of model calls. */
  readonly calls: number;
  /** The tool names listed to the model in each call. */
  readonly toolLists: readonly (readonly string[])[];
  /** The text of every user message in one call's input, in order. */
  userTexts(call: number): string[];
  /** What the model was shown in its second call for one of its first calls, by id. */
  shownFor(id: string): string | undefined;
  /** The JSON Schema the drafting turn asked the model to fill in (its structured output). */
  readonly draftShape: unknown;
  /** Everything one call sent the model (instructions, tools, messages), as one text to search. */
  everything(call: number): string;
}

/** One framework's harness. */
export interface DraftDriver {
  readonly framework: string;
  /** The tool names its drafting turn lists besides the read tools (LangChain's structured output). */
  readonly extraDraftTools: readonly string[];
  run(options: {
    readonly desk: Desk;
    readonly person: PersonStep;
    readonly draft: unknown;
    readonly locale?: Locale;
    readonly signal?: AbortSignal;
  }): Promise<{ result: DraftLoopResult; seen: Seen }>;
}

/** The optional options as exactOptionalPropertyTypes wants them: absent, not undefined. */
const given = (options: { locale?: Locale | undefined; signal?: AbortSignal | undefined }) => ({
  ...(options.locale === undefined ? {} : { locale: options.locale }),
  ...(options.signal === undefined ? {} : { signal: options.signal }),
});

function agentsText(item: AgentInputItem): string | undefined {
  if (!('role' in item) || item.role !== 'user') return undefined;
  if (typeof item.content === 'string') return item.content;
  return item.content.map((part) => ('text' in part ? part.text : '')).join('');
}

function agentsShape(outputType: SerializedOutputType | undefined): unknown {
  return typeof outputType === 'object' ? outputType.schema : undefined;
}

const openAIAgents: DraftDriver = {
  framework: 'OpenAI Agents SDK (outputType)',
  extraDraftTools: [],
  async run({ desk, person, draft, ...rest }) {
    const model = new ScriptedModel([
      FIRST_CALLS.map(({ id, name, args }) => functionCall(name, args, { callId: id })),
      [assistantMessage(JSON.stringify(draft))],
      [assistantMessage(FOLLOW_UP)],
    ]);
    const result = await runAgentsLoop({
      model,
      registry: desk.registry,
      conversationId: 'c-1001',
      person,
      ...given(rest),
    });
    const input = (call: number): AgentInputItem[] => {
      const given = model.calls[call]?.request.input;
      return typeof given === 'string' ? [{ role: 'user', content: given }] : [...(given ?? [])];
    };
    return {
      result,
      seen: {
        calls: model.calls.length,
        toolLists: model.calls.map((call) => call.request.tools.map((tool) => tool.name)),
        userTexts: (call) => input(call).flatMap((item) => agentsText(item) ?? []),
        draftShape: agentsShape(model.calls[0]?.request.outputType),
        everything: (call) => {
          const request = model.calls[call]?.request;
          return JSON.stringify([request?.systemInstructions, request?.tools, request?.input]);
        },
        shownFor: (id) => {
          for (const item of input(1)) {
            if (item.type !== 'function_call_result' || item.callId !== id) continue;
            const output = item.output;
            if (typeof output === 'string') return output;
            return 'text' in output ? String(output.text) : JSON.stringify(output);
          }
          return undefined;
        },
      },
    };
  },
};

const aiSdk: DraftDriver = {
  framework: 'Vercel AI SDK (Output.object)',
  extraDraftTools: [],
  async run({ desk, person, draft, ...rest }) {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls(FIRST_CALLS.map(({ id, name, args }) => [id, name, JSON.stringify(args)])),
        text(JSON.stringify(draft)),
        text(FOLLOW_UP),
      ],
    });
    const result = await runAiSdkLoop({
      model,
      registry: desk.registry,
      conversationId: 'c-1001',
      person,
      ...given(rest),
    });
    const calls = model.doGenerateCalls;
    return {
      result,
      seen: {
        calls: calls.length,
        toolLists: calls.map((call) => (call.tools ?? []).map((tool) => tool.name)),
        draftShape: calls[0]?.responseFormat?.type === 'json' ? calls[0].responseFormat.schema : undefined,
        everything: (call) => JSON.stringify([calls[call]?.tools, calls[call]?.prompt]),
        userTexts: (call) =>
          (calls[call]?.prompt ?? []).flatMap((message) =>
            message.role === 'user'
              ? [message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')]
              : [],
          ),
        shownFor: (id) => {
          const shown = shownResults(calls[1]).get(id);
          if (shown === undefined) return undefined;
          return typeof shown.value === 'string' ? shown.value : JSON.stringify(shown.value);
        },
      },
    };
  },
};

/** A bound tool's name: a structured tool's, or (the structured output) an OpenAI-style spec's. */
function boundName(tool: unknown): string {
  const { name, function: spec } = tool as { name?: unknown; function?: { name?: unknown } };
  return String(spec?.name ?? name);
}

/** What a bound tool tells the model: name, description and the JSON Schema of its arguments. */
function boundSpec(tool: unknown): unknown {
  const { function: spec } = tool as { function?: unknown };
  return spec ?? convertToOpenAITool(tool as StructuredTool).function;
}

/** LangChain's fake model, recording the tool list each call binds (createAgent binds per call). */
class ListRecordingModel extends FakeBuiltModel {
  readonly bound: unknown[][] = [];
  override bindTools(tools: Parameters<FakeBuiltModel['bindTools']>[0]) {
    this.bound.push([...tools]);
    return super.bindTools(tools);
  }
}

function messageText(message: BaseMessage): string {
  return message.text;
}

const langChain: DraftDriver = {
  framework: 'LangChain (responseFormat)',
  extraDraftTools: [DRAFT_OUTPUT_NAME],
  async run({ desk, person, draft, ...rest }) {
    const model = new ListRecordingModel()
      .respondWithTools(FIRST_CALLS.map(({ id, name, args }) => ({ id, name, args })))
      .respondWithTools([{ id: 'draft', name: DRAFT_OUTPUT_NAME, args: draft as Record<string, unknown> }])
      .respond(new AIMessage(FOLLOW_UP));
    const result = await runLangChainLoop({
      model,
      registry: desk.registry,
      conversationId: 'c-1001',
      person,
      ...given(rest),
    });
    const messages = (call: number) => model.calls[call]?.messages ?? [];
    return {
      result,
      seen: {
        calls: model.callCount,
        toolLists: model.bound.map((tools) => tools.map(boundName)),
        draftShape: (
          model.bound[0]
            ?.map(boundSpec)
            .find((spec) => (spec as { name?: unknown }).name === DRAFT_OUTPUT_NAME) as
            | { parameters?: unknown }
            | undefined
        )?.parameters,
        everything: (call) =>
          JSON.stringify([model.bound[call]?.map(boundSpec), messages(call).map((m) => [m.type, m.content])]),
        userTexts: (call) => messages(call).flatMap((m) => (m.type === 'human' ? [messageText(m)] : [])),
        shownFor: (id) => {
          const found = messages(1).find((m) => ToolMessage.isInstance(m) && m.tool_call_id === id);
          return found === undefined ? undefined : messageText(found);
        },
      },
    };
  },
};

/** The three frameworks' harnesses. */
export const DRAFT_DRIVERS: readonly DraftDriver[] = [openAIAgents, aiSdk, langChain];
