import type { Confirmation } from '../../confirmation.js';
import { type EventListener, emitSafely, type LinkEvent } from '../../events.js';
import { formatMessage, type Locale, type MessageParams, toLocale } from '../../messages/index.js';
import { nameProblem } from '../../policy/labels.js';
import { type ErrorCode, failure } from '../../result.js';
import type { ApprovalLinkRecord, ConfirmationStore, LinkApprover } from '../../stores/store.js';
import { hasCapability } from '../../stores/store-capabilities.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { isRecord } from '../../util/is-record.js';
import { setOwn } from '../../util/own-property.js';
import { isConfirmationIdShape } from '../confirmation-id.js';
import type { Fail } from '../flow-context.js';
import { isLinkTokenShape, linkTokenHash, newLinkToken } from '../link-token.js';
import type { LinkToCheck } from '../steps/check-list.js';
import type { ConfirmationFailure } from '../types.js';

/** Who a link is for: a user id, or the person with their name, flags and scope. */
export type LinkApproverInput =
  | string
  | {
      readonly id: string;
      readonly name?: string | undefined;
      readonly flags?: Readonly<Record<string, boolean | undefined>> | undefined;
      readonly scope?: string | undefined;
    };

/** What `approvalLinks.issue` is told. */
export interface IssueLinkOptions {
  /** The one person the link lets decide; recorded as the approver. */
  readonly approver: LinkApproverInput;
  /** How long the link works (default, and at most: until the confirmation expires). */
  readonly ttlMs?: number | undefined;
  readonly locale?: Locale | undefined;
}

/** A link was made: its token (shown once, never stored) and when it stops working. */
export interface IssuedLink {
  readonly ok: true;
  /** 256 random bits, base64url: put it in the link; only its SHA-256 is stored. */
  readonly token: string;
  /** ISO time at which the link stops working (never later than the confirmation's expiry). */
  readonly expiresAt: string;
  readonly confirmation: Confirmation;
}

/** A link that opens its confirmation: who it is for, until when, and the confirmation as it is. */
export interface OpenedLink {
  readonly ok: true;
  readonly approver: LinkApprover;
  readonly expiresAt: string;
  readonly confirmation: Confirmation;
}

/** Why a link opens nothing, for `LINK_REFUSED`. */
export type LinkRefusalReason = 'unknown' | 'used' | 'expired';

/** A link refused: `LINK_REFUSED` (with `reason`), `PAYLOAD_CHANGED`, `ALREADY_DECIDED`, `EXPIRED` … */
export type LinkFailure = ConfirmationFailure & { readonly reason?: LinkRefusalReason };

export type IssueLinkResult = IssuedLink | LinkFailure;
export type OpenLinkResult = OpenedLink | LinkFailure;

export { linkTokenHash } from '../link-token.js';

/**
 * The check list, asked about a link: whether one may be made for `approver` (`issue-link`: as their
 * confirm would run now), or whether `link` opens `record` (`open-link`). Never a second copy of a rule.
 */
export type LinkCheck = (
  kind: 'issue-link' | 'open-link',
  asked: {
    readonly record: Confirmation;
    readonly approver: LinkApprover;
    readonly link?: LinkToCheck | undefined;
    readonly fail: Fail;
  },
) => Promise<ConfirmationFailure | undefined>;

/**
 * One-time approval links: a link is bound to one pending confirmation, the digest of its payload, one
 * approver and an expiry no later than the confirmation's; the store keeps only the SHA-256 of its
 * token. `issue` makes one only for someone whose confirm the check list would let through now; `open`
 * checks without changing anything (a GET, a mail scanner's prefetch). A link is a credential that
 * `registry.confirm(id, { link })` and `registry.reject(id, { link })` take: checked in the one check
 * list and spent by the same conditional write that decides. The approvals console builds its links on
 * this (`approvals.createApprovalLink`).
 */
export class ApprovalLinks {
  readonly #store: ConfirmationStore;
  readonly #now: () => number;
  readonly #locale: Locale;
  readonly #onEvent: EventListener | undefined;
  readonly #check: LinkCheck;

  constructor(settings: {
    readonly store: ConfirmationStore;
    readonly now: () => number;
    readonly locale: Locale;
    readonly onEvent?: EventListener | undefined;
    /** The check list (four eyes, the tool's gates, the link, the stored payload …). */
    readonly check: LinkCheck;
  }) {
    this.#store = settings.store;
    this.#now = settings.now;
    this.#locale = settings.locale;
    this.#onEvent = settings.onEvent;
    this.#check = settings.check;
  }

  /** Whether the store keeps links (the memory, SQLite and PostgreSQL stores do). */
  get supported(): boolean {
    return hasCapability(this.#store, 'links');
  }

  /** Makes a link for pending confirmation `id` and `options.approver`. Never rejects. */
  async issue(id: string, options: IssueLinkOptions): Promise<IssueLinkResult> {
    let read: { approver: LinkApprover | string; ttl: unknown; locale: unknown };
    try {
      const o: Record<string, unknown> = isRecord(options) ? options : {};
      read = { approver: readLinkApprover(o.approver), ttl: o.ttlMs, locale: o.locale };
    } catch {
      read = { approver: '`options` could not be read', ttl: undefined, locale: undefined };
    }
    const fail = this.#failIn(read.locale);
    const { approver, ttl } = read;
    if (typeof approver === 'string') return fail('INVALID_OPTION', { detail: approver });
    if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 1))
      return fail('INVALID_OPTION', { detail: '`ttlMs` must be a whole number of milliseconds, at least 1' });
    if (!this.supported)
      return fail('INVALID_OPTION', { detail: 'this confirmation store keeps no approval links' });
    if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
    try {
      const confirmation = await this.#store.get(id);
      if (confirmation === undefined) return fail('CONFIRMATION_NOT_FOUND', {});
      const now = this.#now();
      const closes = Date.parse(confirmation.expiresAt);
      const refused = await this.#check('issue-link', { record: confirmation, approver, fail });
      if (refused !== undefined) return refused;
      const token = newLinkToken();
      const expiresAt = Math.min(closes, ttl === undefined ? closes : now + ttl);
      const record: ApprovalLinkRecord = {
        tokenHash: linkTokenHash(token),
        confirmationId: id,
        digest: confirmation.digest,
        approver,
        createdAt: now,
        expiresAt,
      };
      await this.#store.saveLink?.(record);
      this.#emit({ action: 'issued', confirmationId: id, approver: approver.id });
      return { ok: true, token, expiresAt: new Date(expiresAt).toISOString(), confirmation };
    } catch (error) {
      return fail('STORE_FAILED', { detail: describeThrown(error) });
    }
  }

  /**
   * The confirmation `token` opens, if it is `id`'s link, unused, unexpired, and the payload is still
   * the one it was made for, still pending. Changes nothing. Never rejects. (Deciding through a link
   * is `registry.confirm(id, { link: token })` or `registry.reject(id, { link: token })`.)
   */
  async open(
    token: unknown,
    id: unknown,
    options: { readonly locale?: Locale } = {},
  ): Promise<OpenLinkResult> {
    const result = await this.#opened(token, id, options?.locale);
    if (!result.ok) {
      this.#emit({
        action: 'refused',
        confirmationId: typeof id === 'string' ? id.slice(0, 128) : '',
        code: result.code,
        ...(result.reason === undefined ? {} : { reason: result.reason }),
      });
    }
    return result;
  }

  #emit(event: Omit<LinkEvent, 'type' | 'at'>): void {
    if (this.#onEvent !== undefined) emitSafely(this.#onEvent, { type: 'link', ...event, at: this.#now() });
  }

  /** The link and its confirmation, read at once, then the check list's `open-link` checks. */
  async #opened(token: unknown, id: unknown, locale: Locale | undefined): Promise<OpenLinkResult> {
    const fail = this.#failIn(locale);
    if (!this.supported)
      return fail('INVALID_OPTION', { detail: 'this confirmation store keeps no approval links' });
    const unknown = { ...fail('LINK_REFUSED', { detail: 'unknown' }), reason: 'unknown' } as LinkFailure;
    if (!isLinkTokenShape(token) || !isConfirmationIdShape(id)) return unknown;
    const tokenHash = linkTokenHash(token);
    try {
      const [found, record] = await Promise.all([this.#store.findLink?.(tokenHash), this.#store.get(id)]);
      // A link for another confirmation is told apart from no link at all by nothing.
      if (found === undefined || found.confirmationId !== id) return unknown;
      if (record === undefined) return fail('CONFIRMATION_NOT_FOUND', {});
      const link = { tokenHash, found };
      const refused = await this.#check('open-link', { record, approver: found.approver, link, fail });
      if (refused !== undefined) return refused;
      return {
        ok: true,
        approver: found.approver,
        expiresAt: new Date(found.expiresAt).toISOString(),
        confirmation: record,
      };
    } catch (error) {
      return fail('STORE_FAILED', { detail: describeThrown(error) });
    }
  }

  #failIn(locale: unknown) {
    let language: Locale;
    try {
      language = toLocale(locale as Locale | undefined, this.#locale);
    } catch {
      language = this.#locale;
    }
    return (code: ErrorCode, params: MessageParams, confirmation?: Confirmation): ConfirmationFailure => {
      const base = failure(code, formatMessage(code, params, language));
      return confirmation === undefined ? base : { ...base, confirmation };
    };
  }
}

/** The approver, copied once into plain data (string id, boolean flags), or why it cannot be. */
export function readLinkApprover(value: unknown): LinkApprover | string {
  const problem = '`approver` must be a user id or a person `{ id, name?, flags?, scope? }`';
  try {
    if (typeof value === 'string') return nameProblem(value, 'approver') ?? Object.freeze({ id: value });
    if (!isRecord(value)) return problem;
    const { id, name, flags, scope } = value;
    if (typeof id !== 'string') return problem;
    const idProblem = nameProblem(id, 'approver.id');
    if (idProblem !== undefined) return idProblem;
    const granted: Record<string, boolean> = {};
    if (isRecord(flags))
      for (const [key, on] of Object.entries(flags)) if (typeof on === 'boolean') setOwn(granted, key, on);
    return Object.freeze({
      id,
      ...(typeof name === 'string' ? { name } : {}),
      ...(isRecord(flags) ? { flags: Object.freeze(granted) } : {}),
      ...(typeof scope === 'string' ? { scope } : {}),
    });
  } catch {
    return problem;
  }
}
