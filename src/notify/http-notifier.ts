import {
  DEFAULT_HTTP_POLICY,
  type HttpChannelOptions,
  httpUrl,
  postOnce,
  timeoutOf,
} from './http-attempt.js';
import type { ApprovalNotice, Notifier } from './notifier.js';
import { retryPolicy, sendWithRetries } from './retry-policy.js';

/**
 * A channel that POSTs each notice to one URL under the shared retry policy: the options checked once,
 * the body written once per notice (byte-identical across retries), the headers made per attempt (a
 * signature carries its own timestamp).
 */
export function httpNotifier(spec: {
  readonly factory: string;
  readonly channel: string;
  /** The option that names the URL, for the error message. */
  readonly urlOption: string;
  readonly url: unknown;
  readonly options: HttpChannelOptions & { readonly includePayload?: boolean };
  readonly body: (notice: ApprovalNotice, includePayload: boolean) => string;
  readonly headers?: (notice: ApprovalNotice, body: string) => Record<string, string>;
}): Notifier {
  const { factory, channel, options } = spec;
  const url = httpUrl(factory, spec.urlOption, spec.url);
  const timeoutMs = timeoutOf(factory, options.timeoutMs);
  const policy = retryPolicy(factory, options, DEFAULT_HTTP_POLICY);
  const includePayload = options.includePayload === true;
  const fetchFn = options.fetch ?? globalThis.fetch;
  return {
    channel,
    send(notice, sendOptions) {
      let body: string | undefined;
      return sendWithRetries({
        channel,
        noticeId: String(notice?.id),
        policy,
        options: sendOptions,
        attempt: (signal) => {
          body ??= spec.body(notice, includePayload);
          const headers = spec.headers?.(notice, body) ?? {};
          return postOnce({ fetch: fetchFn, url, body, headers, timeoutMs, signal });
        },
      });
    },
  };
}
