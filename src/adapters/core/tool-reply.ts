import { formatMessage, type Locale } from '../../messages/index.js';
import type { ErrorCode, ReadOnlyResult } from '../../result.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { truncateText } from '../../util/truncate.js';

/** A tool result as the model will see it: JSON text of the data, or an error it can act on. */
export type ToolReply =
  | {
      readonly ok: true;
      /** `JSON.stringify(data)`, cut to the limit. */
      readonly text: string;
      /** True when `text` was cut (and is therefore no longer valid JSON). */
      readonly truncated: boolean;
    }
  | {
      readonly ok: false;
      readonly code: ErrorCode;
      /** The registry's message, cut to the limit. */
      readonly message: string;
    };

function jsonText(data: unknown): { text: string } | { problem: string } {
  try {
    const text = JSON.stringify(data);
    return typeof text === 'string' ? { text } : { problem: `a ${typeof data} is not JSON` };
  } catch (error) {
    return { problem: describeThrown(error) };
  }
}

/**
 * Turns what the model's exit returned into what the model sees. A result that cannot be written
 * as JSON (a BigInt, a cycle, a throwing `toJSON`) becomes a `RUN_FAILED` reply instead of an
 * exception: nothing a tool returns may break the adapter. `tool` names it in that message (a
 * function, to look the name up only then).
 */
export function toToolReply(
  result: ReadOnlyResult,
  tool: string | (() => string),
  maxChars: number,
  locale: Locale | undefined,
): ToolReply {
  if (!result.ok) return { ok: false, code: result.code, message: truncateText(result.error, maxChars) };
  const json = jsonText(result.data);
  if ('problem' in json) {
    const detail = `its result cannot be sent as JSON (${json.problem.slice(0, 200)})`;
    const message = formatMessage(
      'RUN_FAILED',
      { tool: typeof tool === 'string' ? tool : tool(), detail },
      locale,
    );
    return { ok: false, code: 'RUN_FAILED', message: truncateText(message, maxChars) };
  }
  const text = truncateText(json.text, maxChars);
  return { ok: true, text, truncated: text !== json.text };
}

/**
 * `{"error":{"code":…,"message":…}}` as text of at most `maxChars` characters: the shape OpenAI-style
 * tool messages use to mark a failure. The message is cut until the whole stays valid JSON and fits.
 */
export function errorJson(code: ErrorCode, message: string, maxChars: number): string {
  let text = JSON.stringify({ error: { code, message } });
  let room = message.length;
  while (text.length > maxChars && room > 0) {
    room = Math.max(0, room - (text.length - maxChars) - 1);
    text = JSON.stringify({ error: { code, message: truncateText(message, room) } });
  }
  return text;
}
