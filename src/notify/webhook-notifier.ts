import { Webhook } from 'standardwebhooks';
import { type OriginsText, originsText } from '../origins/origin-words.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { HttpChannelOptions } from './http-attempt.js';
import { httpNotifier } from './http-notifier.js';
import { noticeData } from './notice-data.js';
import { noticeWords, requirementLine } from './notice-text.js';
import type { ApprovalNotice, Notifier } from './notifier.js';
import { invalidOption } from './retry-policy.js';

/** Where and how to send signed webhooks. */
export interface WebhookNotifierOptions extends HttpChannelOptions {
  /** The receiver's endpoint (http or https). */
  readonly url: string;
  /**
   * The signing secret: the Standard Webhooks `whsec_…` form (base64 after the prefix), or the raw key
   * bytes. The receiver verifies with the same secret.
   */
  readonly secret: string | Uint8Array;
  /** Put the payload in the body when the notice carries one. Default `false`. */
  readonly includePayload?: boolean;
}

/** The body of every webhook this library sends. */
export interface WebhookBody {
  readonly type:
    | 'confirmation.created'
    | 'confirmation.reminder'
    | 'confirmation.escalated'
    | 'confirmation.decided';
  /** When the notice was first sent (ISO 8601); the same on every retry, so the body is too. */
  readonly timestamp: string;
  readonly data: Omit<ApprovalNotice, 'locale'>;
  /**
   * `data.confirmation.origins` in the notice's language, as the console and the other channels say
   * them ("to: appears only in what the agent read from Inbox (inbox.read)"): for a receiver that shows
   * a person where each destination came from without wording it again.
   */
  readonly originsText?: OriginsText;
  /**
   * What the tool's rules ask of the approvers of a pending confirmation, in the notice's language and
   * in the words the console, Slack and mail say it ("Needs 2 approvals from finance — 1 of 2
   * approved"); absent for one plain approval or once decided.
   */
  readonly requiresText?: string;
}

/**
 * A channel that POSTs each notice as JSON signed per the Standard Webhooks specification
 * (`webhook-id` = the notice id, the same on every retry; `webhook-timestamp`; `webhook-signature`), so
 * any Standard Webhooks library verifies it. Retries network errors, timeouts, 5xx and 429 (honouring
 * `Retry-After` up to a minute) with exponential backoff and jitter; never other 4xx. No payload
 * unless `includePayload`.
 *
 * @example
 * ```ts
 * import { webhookNotifier } from 'graded-tools/notify';
 *
 * const webhook = webhookNotifier({
 *   url: 'https://hooks.example/approvals',
 *   secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
 * });
 * const result = await webhook.send(
 *   {
 *     id: 'c_1.created',
 *     kind: 'created',
 *     confirmation: {
 *       id: 'c_1',
 *       tool: 'message.send',
 *       title: 'Send a message',
 *       actor: 'ana',
 *       createdAt: '2026-12-01T14:00:00.000Z',
 *       expiresAt: '2026-12-01T14:30:00.000Z',
 *       status: 'pending',
 *     },
 *     link: 'https://desk.example/approvals/c_1',
 *     locale: 'en',
 *   },
 *   { onAttempt: (attempt) => console.log(attempt.attempt, attempt.ok, attempt.error) },
 * );
 * if (!result.ok) console.log(result.error);
 * ```
 */
export function webhookNotifier(options: WebhookNotifierOptions): Notifier {
  const signer = signerFor(options.secret);
  return httpNotifier({
    factory: 'webhookNotifier',
    channel: 'webhook',
    urlOption: 'url',
    url: options.url,
    options,
    body: webhookBody,
    headers: (notice, body) => {
      const now = new Date();
      return {
        'webhook-id': notice.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(notice.id, now, body),
      };
    },
  });
}

/** The signed body of one notice (exported for tests; the notifier is the API). */
export function webhookBody(notice: ApprovalNotice, includePayload: boolean): string {
  const data = noticeData(notice, includePayload);
  const origins = originsText(data.confirmation, notice.locale);
  const requiresText = requirementLine(data, noticeWords(notice.locale).lang);
  const body: WebhookBody = {
    type: `confirmation.${notice.kind}`,
    timestamp: new Date().toISOString(),
    data,
    ...(origins === undefined ? {} : { originsText: origins }),
    ...(requiresText === undefined ? {} : { requiresText }),
  };
  return JSON.stringify(body);
}

function signerFor(secret: unknown): Webhook {
  try {
    if (secret instanceof Uint8Array) return new Webhook(secret, { format: 'raw' });
    if (typeof secret === 'string' && secret.trim() !== '') return new Webhook(secret);
  } catch (error) {
    throw invalidOption(
      `webhookNotifier: \`secret\` is not a Standard Webhooks secret (whsec_ then base64, or raw bytes): ${describeThrown(error)}`,
    );
  }
  throw invalidOption(
    'webhookNotifier: `secret` is required: a Standard Webhooks secret (whsec_ then base64) or raw bytes.',
  );
}
