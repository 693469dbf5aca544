import type { Confirmation, ConfirmationStatus } from '../confirmation.js';
import type { JsonSchema } from '../json-schema.js';
import type { Locale } from '../messages/index.js';
import type { PasskeyAssertion } from '../passkeys/passkey-types.js';
import type { ToolFailure } from '../result.js';
import type { BundleView } from './bundles/bundle-view.js';

/** What `registry.confirmations.list` filters on. */
export interface ConfirmationFilter {
  readonly status?: ConfirmationStatus;
  /** The tool's internal name. */
  readonly tool?: string;
  /** At most this many, newest first (default 100, at most 1,000). */
  readonly limit?: number;
  /** The `nextCursor` of the page before: the page after it. */
  readonly cursor?: string;
}

/** What `registry.confirm` and `registry.retry` are told about the approval. */
/**
 * The app's own say on one decision: asked once, inside the check list, after the record (and link)
 * are read and before anything is claimed or spent. Only `true` allows; anything else, a throw or a
 * rejection is `FORBIDDEN`, and nothing is done.
 */
export type AuthorizeDecision = (
  confirmation: Confirmation,
  approver: {
    readonly id: string;
    readonly name?: string;
    readonly flags?: Readonly<Record<string, boolean>>;
    readonly scope?: string;
  },
) => boolean | Promise<boolean>;

/** What every confirm or retry may be told. */
interface ConfirmOptionsBase {
  /** The digest the person was shown; when given it must match, or nothing is sent. */
  readonly digest?: string | undefined;
  /** Cancels the confirm; once `deliver` runs, cancelling leaves the outcome `unknown`. */
  readonly signal?: AbortSignal | undefined;
  /** Asked once before the claim: may this approver make this decision? (`FORBIDDEN` if not.) */
  readonly authorize?: AuthorizeDecision | undefined;
  /** The language of the result's message. */
  readonly locale?: Locale | undefined;
  /**
   * The approver's passkey assertion (what `navigator.credentials.get` gave for the options of
   * `registry.passkeys.challenge`), for a confirmation that `requires.passkey`.
   */
  readonly passkey?: PasskeyAssertion | undefined;
  /**
   * The app's own value (the signed-in approver, a tenant, a DB handle …) handed to a confirmed
   * write's `run` as `ctx.context`, as `invoke`'s `context` is; a send's `deliver` does not take it.
   */
  readonly context?: unknown;
}

/** A confirm by a named person, with their flags and scope. */
export interface PersonConfirmOptions extends ConfirmOptionsBase {
  /** Who approved (a user id); recorded and handed to `deliver`. */
  readonly approvedBy: string;
  /**
   * The person's edit of the payload (a tool with `payloadSchema` and `editable`): only editable
   * top-level fields may differ from the stored payload, the whole must pass `payloadSchema`, and
   * `digest` (the stored one, as shown before editing) is required. Exactly this payload is then
   * stored and delivered; the history records both digests and the changed fields. Not for `retry`.
   */
  readonly payload?: unknown;
  /** The approver's feature flags: the gates are checked again with these. */
  readonly flags?: Readonly<Record<string, boolean | undefined>> | undefined;
  /** The approver's scope; defaults to the scope the confirmation was asked in. */
  readonly scope?: string | undefined;
  readonly link?: undefined;
}

/**
 * A confirm through a one-time approval link (`registry.approvalLinks.issue`): the link's approver is
 * the approver, with the flags and scope it was made with. It is checked in the check list and spent by
 * the claim itself: a confirm refused, or failing before the claim, leaves it usable. Not for `retry`;
 * nothing can be edited through a link.
 */
export interface LinkConfirmOptions extends ConfirmOptionsBase {
  /** The link's token. */
  readonly link: string;
  /** When given, must be the link's approver. */
  readonly approvedBy?: string | undefined;
  readonly payload?: undefined;
  readonly flags?: undefined;
  readonly scope?: undefined;
}

/** What `registry.confirm` and `registry.retry` are told. */
export type ConfirmOptions = PersonConfirmOptions | LinkConfirmOptions;

/** What `registry.reject` is told: who rejects, or the one-time link they reject through. */
export type RejectOptions =
  | {
      /** Who rejected. */
      readonly rejectedBy: string;
      /** Why; recorded in the history. */
      readonly reason?: string | undefined;
      readonly authorize?: AuthorizeDecision | undefined;
      readonly link?: undefined;
      readonly locale?: Locale | undefined;
    }
  | {
      /** A one-time approval link's token: its approver rejects, and the reject spends it. */
      readonly link: string;
      /** When given, must be the link's approver. */
      readonly rejectedBy?: string | undefined;
      readonly reason?: string | undefined;
      readonly authorize?: AuthorizeDecision | undefined;
      readonly locale?: Locale | undefined;
    };

/** What `registry.markDelivered` is told. */
export interface MarkDeliveredOptions {
  /** Who checked that it arrived. */
  readonly by: string;
  /** How they know (a downstream message id, a phone call …). */
  readonly note?: string | undefined;
  readonly authorize?: AuthorizeDecision | undefined;
  readonly locale?: Locale | undefined;
}

/**
 * What `registry.cancel` is told: who takes a scheduled send back, and why. Once it is being delivered
 * (or was cancelled, or never held) the answer is `ALREADY_DECIDED`; racing a sweep, exactly one wins.
 */
export interface CancelOptions {
  /** Who cancels: the approver who confirmed it, or anyone `authorize` allows. */
  readonly by: string;
  /** Why; recorded in the history. */
  readonly reason?: string | undefined;
  /** Asked once (for anyone but the approver): may this person cancel it? (`FORBIDDEN` if not.) */
  readonly authorize?: AuthorizeDecision | undefined;
  readonly locale?: Locale | undefined;
}

/** What `registry.recoverStale` is told. */
export interface RecoverStaleOptions {
  /**
   * Deliveries started longer ago than this are marked `unknown`. Pick more than your longest
   * `deliver` timeout, or a delivery still running will be marked too.
   */
  readonly olderThanMs: number;
  readonly locale?: Locale | undefined;
}

/** What `registry.prune` is told. */
export interface PruneOptions {
  /** Finished confirmations last changed longer ago than this are deleted (0 to a year). */
  readonly olderThanMs: number;
  readonly locale?: Locale | undefined;
}

/** A failure from the confirmation path; carries the confirmation when one was found. */
export type ConfirmationFailure = ToolFailure & { readonly confirmation?: Confirmation };

/** `confirm` or `retry` delivered: `data` is what `deliver` returned. */
export interface ConfirmSuccess<T = unknown> {
  readonly ok: true;
  readonly data: T;
  readonly confirmation: Confirmation;
}

/** What `registry.confirm` and `registry.retry` resolve to. They never reject. */
export type ConfirmResult<T = unknown> = ConfirmSuccess<T> | ConfirmationFailure;

/**
 * A decision was recorded (`reject`, `markDelivered`) or a confirmation was found (`get`). From
 * `waitFor(bundleId)`: `bundle` holds every step, and `confirmation` is the step the bundle ended on
 * (the one that stopped it or waits for a person, else the last).
 */
export type ConfirmationResult =
  | { readonly ok: true; readonly confirmation: Confirmation; readonly bundle?: BundleView }
  | ConfirmationFailure;

/** What `registry.confirmations.list` resolves to. */
export type ConfirmationListResult =
  | {
      readonly ok: true;
      readonly confirmations: Confirmation[];
      /** Pass it as `cursor` for the next page; absent on the last page. */
      readonly nextCursor?: string;
    }
  | ConfirmationFailure;

/** What `recoverStale` and `expireDue` resolve to: the confirmations they changed. */
export type ConfirmationSweepResult =
  | { readonly ok: true; readonly changed: Confirmation[] }
  | ConfirmationFailure;

/** What `registry.sweep` is told. */
export interface SweepOptions {
  /**
   * Deliveries started longer ago than this are marked `unknown` (default 10 minutes; pick more than
   * your longest `deliver` timeout).
   */
  readonly staleAfterMs?: number;
  readonly locale?: Locale | undefined;
}

/** What `registry.sweep` resolves to: what each of its steps changed. */
export type SweepResult =
  | {
      readonly ok: true;
      /** Pending ones past their expiry, now `expired`. */
      readonly expired: Confirmation[];
      /** Deliveries that never recorded an outcome, now `unknown`. */
      readonly recovered: Confirmation[];
      /** Pending ones close to expiry whose approvers were reminded (by this instance). */
      readonly reminded: Confirmation[];
      /** Scheduled sends whose time came, delivered by this instance: each as its delivery ended. */
      readonly delivered: Confirmation[];
      /** Pending ones announced to an escalation step's channels (by this instance), with the step. */
      readonly escalated: readonly { readonly confirmation: Confirmation; readonly step: number }[];
      /** Audit entries chained into the log by this sweep (see `registry.audit.sequence`). */
      readonly sequenced: number;
    }
  | ConfirmationFailure;

/** What `registry.prune` resolves to: how many finished confirmations it deleted. */
export type ConfirmationPruneResult = { readonly ok: true; readonly deleted: number } | ConfirmationFailure;

/** A send or write tool as a confirmation screen shows it: what it is called and what a person may edit. */
export interface ConfirmationToolView {
  readonly name: string;
  readonly title: string;
  /** `'write'`: confirming applies a change (its `run`, given the input) rather than sending. */
  readonly sideEffect?: 'send' | 'write';
  readonly description: string;
  /** The payload fields a person may edit (empty: none). */
  readonly editable: readonly string[];
  /** What confirming does, for approvers, with `{field}` placeholders (`describeEffect` fills them). */
  readonly effect?: string;
  /** The payload's JSON Schema, when the tool declares `payloadSchema`. */
  readonly payloadSchema?: JsonSchema;
  /** The tool's undo window (`holdMs`): a confirm that claims it holds it this long before it is sent. */
  readonly holdMs?: number;
}

/** What `registry.confirmations.checkEdit` resolves to: the edit as confirm would deliver it. */
export type EditCheckResult =
  | {
      readonly ok: true;
      /** The edited payload as it would be stored and delivered. */
      readonly payload: unknown;
      /** Its digest under the same tool: what the history will record as `toDigest`. */
      readonly digest: string;
      /** The top-level fields that differ from the stored payload (empty: no change). */
      readonly changed: readonly string[];
    }
  | ConfirmationFailure;

/** What `registry.confirmations.watch` reports: this confirmation changed, or (no `id`) read again. */
export interface ConfirmationNotice {
  readonly id?: string;
}

/** The registry's read view of its confirmations: for consoles and confirmation screens. */
export interface ConfirmationsView {
  /**
   * A bundle (`proposeBundle`) by its id: every step's confirmation in order, its digest and where it
   * stands (`CONFIRMATION_NOT_FOUND` when there is none).
   */
  bundle(
    id: string,
    options?: { readonly locale?: Locale },
  ): Promise<{ readonly ok: true; readonly bundle: BundleView } | ConfirmationFailure>;
  /** One confirmation by id (`CONFIRMATION_NOT_FOUND` when there is none). */
  get(id: string, options?: { readonly locale?: Locale }): Promise<ConfirmationResult>;
  /**
   * Confirmations, newest first. With `status: 'pending'`, only those that can still be confirmed
   * (expired ones not yet marked are left out).
   */
  list(filter?: ConfirmationFilter & { readonly locale?: Locale }): Promise<ConfirmationListResult>;
  /**
   * Calls `listener` (soon, never inside the change itself) after each confirmation this registry
   * creates or changes, and — when the store can watch (PostgreSQL, SQLite) — after changes made by
   * other processes. Returns a function that stops it. What the listener throws is swallowed.
   */
  watch(listener: (notice: ConfirmationNotice) => void): () => void;
  /** A registered send tool as a confirmation screen shows it, or `undefined`. */
  tool(name: string): ConfirmationToolView | undefined;
  /**
   * Checks a person's edit of a pending confirmation exactly as `confirm({ payload })` will, without
   * claiming it: for a preview of the edited payload and its digest.
   */
  checkEdit(id: string, payload: unknown, options?: { readonly locale?: Locale }): Promise<EditCheckResult>;
  /**
   * Resolves once the confirmation is decided — `delivered`, `rejected`, `expired`, `failed` or
   * `unknown` — by this process or any instance sharing the store: `{ ok: true, confirmation }`.
   * Given a bundle's id, once the bundle is settled (every step delivered, stopped, or held by an
   * `unknown` one): `{ ok: true, confirmation, bundle }`
   * (hand it to `describeDecision` for the model). Otherwise `TIMEOUT` (after `timeoutMs`), `ABORTED`
   * (the signal), `CONFIRMATION_NOT_FOUND`. At its expiry a still-pending one is marked `expired`.
   * Holds no timer or listener once it has settled.
   */
  waitFor(id: string, options?: WaitForOptions): Promise<ConfirmationResult>;
  /**
   * Would this person's decision pass the check list now — status and expiry, `authorize`, four eyes,
   * the stored payload, the tool and its gates with their flags and scope? The very list the decision
   * runs, asked without deciding: for a screen that offers only the buttons that can act. Writes nothing.
   */
  canDecide(
    confirmation: Confirmation,
    options: CanDecideOptions,
  ): Promise<{ readonly ok: true } | ConfirmationFailure>;
}

/** What `registry.confirmations.canDecide` is told. */
export interface CanDecideOptions {
  readonly kind: 'confirm' | 'retry' | 'reject' | 'markDelivered' | 'cancel';
  /** Who would decide: their id, and for a confirm or retry their flags and scope. */
  readonly person: {
    readonly id: string;
    readonly flags?: Readonly<Record<string, boolean | undefined>> | undefined;
    readonly scope?: string | undefined;
  };
  /** The app's own say, asked as the decision would ask it. */
  readonly authorize?: AuthorizeDecision | undefined;
  /**
   * A bundle's step asked as part of its bundle's decision (`confirmBundle`): the bundle digest the
   * person is shown. Without it, a confirm of a bundle's step is refused (`INVALID_OPTION`).
   */
  readonly bundleDigest?: string | undefined;
  readonly locale?: Locale | undefined;
}

/** What `registry.confirmations.waitFor` is told. */
export interface WaitForOptions {
  /** Stops waiting (`ABORTED`); the confirmation itself is unchanged. */
  readonly signal?: AbortSignal | undefined;
  /** Stops waiting after this long (`TIMEOUT`); default: until it is decided or expires. */
  readonly timeoutMs?: number | undefined;
  readonly locale?: Locale | undefined;
}
