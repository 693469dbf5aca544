// What each provider checks in a request before it answers, as far as these adapters touch it:
// tool names, call ids, and that every call in the replayed assistant turn has exactly one result.
// The loopback servers answer 400 when a rule fails, the way the real APIs do.
import { PROVIDER_NAME_RULE, WRITE_AND_SEND_WIRE_NAMES } from './hostile-calls.js';

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
type Json = any;

function checkToolNames(names: readonly unknown[], problems: string[]): void {
  for (const name of names) {
    if (typeof name !== 'string' || !PROVIDER_NAME_RULE.test(name))
      problems.push(`illegal tool name ${JSON.stringify(name)}`);
    if (WRITE_AND_SEND_WIRE_NAMES.includes(String(name)))
      problems.push(`write/send tool listed: ${String(name)}`);
  }
}

function checkAnswered(
  ids: readonly unknown[],
  answers: readonly unknown[],
  where: string,
  problems: string[],
): void {
  if (new Set(ids).size !== ids.length) problems.push(`${where}: duplicate call ids ${JSON.stringify(ids)}`);
  const wanted = [...ids].map(String).sort();
  const got = [...answers].map(String).sort();
  if (JSON.stringify(wanted) !== JSON.stringify(got))
    problems.push(`${where}: calls ${JSON.stringify(wanted)} answered by ${JSON.stringify(got)}`);
}

function isJsonObjectText(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Chat Completions: tool names, tool_calls (non-empty, unique ids, legal names, JSON arguments), answers. */
export function chatRequestProblems(body: Json): string[] {
  const problems: string[] = [];
  checkToolNames(
    (body.tools ?? []).map((tool: Json) => tool.function?.name),
    problems,
  );
  const messages: Json[] = body.messages ?? [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const previous = messages.slice(0, index).findLast((m) => m.role !== 'tool');
      const ids = (previous?.tool_calls ?? []).map((call: Json) => call.id);
      if (!ids.includes(message.tool_call_id))
        problems.push(`tool message answers unknown id ${message.tool_call_id}`);
      if (typeof message.content !== 'string') problems.push('tool message content is not text');
    }
    if (message.role !== 'assistant' || message.tool_calls === undefined) return;
    if (message.tool_calls.length === 0) problems.push('empty tool_calls');
    const ids = message.tool_calls.map((call: Json) => call.id);
    for (const call of message.tool_calls) {
      const name = call.type === 'custom' ? call.custom?.name : call.function?.name;
      if (typeof name !== 'string' || !PROVIDER_NAME_RULE.test(name))
        problems.push(`replayed illegal name ${JSON.stringify(name)}`);
      if (typeof call.id !== 'string' || call.id === '') problems.push('replayed call without id');
      if (call.type !== 'custom' && !isJsonObjectText(call.function?.arguments))
        problems.push(
          `replayed arguments are not a JSON object: ${JSON.stringify(call.function?.arguments)}`,
        );
    }
    const answers: unknown[] = [];
    for (const next of messages.slice(index + 1)) {
      if (next.role !== 'tool') break;
      answers.push(next.tool_call_id);
    }
    checkAnswered(ids, answers, `messages[${index}]`, problems);
  });
  return problems;
}

/** Responses API: tool names, function_call items (legal names, unique call ids) and their outputs. */
export function responsesRequestProblems(body: Json): string[] {
  const problems: string[] = [];
  checkToolNames(
    (body.tools ?? []).map((tool: Json) => tool.name),
    problems,
  );
  for (const tool of body.tools ?? [])
    if (typeof tool.strict !== 'boolean') problems.push('tool without strict');
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const calls = input.filter((item) => item.type === 'function_call');
  for (const call of calls) {
    if (!PROVIDER_NAME_RULE.test(call.name))
      problems.push(`replayed illegal name ${JSON.stringify(call.name)}`);
    if (!isJsonObjectText(call.arguments)) problems.push('replayed arguments are not a JSON object');
  }
  const outputs = input.filter((item) => item.type === 'function_call_output');
  for (const output of outputs) if (typeof output.output !== 'string') problems.push('output is not text');
  checkAnswered(
    calls.map((call) => call.call_id),
    outputs.map((output) => output.call_id),
    'input',
    problems,
  );
  return problems;
}

/** Anthropic Messages: tool names; tool_use ids/names/input; tool_result blocks first in the next user turn. */
export function anthropicRequestProblems(body: Json): string[] {
  const problems: string[] = [];
  checkToolNames(
    (body.tools ?? []).map((tool: Json) => tool.name),
    problems,
  );
  for (const tool of body.tools ?? []) {
    for (const keyword of ['anyOf', 'oneOf', 'allOf'])
      if (keyword in (tool.input_schema ?? {})) problems.push(`input_schema has ${keyword} at the top level`);
  }
  const messages: Json[] = body.messages ?? [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const uses = message.content.filter((block: Json) => block.type === 'tool_use');
    if (uses.length === 0) return;
    for (const use of uses) {
      if (typeof use.id !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(use.id))
        problems.push(`tool_use id ${JSON.stringify(use.id)}`);
      if (!PROVIDER_NAME_RULE.test(use.name))
        problems.push(`replayed illegal name ${JSON.stringify(use.name)}`);
      if (typeof use.input !== 'object' || use.input === null || Array.isArray(use.input))
        problems.push('tool_use input is not an object');
    }
    const next = messages[index + 1];
    const content: Json[] = next?.role === 'user' && Array.isArray(next.content) ? next.content : [];
    const firstNonResult = content.findIndex((block) => block.type !== 'tool_result');
    const results = firstNonResult === -1 ? content : content.slice(0, firstNonResult);
    if (content.slice(results.length).some((block) => block.type === 'tool_result'))
      problems.push('tool_result blocks must come first');
    checkAnswered(
      uses.map((use: Json) => use.id),
      results.map((block) => block.tool_use_id),
      `messages[${index}]`,
      problems,
    );
  });
  return problems;
}

/** Gemini generateContent: declaration names; functionCall names; functionResponse per call, same name and id. */
export function geminiRequestProblems(body: Json): string[] {
  const problems: string[] = [];
  const declarations = (body.tools ?? []).flatMap((tool: Json) => tool.functionDeclarations ?? []);
  checkToolNames(
    declarations.map((declaration: Json) => declaration.name),
    problems,
  );
  const contents: Json[] = body.contents ?? [];
  contents.forEach((content, index) => {
    const calls = (content.parts ?? [])
      .filter((part: Json) => part.functionCall)
      .map((part: Json) => part.functionCall);
    if (content.role !== 'model' || calls.length === 0) return;
    for (const call of calls) {
      if (!PROVIDER_NAME_RULE.test(call.name))
        problems.push(`replayed illegal name ${JSON.stringify(call.name)}`);
    }
    const ids = calls.filter((call: Json) => call.id !== undefined).map((call: Json) => call.id);
    if (new Set(ids).size !== ids.length) problems.push('duplicate functionCall ids');
    const responses = (contents[index + 1]?.parts ?? [])
      .filter((part: Json) => part.functionResponse)
      .map((part: Json) => part.functionResponse);
    if (responses.length !== calls.length)
      problems.push(`${calls.length} calls, ${responses.length} responses`);
    calls.forEach((call: Json, n: number) => {
      if (responses[n]?.name !== call.name)
        problems.push(`response ${n} names ${responses[n]?.name}, call ${call.name}`);
      if (responses[n]?.id !== call.id)
        problems.push(`response ${n} id ${responses[n]?.id}, call ${call.id}`);
      const response = responses[n]?.response;
      if (typeof response !== 'object' || response === null || Array.isArray(response))
        problems.push('functionResponse.response is not an object');
    });
  });
  return problems;
}
