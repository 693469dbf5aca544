import { describeThrown } from '../util/describe-thrown.js';
import { truncateText } from '../util/truncate.js';
import { type AttemptOutcome, invalidOption, parseRetryAfter } from './retry-policy.js';

/** The options every HTTP channel (webhook, Slack) shares. */
export interface HttpChannelOptions {
  /** Per attempt, including reading the answer. Default 5000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, on network errors, timeouts, 5xx and 429. Default 3. */
  readonly retries?: number;
  /** The first backoff; it doubles each retry, with jitter. Default 500. */
  readonly backoffMs?: number;
  /** The `fetch` to use; the global one by default. */
  readonly fetch?: typeof fetch;
}

export const DEFAULT_HTTP_POLICY = { retries: 3, backoffMs: 500 } as const;
export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Checks an endpoint at setup: an absolute http(s) URL without `user:password@` (fetch would refuse it
 * and quote the password in every error), or `INVALID_OPTION`.
 */
export function httpUrl(factory: string, option: string, url: unknown): string {
  let parsed: URL | undefined;
  try {
    if (typeof url === 'string') parsed = new URL(url);
  } catch {
    // Falls through to the error below.
  }
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw invalidOption(`${factory}: \`${option}\` must be an absolute http(s) URL.`);
  if (parsed.username !== '' || parsed.password !== '')
    throw invalidOption(
      `${factory}: \`${option}\` must not hold a user name or password; send credentials in the URL's path or a header the receiver checks.`,
    );
  return url as string;
}

/** Checks `timeoutMs` at setup. */
export function timeoutOf(factory: string, timeoutMs: number | undefined): number {
  const value = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(value) || value <= 0)
    throw invalidOption(`${factory}: \`timeoutMs\` must be a positive number of milliseconds.`);
  return value;
}

/**
 * One POST of a JSON body, classified for the retry loop: 2xx works; network errors, timeouts, 5xx and
 * 429 may be retried; any other status (redirects included: a notice is never sent on to another host)
 * is final.
 */
export async function postOnce(args: {
  readonly fetch: typeof fetch;
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}): Promise<AttemptOutcome> {
  const timeout = AbortSignal.timeout(args.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await args.fetch(args.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...args.headers },
      body: args.body,
      redirect: 'manual',
      signal: args.signal === undefined ? timeout : AbortSignal.any([args.signal, timeout]),
    });
    text = await response.text();
  } catch (error) {
    if (args.signal?.aborted) return { ok: false, error: 'aborted', retry: false };
    if (timeout.aborted) return { ok: false, error: `timed out after ${args.timeoutMs} ms`, retry: true };
    return { ok: false, error: networkError(error), retry: true };
  }
  const { status } = response;
  if (status >= 200 && status < 300) return { ok: true, status };
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  const said = text.trim() === '' ? '' : `: ${truncateText(text.trim(), 200)}`;
  return {
    ok: false,
    status,
    error: `HTTP ${status}${said}`,
    retry: status === 429 || status >= 500,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` rather than undici's bare `fetch failed`. */
function networkError(error: unknown): string {
  const message = describeThrown(error);
  const cause = error instanceof Error && error.cause !== undefined ? describeThrown(error.cause) : undefined;
  return cause === undefined || cause === message ? message : `${message}: ${cause}`;
}
