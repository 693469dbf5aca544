import type { LinkApproverInput, LinkRefusalReason } from '../confirm/links/approval-links.js';
import type { Confirmation } from '../confirmation.js';
import type { Locale } from '../messages/index.js';
import type { ToolRegistry } from '../registry.js';
import type { ErrorCode } from '../result.js';

/**
 * The person `authenticate` returned: who decides. Their `id` is recorded as the approver (or the one
 * who rejected); their `flags` and `scope` are what the tool's gates are checked with again.
 */
export interface ConsolePerson {
  /** The person's user id, as your app knows it. */
  readonly id: string;
  /** A name to show on the page. */
  readonly name?: string | undefined;
  /** The person's feature flags, for the gates of the tool being confirmed. */
  readonly flags?: Readonly<Record<string, boolean | undefined>> | undefined;
  /** The scope the person works in (default: the scope the confirmation was asked in). */
  readonly scope?: string | undefined;
}

/**
 * What a person asks to do with a confirmation; `authorize` is asked about each. `cancel` takes back a
 * send held in its undo window (`holdMs`): a person who approved it may always; anyone else only when
 * the console has an `authorize` and it allows `cancel`.
 */
export type ConsoleAction = 'view' | 'confirm' | 'reject' | 'retry' | 'markDelivered' | 'edit' | 'cancel';

/** How an approvals console is set up. */
export interface ApprovalsConsoleOptions<AppContext = unknown> {
  /** The registry whose confirmations the console shows and decides (any store). */
  readonly registry: ToolRegistry<AppContext>;
  /**
   * Required: your session → the person, or `undefined` when nobody is signed in (401). A throw is
   * read as nobody signed in. The console has no users of its own.
   */
  readonly authenticate: (
    request: Request,
  ) => ConsolePerson | undefined | null | Promise<ConsolePerson | undefined | null>;
  /**
   * May `person` do `action` with `confirmation`? Anything but `true` — `false`, a throw, a rejected
   * promise — denies (403). Default: every signed-in person may do everything, but `cancel` a held
   * send someone else approved (the registry's rule: that needs an `authorize` that allows it).
   */
  readonly authorize?: (
    person: ConsolePerson,
    action: ConsoleAction,
    confirmation: Confirmation,
  ) => boolean | Promise<boolean>;
  /** Where the console is mounted, e.g. `'/approvals'` (default `'/'`). */
  readonly basePath?: string;
  /** The language of the console (default: from the request's `Accept-Language`, then `'en'`). */
  readonly locale?: Locale;
  /**
   * How often the console runs `registry.sweep()` — expiry, stale deliveries, reminders — from its first
   * request on (default 60,000 ms; `0` when your app sweeps itself — on Workers, from a Cron Trigger's
   * `scheduled` handler, as a timer does not outlive a request there). Sweeps of several instances are safe:
   * each change and reminder is claimed once in the store.
   */
  readonly sweepIntervalMs?: number;
  /**
   * How long a delivery may run before a sweep calls its outcome `unknown` (default 10 minutes). Never
   * below the longest `timeoutMs` of the send and write tools plus a minute, and never a delivery this
   * process is still running: a delivery (or a confirmed write) still under way is not offered for a
   * retry, so it cannot be sent or run twice.
   */
  readonly staleAfterMs?: number;
  /**
   * The hostnames (no port) a request's `Host` may name when there is no `publicUrl`, against DNS
   * rebinding: default `['localhost', '127.0.0.1', '[::1]']`, any port. `'any'` only behind a proxy
   * that checks the `Host` itself. Anything else is 403 `FORBIDDEN_HOST`. With `publicUrl`, the
   * console answers on publicUrl's host only and a POST's `Origin` must be publicUrl's origin.
   */
  readonly allowedHosts?: readonly string[] | 'any' | undefined;
  /**
   * Where people reach this console from outside: `'https://desk.example/approvals'`, or just the
   * origin `'https://desk.example'` (the base path is added). An absolute `http(s)` URL; its path is
   * the mount point as seen from there (behind a proxy it may differ). Required for `createApprovalLink`.
   */
  readonly publicUrl?: string;
  /**
   * Your app's name for a person id — `(id) => users.get(id)?.name` — shown instead of the id for
   * who asked (an agent id too) and for everyone in a card's history ("Li approved"). `undefined`, a
   * throw or an empty answer shows the id. Default: the id, or the signed-in person's own `name`.
   */
  readonly displayName?: (personId: string) => string | undefined;
}

/** What `createApprovalLink` is told. */
export interface ApprovalLinkOptions {
  /** The one person the link lets decide: a user id, or `{ id, name?, flags?, scope? }`. */
  readonly approver: LinkApproverInput;
  /** How long the link works (default, and at most: until the confirmation expires). */
  readonly ttlMs?: number;
}

/**
 * A link was made (`url`: one confirmation's page, its token after `#`), or why not: `INVALID_OPTION`,
 * `CONFIRMATION_NOT_FOUND`, `ALREADY_DECIDED`, `EXPIRED`, `FORBIDDEN` (`authorize` says the approver may
 * not confirm it), `FLAG_NOT_GRANTED` or `SCOPE_MISMATCH` (the tool's gates would refuse them),
 * `SAME_PERSON` (four eyes: they asked for it), `STORE_FAILED`.
 */
export type ApprovalLinkResult =
  | { readonly ok: true; readonly url: string; readonly expiresAt: string }
  | {
      readonly ok: false;
      readonly code: ErrorCode | 'FORBIDDEN';
      readonly error: string;
      readonly reason?: LinkRefusalReason;
    };

/** A mounted console: a Fetch-API handler, and a way to end its open event streams. */
export interface ApprovalsConsole {
  /** Answers one request; never rejects (a failure inside is a JSON 500 `CONSOLE_FAILED`). */
  fetch(request: Request): Promise<Response>;
  /**
   * A one-time approval link to confirmation `id` for `approver`, who need not have a session (an
   * emailed approval): bound to this confirmation, its payload's digest, that approver and an expiry;
   * only its hash is stored; opening it shows the confirmation, and one confirm or reject from that page
   * spends it. A payload changed since refuses it. Never rejects.
   */
  createApprovalLink(id: string, options: ApprovalLinkOptions): Promise<ApprovalLinkResult>;
  /** Ends every open event stream and stops the sweeps (call it when your server shuts down). */
  close(): void;
}
