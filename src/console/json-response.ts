import type { Locale } from '../messages/index.js';
import { type ConsoleCode, consoleMessage } from './console-messages.js';

/** A JSON response (`application/json; charset=utf-8`). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** One of the console's own refusals: `{ ok: false, code, error }` in the person's language. */
export function refusal(
  status: number,
  code: ConsoleCode,
  locale: Locale,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { ok: false, code, error: consoleMessage(code, locale) }, headers);
}
