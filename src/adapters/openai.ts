// graded-tools/openai: Chat Completions and Responses API tools, answers, sanitised replay, strict mode.

export { INVALID_TOOL_NAME } from './core/call-plan.js';
export type { AdapterOptions } from './core/options.js';
export { answerChatToolCalls, sanitizeChatAssistantMessage, toChatCompletionTools } from './openai/chat.js';
export {
  answerResponsesFunctionCalls,
  sanitizeResponsesOutput,
  toResponsesTools,
} from './openai/responses.js';
export { OPENAI_STRICT_UNSUPPORTED_KEYWORDS, toOpenAIStrictSchema } from './openai/strict-schema.js';
export type { OpenAIAdapterOptions } from './openai/tool-list.js';
export { OPENAI_MAX_TOOLS } from './openai/tool-list.js';
