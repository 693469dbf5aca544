import type { CallerKind, SideEffect } from '../tool.js';

/** What the gates look at: the scope of the call and the feature flags granted to it. */
export interface GateContext {
  /** Where the call happens (a product surface, a tenant tier …). */
  readonly scope?: string | undefined;
  /** Granted feature flags. A flag counts only as an own property set to exactly `true`. */
  readonly flags?: Readonly<Record<string, boolean | undefined>> | undefined;
}

/** The parts of a tool the gates read. */
export interface GatedTool {
  readonly sideEffect: SideEffect;
  readonly scopes?: readonly string[] | undefined;
  readonly featureFlag?: string | undefined;
}

/** Why a caller may not reach a tool. `NOT_READ_ONLY` is the model's grade check. */
export type Refusal = 'FLAG_NOT_GRANTED' | 'SCOPE_MISMATCH' | 'SEND_REQUIRES_CONFIRM' | 'NOT_READ_ONLY';

/**
 * True when `flag` is granted: an own property of `flags` whose value is exactly `true`, so a
 * prototype, a truthy string or a getter-less inherited key never grants anything.
 *
 * @example
 * ```ts
 * import { isFlagGranted } from 'graded-tools';
 * isFlagGranted({ kb: true }, 'kb'); // true
 * isFlagGranted(JSON.parse('{"kb":"true"}'), 'kb'); // false
 * ```
 */
export function isFlagGranted(flags: GateContext['flags'], flag: string): boolean {
  return flags != null && Object.hasOwn(flags, flag) && flags[flag] === true;
}

/**
 * True for every caller but a person: plans, the model, and the app's own automation.
 *
 * @example
 * ```ts
 * import { isAutonomous } from 'graded-tools';
 * isAutonomous('plan'); // true
 * isAutonomous('person'); // false
 * ```
 */
export function isAutonomous(caller: CallerKind): boolean {
  return caller !== 'person';
}

/**
 * The one place that decides whether `caller` may reach `tool` under `ctx`, or why not. The gates run
 * in order: feature flag, scope, then `send` from an autonomous caller. The model is first held to
 * `read` tools. Every path — invoke, the model's exit, the model's list, plans, confirmations, the
 * access report, the adapters — asks this function and no other.
 *
 * A person reaching a `send` tool is allowed: that call only prepares a payload for confirmation.
 *
 * @example
 * ```ts
 * import { refusalFor } from 'graded-tools';
 * const send = { sideEffect: 'send', scopes: ['desk'] } as const;
 * refusalFor(send, { scope: 'desk' }, 'person'); // undefined
 * refusalFor(send, { scope: 'desk' }, 'plan'); // 'SEND_REQUIRES_CONFIRM'
 * refusalFor(send, { scope: 'desk' }, 'model'); // 'NOT_READ_ONLY'
 * ```
 */
export function refusalFor(tool: GatedTool, ctx: GateContext, caller: CallerKind): Refusal | undefined {
  if (caller === 'model' && tool.sideEffect !== 'read') return 'NOT_READ_ONLY';
  if (tool.featureFlag !== undefined && !isFlagGranted(ctx.flags, tool.featureFlag))
    return 'FLAG_NOT_GRANTED';
  if (!isAvailableIn(tool, ctx.scope)) return 'SCOPE_MISMATCH';
  if (tool.sideEffect === 'send' && isAutonomous(caller)) return 'SEND_REQUIRES_CONFIRM';
  return undefined;
}

/**
 * The scope gate alone: a tool without `scopes` is available anywhere, one with `scopes` only in a
 * scope it lists. A scope that is not a string is no scope. `registry.list({ scope })` asks this too.
 */
export function isAvailableIn(tool: Pick<GatedTool, 'scopes'>, scope: unknown): boolean {
  const scopes = tool.scopes;
  return scopes === undefined || (typeof scope === 'string' && scopes.includes(scope));
}

/**
 * True when the model may see and call `tool` under `ctx`: the model's list and exit both use this.
 *
 * @example
 * ```ts
 * import { isModelCallable } from 'graded-tools';
 * isModelCallable({ sideEffect: 'read', featureFlag: 'kb' }, { flags: { kb: true } }); // true
 * isModelCallable({ sideEffect: 'write' }, {}); // false
 * ```
 */
export function isModelCallable(tool: GatedTool, ctx: GateContext): boolean {
  return refusalFor(tool, ctx, 'model') === undefined;
}
