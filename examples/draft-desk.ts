// The app's half of "from draft to decision", the same whatever framework ran the agent: propose
// the agent's draft, let a person decide, and turn the decision into words for the agent's next turn.
// The framework halves are draft-openai-agents.ts, draft-ai-sdk.ts and draft-langchain.ts.
import {
  type Confirmation,
  type ConfirmRequired,
  describeDecision,
  type ErrorCode,
  type JsonSchema,
  type Locale,
  type ToolRegistry,
} from 'graded-tools';

/** The send tool the agent drafts for; the model never sees it, only its input shape. */
export const SEND_TOOL = 'message.send';

/** Who asks for the send: the agent's own id, recorded on the confirmation (never a person's). */
export const DESK_AGENT = 'agent:desk-bot';

/** The gates the agent runs under, for its read tools and for the proposal alike. */
export const DESK_CONTEXT = { scope: 'desk', flags: { kb: true }, actor: DESK_AGENT } as const;

/** What the agent is told to do: read first, then answer with the draft only. */
export const DRAFT_INSTRUCTIONS =
  'You draft replies for a support desk. Read the conversation and search the knowledge base with ' +
  'your tools, never invent facts, then answer with the draft reply only. A person reviews it before ' +
  'anything is sent.';

/** What the agent is told once the person decided: the last user message says how. */
export const FOLLOW_UP_INSTRUCTIONS =
  'You drafted a reply for a support desk and a person decided on it; the last message says how. ' +
  'Acknowledge it in one sentence. If it was not sent, say what you would change.';

/** The first turn's prompt for one conversation. */
export function draftPrompt(conversationId: string): string {
  return `Draft the reply to conversation ${conversationId}.`;
}

/**
 * The send tool's input schema, as the structured output the agent must return: a mutable copy (the
 * registry's is frozen, and frameworks annotate what they are given).
 */
export function draftSchema(registry: ToolRegistry): JsonSchema {
  const tool = registry.get(SEND_TOOL);
  if (tool === undefined || tool.sideEffect !== 'send')
    throw new TypeError(`${SEND_TOOL} is not a send tool`);
  return structuredClone(tool.inputSchema) as JsonSchema;
}

/**
 * The person's step: in an app, someone in the console, a Slack button or an approval link; here a
 * function that gets the pending request and calls `registry.confirm` or `registry.reject`.
 */
export type PersonStep = (asked: ConfirmRequired) => Promise<unknown>;

/** A person who confirms exactly what they were shown (the digest proves it). */
export function approveAs(registry: ToolRegistry, approvedBy: string): PersonStep {
  return (asked) => registry.confirm(asked.confirmationId, { approvedBy, digest: asked.digest });
}

/** A person who rejects, saying why: the agent hears the reason. */
export function rejectAs(registry: ToolRegistry, rejectedBy: string, reason: string): PersonStep {
  return (asked) => registry.reject(asked.confirmationId, { rejectedBy, reason });
}

/** What one draft came to: the decision and its words for the agent, or where the loop stopped. */
export type DraftLoopResult =
  | {
      readonly ok: true;
      readonly draft: unknown;
      readonly confirmation: Confirmation;
      /** `describeDecision`'s words, handed to the agent as its next turn's message. */
      readonly decisionText: string;
      /** What the agent said on hearing the decision. */
      readonly followUp: string;
    }
  | {
      readonly ok: false;
      readonly stage: 'propose' | 'wait';
      readonly code: ErrorCode;
      readonly error: string;
    };

/** Options of `proposeAndHear`. */
export interface ProposeOptions {
  readonly registry: ToolRegistry;
  readonly draft: unknown;
  readonly conversationId: string;
  readonly person: PersonStep;
  readonly locale?: Locale;
  readonly signal?: AbortSignal;
  /** How long to wait for the person (default ten minutes). */
  readonly timeoutMs?: number;
}

/** What `proposeAndHear` gives the framework half: the decision in words, or why there is none. */
export type Heard =
  | { readonly ok: true; readonly confirmation: Confirmation; readonly decisionText: string }
  | Extract<DraftLoopResult, { ok: false }>;

/**
 * Propose the draft as a pending send (never delivered here), let the person decide, wait for the
 * decision and put it in words. `waitFor` starts before the person acts, as it does when the
 * decision comes from another request or another instance sharing the store.
 */
export async function proposeAndHear(options: ProposeOptions): Promise<Heard> {
  const { registry, conversationId, locale = 'en' } = options;
  const asked = await registry.propose(SEND_TOOL, options.draft, {
    ...DESK_CONTEXT,
    note: `Reply drafted by the desk agent after reading conversation ${conversationId} and the knowledge base.`,
    links: [{ label: `Conversation ${conversationId}`, url: `https://desk.example/c/${conversationId}` }],
    ref: conversationId,
    locale,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!asked.ok) return { ok: false, stage: 'propose', code: asked.code, error: asked.error };
  // If the simulated person fails, stop waiting rather than hold the wait's timer to its end.
  const personFailed = new AbortController();
  const signals = [personFailed.signal, ...(options.signal === undefined ? [] : [options.signal])];
  const waiting = registry.confirmations.waitFor(asked.confirmationId, {
    timeoutMs: options.timeoutMs ?? 600_000,
    signal: AbortSignal.any(signals),
  });
  await Promise.resolve(options.person(asked)).catch((error: unknown) => {
    personFailed.abort();
    throw error;
  });
  const decided = await waiting;
  if (!decided.ok) return { ok: false, stage: 'wait', code: decided.code, error: decided.error };
  return {
    ok: true,
    confirmation: decided.confirmation,
    decisionText: describeDecision(decided.confirmation, locale),
  };
}
