import type { Confirmation, ConfirmationStatus, Origins } from '../../confirmation.js';
import { type EventListener, emitSafely } from '../../events.js';
import { Deadlines, Expiring } from '../../invoke/deadlines.js';
import { alikeText } from '../../messages/alike-words.js';
import { gradeOf } from '../../messages/grade-words.js';
import type { Locale } from '../../messages/index.js';
import type { ApprovalNotice, NoticeKind, Notifier } from '../../notice.js';
import { titledOrigins, titledValueOrigins } from '../../origins/read-origins.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { editedFields } from '../reading/edited-fields.js';

/** How long one channel may take over one notice, retries included, before it is let go of. */
const NOTICE_DEADLINE_MS = 5 * 60_000;
/**
 * The most notices one channel may have unanswered at once; past it a notice is not handed to that
 * channel (a `notify` event says so). A channel that hangs then holds bounded memory, not five
 * minutes of every notice; a slow but working one still takes a thousand at a time.
 */
export const MAX_WAITING_PER_CHANNEL = 1_000;

/** What the registry lends the notices: its channels, settings and listener. */
export interface NoticeSettings {
  readonly notifiers: readonly Notifier[];
  readonly consoleUrl: string | undefined;
  readonly includePayload: boolean;
  readonly locale: Locale;
  readonly onEvent: EventListener | undefined;
  readonly now: () => number;
  readonly titleOf: (tool: string) => string;
  /** A registered tool's grade: a record asked before records said it is a write is worded by it. */
  readonly sideEffectOf: (tool: string) => string | undefined;
}

/**
 * Tells approvers, never in the way: each notice is handed to every channel and not awaited, so a
 * slow or failing channel never delays or fails an invoke, a confirm or a decision. Every attempt is
 * a `notify` event. Which instance tells is decided where the change is made: the one that created,
 * claimed or finished a confirmation, and for reminders the sweep that claimed them in the store.
 */
export class ApproverNotices {
  readonly #s: NoticeSettings;
  /** Per channel (by its place in `notifiers`): its name, read once, and how many notices it owes. */
  readonly #channels: Channel[];
  /** Every channel told so far, escalation steps' too, so each keeps one count of what it owes. */
  readonly #byNotifier = new Map<Notifier, Channel>();
  /**
   * One timer for every notice in flight, never keeping the process alive: a timer and an
   * AbortController per notice cost a memory-store confirm a quarter of its rate (`npm run bench`).
   */
  readonly #deadlines = new Deadlines({ keepAlive: false, ordered: true });

  constructor(settings: NoticeSettings) {
    this.#s = settings;
    this.#channels = settings.notifiers.map((notifier) => this.#channelOf(notifier));
  }

  #channelOf(notifier: Notifier): Channel {
    let channel = this.#byNotifier.get(notifier);
    if (channel === undefined) {
      channel = { notifier, name: safeChannel(notifier), waiting: 0 };
      this.#byNotifier.set(notifier, channel);
    }
    return channel;
  }

  /** A send waits for a person. */
  created(confirmation: Confirmation): void {
    this.#tell('created', confirmation, confirmation.status);
  }

  /** It will expire soon and nobody has decided. */
  reminder(confirmation: Confirmation): void {
    this.#tell('reminder', confirmation, confirmation.status);
  }

  /** It is still pending after an escalation step's `afterMs`: that step's channels are told. */
  escalated(confirmation: Confirmation, escalation: Escalation, to: readonly Notifier[]): void {
    const channels = to.map((notifier) => this.#channelOf(notifier));
    this.#tell('escalated', confirmation, confirmation.status, channels, escalation);
  }

  /** It was decided (delivered, rejected, expired, failed, unknown): the asker is told. */
  decided(confirmation: Confirmation, status: ConfirmationStatus): void {
    this.#tell('decided', confirmation, status);
  }

  #tell(
    kind: NoticeKind,
    confirmation: Confirmation,
    status: ConfirmationStatus,
    channels: readonly Channel[] = this.#channels,
    escalation?: Escalation,
  ): void {
    if (channels.length === 0) return;
    const notice = this.#notice(kind, confirmation, status, escalation);
    for (const channel of channels) {
      if (channel.waiting >= MAX_WAITING_PER_CHANNEL) {
        this.#report(channel.name, notice, {
          attempt: 0,
          ok: false,
          error: `gave up: ${MAX_WAITING_PER_CHANNEL} notices are already waiting for this channel to answer`,
          ms: 0,
        });
        continue;
      }
      channel.waiting += 1;
      void this.#send(channel, notice);
    }
  }

  #notice(
    kind: NoticeKind,
    c: Confirmation,
    status: ConfirmationStatus,
    escalation: Escalation | undefined,
  ): ApprovalNotice {
    const { consoleUrl, includePayload, locale } = this.#s;
    const edited = editedFields(c);
    return Object.freeze({
      id: escalation === undefined ? noticeId(kind, c, status) : `${c.id}.escalated.${escalation.step}`,
      kind,
      confirmation: Object.freeze({
        id: c.id,
        tool: c.tool,
        title: this.#title(c.tool),
        ...(c.actor === undefined ? {} : { actor: c.actor }),
        ...(gradeOf(c, { sideEffect: this.#sideEffect(c.tool) }) === 'write'
          ? { sideEffect: 'write' as const }
          : {}),
        createdAt: c.createdAt,
        expiresAt: c.expiresAt,
        status,
        ...(c.note === undefined ? {} : { note: c.note }),
        ...(c.links === undefined ? {} : { links: c.links }),
        ...(c.ref === undefined ? {} : { ref: c.ref }),
        ...(c.requires === undefined
          ? {}
          : {
              requires: c.requires,
              approved: (c.approvals ?? []).filter((approval) => approval.digest === c.digest).length,
            }),
        ...(c.origins === undefined ? {} : { origins: this.#titledOrigins(c.origins) }),
        ...(c.originValues === undefined
          ? {}
          : { originValues: titledValueOrigins(c.originValues, (tool) => this.#title(tool)) ?? {} }),
        ...(c.originsOutsideRun === true ? { originsOutsideRun: true as const } : {}),
        ...(edited.length === 0 ? {} : { editedFields: edited }),
        ...(c.alike === undefined
          ? {}
          : {
              alike: Object.freeze({
                id: c.alike.id,
                text: alikeText(this.#title(c.tool), c.alike.id, locale),
              }),
            }),
      }),
      ...(kind === 'decided' ? { decision: decisionOf(c) } : {}),
      ...(escalation === undefined ? {} : { escalation: Object.freeze({ ...escalation }) }),
      ...(consoleUrl === undefined
        ? {}
        : { link: `${consoleUrl}/confirmations/${encodeURIComponent(c.id)}` }),
      ...(includePayload ? { payload: c.payload } : {}),
      ...(kind === 'decided' && c.actor !== undefined ? { recipient: c.actor } : {}),
      locale,
    });
  }

  /** The origins with each tool's title beside its name, for the channels' words. */
  #titledOrigins(origins: Origins): NonNullable<ApprovalNotice['confirmation']['origins']> {
    return titledOrigins(origins, (tool) => this.#title(tool)) ?? {};
  }

  #sideEffect(tool: string): string | undefined {
    try {
      return this.#s.sideEffectOf(tool);
    } catch {
      return undefined;
    }
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
  async #send(channel: Channel, notice: ApprovalNotice): Promise<void> {
    // Never on the caller's stack: the channel starts after the change that prompted it has returned.
    await Promise.resolve();
    const { notifier } = channel;
    const report =
      this.#s.onEvent === undefined
        ? ignore
        : (attempt: Attempt) => this.#report(channel.name, notice, attempt);
    const started = this.#s.onEvent === undefined ? 0 : Date.now();
    const watched = new NoticeDeadline(this.#deadlines, NOTICE_DEADLINE_MS);
    try {
      const outcome = await watched.race(() =>
        notifier.send(notice, {
          get signal() {
            return watched.signal;
          },
          onAttempt: report,
        }),
      );
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
      this.#deadlines.unwatch(watched);
      channel.waiting -= 1;
    }
  }

  /** One attempt (or giving up: attempt 0) as a `notify` event. */
  #report(channel: string, notice: ApprovalNotice, attempt: Attempt): void {
    if (this.#s.onEvent === undefined) return;
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
  }
}

const ignore = (): void => {};

/** One channel: its name, read once, and how many notices it owes. */
interface Channel {
  readonly notifier: Notifier;
  readonly name: string;
  waiting: number;
}

/** Which escalation step a notice announces (1 for the first), and its `afterMs`. */
interface Escalation {
  readonly step: number;
  readonly afterMs: number;
}

/** What a channel said of one attempt, as `onAttempt` hears it. */
interface Attempt {
  readonly attempt: number;
  readonly ok: boolean;
  readonly error?: string | undefined;
  readonly status?: number | undefined;
  readonly ms: number;
}

const GAVE_UP = Object.freeze({
  ok: false as const,
  error: `no answer within ${NOTICE_DEADLINE_MS / 60_000} minutes`,
});

/** One channel's send of one notice, given up on at its deadline; its signal is made only if read. */
class NoticeDeadline extends Expiring {
  readonly deadline: number;
  readonly #deadlines: Deadlines;
  #stop: AbortController | undefined;
  #giveUp: ((outcome: typeof GAVE_UP) => void) | undefined;

  constructor(deadlines: Deadlines, withinMs: number) {
    super();
    this.#deadlines = deadlines;
    this.deadline = deadlines.now() + withinMs;
  }

  /** What the channel is told to stop by: aborted at the deadline. */
  get signal(): AbortSignal {
    this.#stop ??= new AbortController();
    return this.#stop.signal;
  }

  /** `send`'s outcome, or `GAVE_UP` once the deadline passes first. */
  race<T>(send: () => Promise<T>): Promise<T | typeof GAVE_UP> {
    return new Promise<T | typeof GAVE_UP>((resolve, reject) => {
      this.#giveUp = resolve;
      this.#deadlines.watch(this);
      send().then(resolve, reject);
    });
  }

  expire(): void {
    this.#stop?.abort();
    this.#giveUp?.(GAVE_UP);
  }
}

function safeChannel(notifier: Notifier): string {
  try {
    return String(notifier.channel);
  } catch {
    return 'unknown';
  }
}

/**
 * The last step of a decided confirmation: when, by whom and why. After a delivery the person is the
 * one who approved it (the claim's step); the outcome's own step is the system's.
 */
function decisionOf(c: Confirmation): NonNullable<ApprovalNotice['decision']> {
  const last = c.history.at(-1);
  const claim = c.history.findLast((entry) => entry.status === 'delivering');
  const by = last?.by ?? (claim !== undefined && last?.status !== 'expired' ? claim.by : undefined);
  return Object.freeze({
    at: last?.at ?? c.updatedAt,
    ...(by === undefined ? {} : { by }),
    ...(last?.note === undefined ? {} : { note: last.note }),
  });
}

/**
 * Stable across a channel's retries; a decided notice after a delivery names its attempt
 * (`<id>.decided.failed.2`), so a second failure after a retry is not dropped as a duplicate.
 */
function noticeId(kind: NoticeKind, c: Confirmation, status: ConfirmationStatus): string {
  if (kind !== 'decided') return `${c.id}.${kind}`;
  return c.attempt > 0 ? `${c.id}.decided.${status}.${c.attempt}` : `${c.id}.decided.${status}`;
}
