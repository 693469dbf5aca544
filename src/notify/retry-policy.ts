import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { describeThrown } from '../util/describe-thrown.js';
import { redactUrls } from '../util/redact-urls.js';
import type { NotifyAttempt, NotifyResult, NotifySendOptions } from './notifier.js';

/** How often and how patiently a channel tries again. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** The first backoff; each retry doubles it, with jitter, up to `MAX_BACKOFF_MS`. */
  readonly backoffMs: number;
}

/** No backoff grows past this. */
export const MAX_BACKOFF_MS = 30_000;
/** A `Retry-After` longer than this ends the retries: a notice that late is no use to an approver. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** What one attempt came to, and whether another may follow. */
export type AttemptOutcome =
  | { readonly ok: true; readonly status?: number }
  | {
      readonly ok: false;
      readonly error: string;
      readonly status?: number;
      /** A network error, a timeout, 5xx, 429: worth another try. */
      readonly retry: boolean;
      /** What the receiver asked for (`Retry-After`), in milliseconds. */
      readonly retryAfterMs?: number;
    };

/** Reads `retries` and `backoffMs`, throwing `INVALID_OPTION` at setup for values that make no sense. */
export function retryPolicy(
  factory: string,
  options: { readonly retries?: number | undefined; readonly backoffMs?: number | undefined },
  defaults: RetryPolicy,
): RetryPolicy {
  const retries = options.retries ?? defaults.retries;
  const backoffMs = options.backoffMs ?? defaults.backoffMs;
  if (!Number.isInteger(retries) || retries < 0 || retries > 20)
    throw invalidOption(`${factory}: \`retries\` must be an integer from 0 to 20.`);
  if (!Number.isFinite(backoffMs) || backoffMs < 0)
    throw invalidOption(`${factory}: \`backoffMs\` must be a non-negative number of milliseconds.`);
  return { retries, backoffMs };
}

/** The wait before retry number `retry` (1-based): exponential, with jitter in its upper half. */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, policy.backoffMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** A `Retry-After` header (seconds or an HTTP date) in milliseconds from `now`; `undefined` if unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month; without this, Date.parse reads '-5' as a year.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Runs `attempt` until it works, says not to retry, the retries run out or `signal` aborts; reports each
 * attempt; never rejects. The one retry loop every channel shares, so every error text a channel
 * reports (attempts and the result) has its URLs redacted here.
 */
export async function sendWithRetries(args: {
  readonly channel: string;
  readonly noticeId: string;
  readonly policy: RetryPolicy;
  readonly options: NotifySendOptions | undefined;
  readonly attempt: (signal: AbortSignal | undefined) => Promise<AttemptOutcome>;
}): Promise<NotifyResult> {
  const { channel, noticeId, policy } = args;
  const signal = args.options?.signal;
  const report = (attempt: NotifyAttempt) => {
    try {
      args.options?.onAttempt?.(attempt);
    } catch {
      // A listener's mistake must not stop a notice.
    }
  };
  for (let attempt = 1; ; attempt += 1) {
    if (signal?.aborted) return { ok: false, error: abortedError(signal) };
    const started = performance.now();
    let outcome: AttemptOutcome;
    try {
      outcome = await args.attempt(signal);
    } catch (error) {
      outcome = { ok: false, error: describeThrown(error), retry: false };
    }
    // Error texts quote URLs (fetch, SMTP transports); their passwords and tokens stop here.
    if (!outcome.ok) outcome = { ...outcome, error: redactUrls(outcome.error) };
    const ms = Math.round(performance.now() - started);
    report({
      channel,
      noticeId,
      attempt,
      ok: outcome.ok,
      ms,
      ...(outcome.ok ? {} : { error: outcome.error }),
      ...(outcome.status === undefined ? {} : { status: outcome.status }),
    });
    if (outcome.ok) return { ok: true };
    if (!outcome.retry || attempt > policy.retries || signal?.aborted)
      return { ok: false, error: signal?.aborted ? abortedError(signal) : outcome.error };
    const asked = outcome.retryAfterMs;
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS)
      return {
        ok: false,
        error: `${outcome.error}; the receiver asked to wait ${Math.ceil(asked / 1000)} s, more than the ${MAX_RETRY_AFTER_MS / 1000} s this channel waits`,
      };
    if (!(await sleep(asked ?? backoffDelay(policy, attempt), signal)))
      return { ok: false, error: abortedError(signal) };
  }
}

/** Waits `ms`; `false` if `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortedError(signal: AbortSignal | undefined): string {
  const reason = signal?.reason;
  return reason === undefined ? 'aborted' : `aborted: ${redactUrls(describeThrown(reason))}`;
}

/** The setup error every notifier factory throws for an option that makes no sense. */
export function invalidOption(message: string): ToolDefinitionError {
  return new ToolDefinitionError('INVALID_OPTION', '', message);
}
