import { type Locale, toLocale } from '../messages/index.js';
import type { CallerKind } from '../tool.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { GateContext } from './gates.js';
import { nameProblem } from './labels.js';

/**
 * What the gates see of one call, read once: a scope that is a string or none, and the granted
 * flags as a frozen null-prototype record. A getter or proxy that answers differently on each read
 * cannot make two steps of one call disagree.
 */
export interface GateSnapshot extends GateContext {
  readonly scope: string | undefined;
  readonly flags: Readonly<Record<string, true>>;
  /** The granted flags, sorted: with `scope`, the unambiguous key of the model's list. */
  readonly granted: readonly string[];
}

/** A caller's context, read once at the start of a call; every later step reads only this. */
export interface CallContext extends GateSnapshot {
  readonly caller: CallerKind;
  readonly signal: AbortSignal | undefined;
  readonly context: unknown;
  readonly actor: string | undefined;
  readonly locale: Locale;
  /** The provider's id of this tool call, for tracing only: anything but a string is none. */
  readonly callId: string | undefined;
  /** The agent run this call belongs to (`registry.beginRun`), as the caller named it. */
  readonly run: string | undefined;
}

/** A context that could not be read: the call is refused with `INVALID_OPTION`. */
export interface UnreadableContext {
  readonly detail: string;
  readonly locale: Locale;
}

const NO_FLAGS: Readonly<Record<string, true>> = Object.freeze(Object.create(null));
const NONE_GRANTED: readonly string[] = Object.freeze([]);
const NO_GRANTS = Object.freeze({ flags: NO_FLAGS, granted: NONE_GRANTED });
export const EMPTY_GATES: GateSnapshot = Object.freeze({
  scope: undefined,
  flags: NO_FLAGS,
  granted: NONE_GRANTED,
});

/**
 * Granted flags by the gates' rule, each read once: own enumerable keys whose value is exactly `true`,
 * as a frozen null-prototype record and as a sorted list. Throws what a hostile getter throws.
 */
export function readFlags(flags: unknown): {
  flags: Readonly<Record<string, true>>;
  granted: readonly string[];
} {
  if (typeof flags !== 'object' || flags === null) return NO_GRANTS;
  const granted: string[] = [];
  for (const key of Object.keys(flags)) {
    if ((flags as Record<string, unknown>)[key] === true) granted.push(key);
  }
  if (granted.length === 0) return NO_GRANTS;
  granted.sort();
  const record: Record<string, true> = Object.create(null);
  for (const key of granted) record[key] = true;
  return { flags: Object.freeze(record), granted: Object.freeze(granted) as string[] };
}

/**
 * The gate part of a caller-given context. A scope that is not a string is no scope (scope `1` is
 * not `'1'`, `['desk']` is not `'desk'`). Throws what a hostile getter throws; callers catch.
 */
export function readGates(raw: unknown): GateSnapshot {
  if (raw === undefined || raw === null) return EMPTY_GATES;
  const ctx = raw as { readonly scope?: unknown; readonly flags?: unknown };
  const scope = ctx.scope;
  const { flags, granted } = readFlags(ctx.flags);
  return { scope: typeof scope === 'string' ? scope : undefined, flags, granted };
}

/** A context's gates, or none when reading it throws: an unreadable context is granted nothing. */
export function gatesOrNone(ctx: unknown): GateSnapshot {
  try {
    return readGates(ctx);
  } catch {
    return EMPTY_GATES;
  }
}

/**
 * Reads an invoke context once. `null` and `undefined` are an empty context. `autonomous` that is
 * not exactly `false` or absent counts as autonomous: a `'true'` or `1` fails closed, never as a
 * person. A value that is not an object, a `signal` that is not an `AbortSignal`, an `actor` that is
 * not a recordable person id (`nameProblem`), or a getter that throws makes the context unreadable.
 */
export function readCallContext(
  raw: unknown,
  asked: 'invoke' | CallerKind,
  fallbackLocale: Locale,
): CallContext | UnreadableContext {
  if (raw !== undefined && raw !== null && typeof raw !== 'object') {
    return { detail: `the context must be an object (got ${typeof raw})`, locale: fallbackLocale };
  }
  if (raw === undefined || raw === null) return emptyContext(asked, fallbackLocale);
  let locale = fallbackLocale;
  try {
    const ctx = raw as Record<string, unknown>;
    locale = toLocale(ctx.locale, fallbackLocale);
    const scope = ctx.scope;
    const { flags, granted } = readFlags(ctx.flags);
    const autonomous = ctx.autonomous;
    const signal = ctx.signal;
    const actor = ctx.actor;
    const callId = ctx.callId;
    const run = ctx.run;
    if (run !== undefined && typeof run !== 'string')
      return { detail: '`run` must be the id `registry.beginRun` returned (a string)', locale };
    if (signal !== undefined && !(signal instanceof AbortSignal)) {
      return { detail: '`signal` must be an AbortSignal', locale };
    }
    // Checked as a confirmation records it: a per-actor limit keys on exactly the id `propose` takes.
    const actorProblem = actor === undefined ? undefined : nameProblem(actor, 'actor');
    if (actorProblem !== undefined) return { detail: actorProblem, locale };
    const caller: CallerKind =
      asked !== 'invoke' ? asked : autonomous === undefined || autonomous === false ? 'person' : 'autonomous';
    return {
      scope: typeof scope === 'string' ? scope : undefined,
      flags,
      granted,
      caller,
      signal: signal as AbortSignal | undefined,
      context: ctx.context,
      actor: actor as string | undefined,
      locale,
      callId: typeof callId === 'string' ? callId.slice(0, 256) : undefined,
      run,
    };
  } catch (error) {
    return { detail: `the context could not be read: ${describeThrown(error).slice(0, 200)}`, locale };
  }
}

/** The context of a call given none, one per caller and locale: frozen, so it is shared, never re-read. */
const emptyContexts = new Map<Locale, Map<CallerKind, CallContext>>();

function emptyContext(asked: 'invoke' | CallerKind, locale: Locale): CallContext {
  const caller: CallerKind = asked === 'invoke' ? 'person' : asked;
  let byCaller = emptyContexts.get(locale);
  if (byCaller === undefined) {
    byCaller = new Map();
    emptyContexts.set(locale, byCaller);
  }
  let ctx = byCaller.get(caller);
  if (ctx === undefined) {
    ctx = Object.freeze({
      ...EMPTY_GATES,
      caller,
      signal: undefined,
      context: undefined,
      actor: undefined,
      locale,
      callId: undefined,
      run: undefined,
    });
    byCaller.set(caller, ctx);
  }
  return ctx;
}

/**
 * The gates a person's confirm is checked under: the approver's own flags, and their scope — or, when
 * they give none, the scope the send was asked in.
 */
export function approverGates(
  approver: {
    readonly flags: Readonly<Record<string, true>> | undefined;
    readonly scope: string | undefined;
  },
  askedScope: string | undefined,
): GateContext {
  return { flags: approver.flags, scope: approver.scope ?? askedScope };
}
