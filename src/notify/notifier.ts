import type { ConfirmationStatus } from '../confirm/types.js';
import type { Locale } from '../messages/index.js';

/** Why a notice goes out: a confirmation was created, it expires soon, or it was decided. */
export type NoticeKind = 'created' | 'reminder' | 'decided';

/**
 * One notification about one confirmation, as the registry hands it to every channel. It carries what a
 * person needs to act (tool title, who asked, when it expires, a link) and no payload unless the
 * registry was told `includePayload: true`.
 */
export interface ApprovalNotice {
  /** Stable per notification (e.g. `${confirmationId}.created`): the `webhook-id`, the same across retries. */
  readonly id: string;
  readonly kind: NoticeKind;
  readonly confirmation: {
    readonly id: string;
    /** The tool's internal name (`message.send`). */
    readonly tool: string;
    /** The tool's title, what a person reads. */
    readonly title: string;
    /** Who asked. */
    readonly actor?: string;
    readonly createdAt: string;
    readonly expiresAt: string;
    readonly status: ConfirmationStatus;
  };
  /** The console URL of that one confirmation. */
  readonly link?: string;
  /** Present only when the registry was told `includePayload: true`. */
  readonly payload?: unknown;
  /** For `decided`: the person who asked. */
  readonly recipient?: string;
  readonly locale: Locale;
}

/** One try of one channel at one notice, reported through `onAttempt` whether it worked or not. */
export interface NotifyAttempt {
  readonly channel: string;
  readonly noticeId: string;
  /** 1 for the first try, 2 for the first retry, … */
  readonly attempt: number;
  readonly ok: boolean;
  readonly error?: string;
  /** The receiver's status code, when it answered: HTTP for webhooks and Slack, the SMTP reply code for email. */
  readonly status?: number;
  /** How long the attempt took, in milliseconds. */
  readonly ms: number;
}

/** What a caller may pass to `send`. */
export interface NotifySendOptions {
  /** Aborts the attempt in flight and any waiting or retrying. */
  readonly signal?: AbortSignal;
  /** Hears every attempt; what it throws is ignored. */
  readonly onAttempt?: (attempt: NotifyAttempt) => void;
}

/** The outcome of one `send`: `ok` once the channel took the notice, otherwise why it gave up. */
export interface NotifyResult {
  readonly ok: boolean;
  readonly error?: string;
}

/** A way to tell people: a webhook, Slack, email, or your own. */
export interface Notifier {
  /** `'webhook'`, `'slack'`, `'email'`, or a custom name. */
  readonly channel: string;
  /** Sends one notice, retrying as the channel does; resolves when done or given up, never rejects. */
  send(notice: ApprovalNotice, options: NotifySendOptions): Promise<NotifyResult>;
}
