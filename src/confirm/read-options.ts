import { CONFIRMATION_STATUSES, type ConfirmationStatus } from '../confirmation.js';
import { type Locale, toLocale } from '../messages/index.js';
import { readFlags } from '../policy/call-context.js';
import { nameProblem, noteProblem } from '../policy/labels.js';
import { decodeCursor } from '../stores/cursor.js';
import type { ConfirmationQuery } from '../stores/store.js';
import { clampLimit } from '../stores/transitions.js';
import { type Fail, failureIn } from './flow-context.js';
import { PasskeyAttempt } from './passkeys/passkey-attempt.js';
import type { AuthorizeDecision, ConfirmationFailure } from './types.js';

/**
 * The public edge of the confirmation path: every option a caller passes is read here, once, into a
 * typed value — so a getter cannot answer one thing to a check and another to the store — and what
 * cannot be read is `INVALID_OPTION` (in English unless a known locale was readable). The steps
 * behind it take these values, never `unknown`.
 */

/** What an edge reader gives: the typed options and the failure builder in the caller's language. */
export type Read<T> =
  | { readonly ok: true; readonly value: T; readonly fail: Fail }
  | { readonly ok: false; readonly failure: ConfirmationFailure };

/** A confirm or retry, read: who approves (or the link that says who), what they saw, their gates. */
export interface Approving {
  /** Who approves; with a link, the link's approver (checked equal when both are given). */
  readonly approvedBy: string | undefined;
  /** A one-time approval link's token: the credential, spent by the claim. */
  readonly link: string | undefined;
  /** Lower case: a digest shown in capitals is the same digest. */
  readonly digest: string | undefined;
  /** Only the flags granted (exactly `true`), copied. */
  readonly flags: Readonly<Record<string, true>> | undefined;
  readonly scope: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The person's edit of the payload, as given (checked against the tool's rules before the claim). */
  readonly payload: unknown;
  readonly editing: boolean;
  readonly authorize: AuthorizeDecision | undefined;
  /** The app's own value, handed to a confirmed write's `run` as `ctx.context`. */
  readonly context: unknown;
  /** The passkey assertion given, read once; proved (at most once) by the check list. */
  readonly passkey: PasskeyAttempt | undefined;
}

/** A reject or markDelivered, read. */
export interface Deciding {
  /** Who decides; with a link (reject only), the link's approver. */
  readonly by: string | undefined;
  readonly note: string | undefined;
  readonly link: string | undefined;
  readonly authorize: AuthorizeDecision | undefined;
}

const UNREADABLE = { detail: 'the options could not be read' };
/** The longest look-back `recoverStale`, `prune` and `sweep` accept: a year. */
const MAX_LOOK_BACK_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * The named options, each read exactly once, as own data of a fresh object; `undefined` when reading
 * them threw (a hostile proxy, a throwing getter). Anything that is not an object reads as no options.
 */
function readOwn(options: unknown, keys: readonly string[]): Readonly<Record<string, unknown>> | undefined {
  const values: Record<string, unknown> = Object.create(null);
  if ((typeof options !== 'object' && typeof options !== 'function') || options === null) return values;
  try {
    for (const key of keys) values[key] = (options as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
  return values;
}

/** Reads `keys` (and `locale`), then `check` turns them into a typed value or says why not. */
function readWith<T>(
  options: unknown,
  keys: readonly string[],
  fallback: Locale,
  check: (read: Readonly<Record<string, unknown>>) => T | string,
): Read<T> {
  const read = readOwn(options, [...keys, 'locale']);
  let fail: Fail;
  try {
    fail = failureIn(toLocale(read?.locale as Locale | undefined, fallback));
  } catch {
    fail = failureIn(fallback);
  }
  if (read === undefined) return { ok: false, failure: fail('INVALID_OPTION', UNREADABLE) };
  let value: T | string;
  try {
    value = check(read);
  } catch {
    return { ok: false, failure: fail('INVALID_OPTION', UNREADABLE) };
  }
  if (typeof value === 'string') return { ok: false, failure: fail('INVALID_OPTION', { detail: value }) };
  return { ok: true, value, fail };
}

/** Only a locale. */
export function readLocaleOnly(options: unknown, fallback: Locale): Read<null> {
  return readWith(options, [], fallback, () => null);
}

/** The options of a confirm or retry. */
export function readApproving(
  options: unknown,
  mode: 'confirm' | 'retry',
  settings: { readonly locale: Locale; readonly requireDigest: boolean },
): Read<Approving> {
  const keys = [
    'approvedBy',
    'link',
    'digest',
    'flags',
    'scope',
    'signal',
    'payload',
    'authorize',
    'context',
    'passkey',
  ];
  return readWith(options, keys, settings.locale, (read) => {
    const { approvedBy, link, digest, flags, scope, signal, payload, authorize, context, passkey } = read;
    const editing = payload !== undefined;
    if (link !== undefined) {
      if (typeof link !== 'string') return '`link` must be the token of a one-time approval link';
      if (mode === 'retry') return 'a one-time approval link confirms or rejects; it cannot retry';
      if (flags !== undefined || scope !== undefined)
        return 'with `link`, the approver, flags and scope are the ones the link was made for';
      if (editing) return 'nothing can be edited through an approval link';
    }
    const who =
      link !== undefined && approvedBy === undefined ? undefined : nameProblem(approvedBy, 'approvedBy');
    if (who !== undefined) return who;
    if (digest !== undefined && (typeof digest !== 'string' || !isDigestShape(digest.toLowerCase())))
      return '`digest` must be the 64-character hex digest the person was shown';
    if (digest === undefined && settings.requireDigest)
      return 'this registry requires the `digest` the person was shown';
    if (digest === undefined && editing)
      return 'an edit needs the `digest` the person was shown before editing';
    if (editing && mode === 'retry') return 'a retry re-delivers what was approved; it cannot be edited';
    if (scope !== undefined && typeof scope !== 'string') return '`scope` must be a string';
    if (signal !== undefined && !(signal instanceof AbortSignal)) return '`signal` must be an AbortSignal';
    // A signal is read here once too: a proxy around one that cannot say whether it is aborted is refused.
    if (signal !== undefined && typeof (signal as AbortSignal).aborted !== 'boolean')
      return '`signal` must be an AbortSignal';
    if (authorize !== undefined && typeof authorize !== 'function') return '`authorize` must be a function';
    const granted = grantedFlags(flags);
    if (typeof granted === 'string') return granted;
    return {
      approvedBy: approvedBy as string | undefined,
      link: link as string | undefined,
      digest: digest === undefined ? undefined : (digest as string).toLowerCase(),
      flags: granted,
      scope: scope as string | undefined,
      signal: signal as AbortSignal | undefined,
      payload,
      editing,
      authorize: authorize as AuthorizeDecision | undefined,
      context,
      passkey: passkey === undefined ? undefined : new PasskeyAttempt(passkey),
    };
  });
}

/** The options of a reject (`rejectedBy`, `reason`), a markDelivered (`by`, `note`) or a cancel (`by`, `reason`). */
export function readDeciding(
  options: unknown,
  decision: 'reject' | 'markDelivered' | 'cancel',
  locale: Locale,
): Read<Deciding> {
  const [byKey, noteKey] =
    decision === 'reject'
      ? ['rejectedBy', 'reason']
      : decision === 'cancel'
        ? ['by', 'reason']
        : ['by', 'note'];
  return readWith(options, [byKey, noteKey, 'link', 'authorize'], locale, (read) => {
    const { [byKey]: by, [noteKey]: note, link, authorize } = read;
    if (link !== undefined && decision !== 'reject') return 'a one-time approval link confirms or rejects';
    if (link !== undefined && typeof link !== 'string')
      return '`link` must be the token of a one-time approval link';
    const who = link !== undefined && by === undefined ? undefined : nameProblem(by, byKey);
    const problem = who ?? noteProblem(note, noteKey);
    if (problem !== undefined) return problem;
    if (authorize !== undefined && typeof authorize !== 'function') return '`authorize` must be a function';
    return {
      by: by as string | undefined,
      note: note as string | undefined,
      link: link as string | undefined,
      authorize: authorize as AuthorizeDecision | undefined,
    };
  });
}

const LOOK_BACK = 'must be a number of milliseconds from 0 to a year';

/** `olderThanMs` of `recoverStale` and `prune`. */
export function readLookBack(options: unknown, locale: Locale): Read<number> {
  return readWith(options, ['olderThanMs'], locale, ({ olderThanMs }) =>
    isLookBack(olderThanMs) ? olderThanMs : `\`olderThanMs\` ${LOOK_BACK}`,
  );
}

/** `staleAfterMs` of `sweep` (absent: `undefined`, the default). */
export function readSweep(options: unknown, locale: Locale): Read<number | undefined> {
  return readWith(options, ['staleAfterMs'], locale, ({ staleAfterMs }) =>
    staleAfterMs === undefined || isLookBack(staleAfterMs) ? staleAfterMs : `\`staleAfterMs\` ${LOOK_BACK}`,
  );
}

/** What `canDecide` asks about: a person's decision, as the check list will see it. */
export interface DecisionAsked {
  readonly kind: 'confirm' | 'retry' | 'reject' | 'markDelivered' | 'cancel';
  readonly person: {
    readonly id: string;
    readonly flags?: Readonly<Record<string, true>>;
    readonly scope?: string;
  };
  readonly authorize: AuthorizeDecision | undefined;
  /** Asked as part of its bundle's decision: the bundle digest shown. */
  readonly bundleDigest?: string;
}

const DECISION_KINDS = ['confirm', 'retry', 'reject', 'markDelivered', 'cancel'];

/** The options of `canDecide`: which decision, by whom (id, flags, scope), and the app's `authorize`. */
export function readDecisionAsked(options: unknown, locale: Locale): Read<DecisionAsked> {
  const keys = ['kind', 'person', 'authorize', 'bundleDigest'];
  return readWith(options, keys, locale, ({ kind, person, authorize, bundleDigest }) => {
    if (typeof kind !== 'string' || !DECISION_KINDS.includes(kind))
      return `\`kind\` must be one of ${DECISION_KINDS.join(', ')}`;
    if (typeof person !== 'object' || person === null) return '`person` must be { id, flags?, scope? }';
    const { id, flags, scope } = person as { id?: unknown; flags?: unknown; scope?: unknown };
    const problem = nameProblem(id, 'person.id');
    if (problem !== undefined) return problem;
    if (scope !== undefined && typeof scope !== 'string') return '`person.scope` must be a string';
    if (authorize !== undefined && typeof authorize !== 'function') return '`authorize` must be a function';
    if (bundleDigest !== undefined && typeof bundleDigest !== 'string')
      return '`bundleDigest` must be a string';
    return {
      ...(bundleDigest === undefined ? {} : { bundleDigest: bundleDigest.toLowerCase() }),
      kind: kind as DecisionAsked['kind'],
      person: {
        id: id as string,
        flags: readFlags(flags).flags,
        ...(scope === undefined ? {} : { scope: scope as string }),
      },
      authorize: authorize as AuthorizeDecision | undefined,
    };
  });
}

/** The most `waitFor` waits in one call: a year, like the longest confirmation. */
const MAX_WAIT_MS = 366 * 24 * 60 * 60 * 1000;

/** The options of `waitFor`: an abort signal and a timeout (absent: until decided or expired). */
export function readWaiting(options: unknown, locale: Locale): Read<Waiting> {
  return readWith(options, ['signal', 'timeoutMs'], locale, ({ signal, timeoutMs }) => {
    if (signal !== undefined && !(signal instanceof AbortSignal)) return '`signal` must be an AbortSignal';
    if (
      timeoutMs !== undefined &&
      !(
        typeof timeoutMs === 'number' &&
        Number.isInteger(timeoutMs) &&
        timeoutMs >= 0 &&
        timeoutMs <= MAX_WAIT_MS
      )
    )
      return '`timeoutMs` must be a whole number of milliseconds from 0 to a year';
    return { signal: signal as AbortSignal | undefined, timeoutMs: timeoutMs as number | undefined };
  });
}

/** A `list` filter, as the store is asked (without the time, which the list adds). */
export function readListFilter(options: unknown, locale: Locale): Read<ConfirmationQuery> {
  return readWith(options, ['status', 'tool', 'limit', 'cursor'], locale, (read) => {
    const { status, tool, limit, cursor } = read;
    if (status !== undefined && !CONFIRMATION_STATUSES.includes(status as ConfirmationStatus))
      return `\`status\` must be one of ${CONFIRMATION_STATUSES.join(', ')}`;
    if (tool !== undefined && typeof tool !== 'string') return '`tool` must be a tool name';
    if (cursor !== undefined && decodeCursor(cursor) === undefined)
      return '`cursor` must be a `nextCursor` this list returned';
    return {
      ...(cursor === undefined ? {} : { cursor: cursor as string }),
      ...(status === undefined ? {} : { status: status as ConfirmationStatus }),
      ...(tool === undefined ? {} : { tool }),
      limit: clampLimit(typeof limit === 'number' ? limit : undefined),
    };
  });
}

/** The granted flags, copied once by the gates' rule, or why they cannot be read. */
function grantedFlags(flags: unknown): Readonly<Record<string, true>> | undefined | string {
  if (flags === undefined) return undefined;
  if (typeof flags !== 'object' || flags === null) return '`flags` must be an object of feature flags';
  try {
    return readFlags(flags).flags;
  } catch {
    return '`flags` could not be read';
  }
}

function isLookBack(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX_LOOK_BACK_MS;
}

/** True for 64 lowercase hex digits: the shape of a digest. */
function isDigestShape(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/** `waitFor`'s options, read at the edge. */
export interface Waiting {
  readonly signal: AbortSignal | undefined;
  /** How long to wait at most; `undefined`: until the confirmation is decided or expires. */
  readonly timeoutMs: number | undefined;
}
