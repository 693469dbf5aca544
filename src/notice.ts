import type { ConfirmationLink, ConfirmationStatus, Origin } from './confirmation.js';
import type { Locale } from './messages/index.js';
import type { ApprovalRequirement } from './rule.js';

/**
 * Why an approver is told: a send waits, it will expire soon, it is still waiting after an escalation
 * step's `afterMs` (told to that step's channels), or it was decided (told to the asker).
 */
export type NoticeKind = 'created' | 'reminder' | 'escalated' | 'decided';

/**
 * One notification about one confirmation. It never holds the payload unless the registry's `notify`
 * says `includePayload: true`: a notification channel is not an audit store.
 */
export interface ApprovalNotice {
  /**
   * Stable for this notification, the same on every retry of it: `<confirmation id>.<kind>`, and for
   * `decided` `<confirmation id>.decided.<status>[.<attempt>]` (the delivery attempt, once there was one).
   */
  readonly id: string;
  readonly kind: NoticeKind;
  readonly confirmation: {
    readonly id: string;
    /** The tool's internal name. */
    readonly tool: string;
    /** The tool's title for people. */
    readonly title: string;
    /** `'write'` when approving applies a change rather than sending something; absent on a send. */
    readonly sideEffect?: 'write';
    /** Who asked. */
    readonly actor?: string;
    readonly createdAt: string;
    readonly expiresAt: string;
    readonly status: ConfirmationStatus;
    /** Why the asker wants this sent (`propose`'s `note`). */
    readonly note?: string;
    /** Where to read more (`propose`'s `links`). */
    readonly links?: readonly ConfirmationLink[];
    /** The app's own reference (`propose`'s `ref`): a conversation, a ticket, a workflow to resume. */
    readonly ref?: string;
    /**
     * What the tool's rules ask of approvers (`approvals` different people holding `approverFlags`):
     * a channel tells only those who may approve, or says who is needed.
     */
    readonly requires?: ApprovalRequirement;
    /** How many have approved the current payload so far, when `requires` asks for several. */
    readonly approved?: number;
    /**
     * Where each destination's value came from within the agent run (the confirmation's `origins`),
     * each tool origin with its tool's `title` for people: channels say it in words for the approver.
     */
    readonly origins?: Readonly<Record<string, readonly (Origin & { readonly title?: string })[]>>;
    /** The same per value (the confirmation's `originValues`), tools titled: which recipient came from where. */
    readonly originValues?: Readonly<
      Record<
        string,
        readonly {
          readonly value: string;
          readonly origins: readonly (Origin & { readonly title?: string })[];
        }[]
      >
    >;
    /** The tool names destinations but the call named no agent run: channels say it was not recorded. */
    readonly originsOutsideRun?: true;
    /**
     * Another pending confirmation of the same tool had the same payload when this one was proposed:
     * its id, and the flag in the notice's language ("another pending Refund with the same payload: #…").
     */
    readonly alike?: { readonly id: string; readonly text: string };
    /** The top-level payload fields a person changed by editing: channels say those destinations are theirs. */
    readonly editedFields?: readonly string[];
  };
  /** For `decided`: the step that decided it — when, who, and why (a reject's reason, a failure). */
  readonly decision?: {
    readonly at: string;
    readonly by?: string;
    readonly note?: string;
  };
  /** For `escalated`: which step of `escalate` (1 for the first), and its `afterMs`. */
  readonly escalation?: {
    readonly step: number;
    readonly afterMs: number;
  };
  /** The console page of this one confirmation (`consoleUrl` + `/confirmations/<id>`). */
  readonly link?: string;
  /** Only with `includePayload: true`. */
  readonly payload?: unknown;
  /** For `decided`: the person who asked, who is the one told. */
  readonly recipient?: string;
  readonly locale: Locale;
}

/** One attempt of one channel to deliver one notice. */
export interface NotifyAttempt {
  readonly channel: string;
  readonly noticeId: string;
  /** 1 for the first try. */
  readonly attempt: number;
  readonly ok: boolean;
  readonly error?: string;
  /** The receiver's HTTP status, when there was one. */
  readonly status?: number;
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

/**
 * A channel that tells approvers: `graded-tools/notify` has webhook, Slack and email ones, and any
 * object of this shape works. `send` retries as the channel does and never rejects.
 */
export interface Notifier {
  /** `'webhook'`, `'slack'`, `'email'`, or a custom name. */
  readonly channel: string;
  send(notice: ApprovalNotice, options: NotifySendOptions): Promise<NotifyResult>;
}

/** The registry's `notify` option. */
export interface NotifyOptions {
  /** The channels; each notice goes to every one. */
  readonly to: readonly Notifier[];
  /** Where the approvals console is mounted: links point at one confirmation in it. */
  readonly consoleUrl?: string;
  /** A reminder this long before a pending confirmation expires, sent by `registry.sweep()`. */
  readonly remindBeforeMs?: number;
  /** Put the payload in notices (default false). */
  readonly includePayload?: boolean;
  /**
   * Who else to tell, step by step, when a confirmation is still pending: for every tool without an
   * `escalate` of its own. Sent by `registry.sweep()`, each step once across instances.
   */
  readonly escalate?: readonly EscalationStep[];
}

/**
 * One step of an escalation: a confirmation still pending `afterMs` after it was created is announced
 * to `to` (by `registry.sweep()`, once across instances).
 */
export interface EscalationStep {
  /** Milliseconds after `createdAt`; each step's is larger than the one before. */
  readonly afterMs: number;
  /** The channels told at this step (a lead's Slack, an on-call mailbox …). */
  readonly to: readonly Notifier[];
}
