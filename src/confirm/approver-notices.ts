import { type EventListener, emitSafely } from '../events.js';
import type { Locale } from '../messages/index.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { ApprovalNotice, NoticeKind, Notifier } from './notice.js';
import type { Confirmation, ConfirmationStatus } from './types.js';

/** How long one channel may take over one notice, retries included, before it is let go of. */
const NOTICE_DEADLINE_MS = 5 * 60_000;

/** What the registry lends the notices: its channels, settings and listener. */
export interface NoticeSettings {
  readonly notifiers: readonly Notifier[];
  readonly consoleUrl: string | undefined;
  readonly includePayload: boolean;
  readonly locale: Locale;
  readonly onEvent: EventListener | undefined;
  readonly now: () => number;
  readonly titleOf: (tool: string) => string;
}

/**
 * Tells approvers, never in the way: each notice is handed to every channel and not awaited, so a
 * slow or failing channel never delays or fails an invoke, a confirm or a decision. Every attempt is
 * a `notify` event. Which instance tells is decided where the change is made: the one that created,
 * claimed or finished a confirmation, and for reminders the sweep that claimed them in the store.
 */
export class ApproverNotices {
  readonly #s: NoticeSettings;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(settings: NoticeSettings) {
    this.#s = settings;
  }

  /** A send waits for a person. */
  created(confirmation: Confirmation): void {
    this.#tell('created', confirmation, confirmation.status);
  }

  /** It will expire soon and nobody has decided. */
  reminder(confirmation: Confirmation): void {
    this.#tell('reminder', confirmation, confirmation.status);
  }

  /** It was decided (delivered, rejected, expired, failed, unknown): the asker is told. */
  decided(confirmation: Confirmation, status: ConfirmationStatus): void {
    this.#tell('decided', confirmation, status);
  }

  /** Resolves when every notice handed out so far is done (tests; a graceful shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #tell(kind: NoticeKind, confirmation: Confirmation, status: ConfirmationStatus): void {
    if (this.#s.notifiers.length === 0) return;
    const notice = this.#notice(kind, confirmation, status);
    for (const notifier of this.#s.notifiers) {
      const sent = this.#send(notifier, notice);
      this.#inFlight.add(sent);
      sent.finally(() => this.#inFlight.delete(sent));
    }
  }

  #notice(kind: NoticeKind, c: Confirmation, status: ConfirmationStatus): ApprovalNotice {
    const { consoleUrl, includePayload, locale } = this.#s;
    return Object.freeze({
      id: kind === 'decided' ? `${c.id}.decided.${status}` : `${c.id}.${kind}`,
      kind,
      confirmation: Object.freeze({
        id: c.id,
        tool: c.tool,
        title: this.#title(c.tool),
        ...(c.actor === undefined ? {} : { actor: c.actor }),
        createdAt: c.createdAt,
        expiresAt: c.expiresAt,
        status,
      }),
      ...(consoleUrl === undefined
        ? {}
        : { link: `${consoleUrl}/confirmations/${encodeURIComponent(c.id)}` }),
      ...(includePayload ? { payload: c.payload } : {}),
      ...(kind === 'decided' && c.actor !== undefined ? { recipient: c.actor } : {}),
      locale,
    });
  }

  #title(tool: string): string {
    try {
      return this.#s.titleOf(tool);
    } catch {
      return tool;
    }
  }

  /**
   * One channel, one notice: whatever the channel does, nothing reaches the caller but events. A
   * channel that has not answered within `NOTICE_DEADLINE_MS` is told to stop (its signal) and let go
   * of, so a hanging channel holds nothing for long.
   */
  async #send(notifier: Notifier, notice: ApprovalNotice): Promise<void> {
    // Never on the caller's stack: the channel starts after the change that prompted it has returned.
    await Promise.resolve();
    const channel = safeChannel(notifier);
    const report = (attempt: { attempt: number; ok: boolean; error?: string; status?: number; ms: number }) =>
      emitSafely(this.#s.onEvent, {
        type: 'notify',
        channel,
        kind: notice.kind,
        noticeId: notice.id,
        confirmationId: notice.confirmation.id,
        attempt: attempt.attempt,
        ok: attempt.ok,
        ...(attempt.error === undefined ? {} : { error: String(attempt.error).slice(0, 500) }),
        ...(attempt.status === undefined ? {} : { status: attempt.status }),
        ms: attempt.ms,
        at: this.#s.now(),
      });
    const started = Date.now();
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<{ ok: false; error: string }>((resolve) => {
      timer = setTimeout(() => {
        stop.abort();
        resolve({ ok: false, error: `no answer within ${NOTICE_DEADLINE_MS / 60_000} minutes` });
      }, NOTICE_DEADLINE_MS);
      timer.unref?.();
    });
    try {
      const sent = notifier.send(notice, { signal: stop.signal, onAttempt: (attempt) => report(attempt) });
      const outcome = await Promise.race([sent, deadline]);
      if (outcome?.ok !== true) {
        const error = outcome?.error === undefined ? 'the channel gave up' : String(outcome.error);
        report({ attempt: 0, ok: false, error: `gave up: ${error}`, ms: Date.now() - started });
      }
    } catch (error) {
      report({
        attempt: 0,
        ok: false,
        error: `the channel threw: ${describeThrown(error)}`,
        ms: Date.now() - started,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

function safeChannel(notifier: Notifier): string {
  try {
    return String(notifier.channel);
  } catch {
    return 'unknown';
  }
}
