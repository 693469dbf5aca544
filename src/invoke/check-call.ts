import { formatMessage, type Locale, type MessageParams } from '../messages/index.js';
import { readGates } from '../policy/call-context.js';
import { evaluateRules, type RuleReport } from '../policy/rules/evaluate-rules.js';
import type { ErrorCode, InvokeResult } from '../result.js';
import type { LimitCount, LimitKey, LimitWindow } from '../rule.js';
import type { ToolTable } from '../tools/tool-table.js';
import { describeThrown } from '../util/describe-thrown.js';
import { type LimitCounter, limitInWords } from './apply-rules.js';
import type { InvokePath } from './invoke-path.js';
import { WouldRun } from './would-run.js';

/** Where one of a call's limits stands, read without counting. */
export interface LimitState {
  readonly rule: string;
  readonly per: LimitWindow;
  /** Whose count, as the rule wrote it: a `LimitKey`, an input path, a CEL source or `'(function)'`. */
  readonly by: LimitKey | (string & {});
  /** For a count per value: this call's value (`'cus-42'`): the state is that value's. */
  readonly byValue?: string | number | boolean;
  /** `'delivered'`: what did not go out is given back. */
  readonly count: LimitCount;
  readonly max: number;
  /** Counted so far in this window. */
  readonly used: number;
  /** What this call would add. */
  readonly amount: number;
  /** When the window ends (ISO 8601, UTC). */
  readonly resetsAt: string;
  /** A shadow rule's limit: reported, never enforced. */
  readonly shadow: boolean;
}

/**
 * What `registry.check` answers: what would happen to this call now, without running or counting
 * anything. `outcome` is `'allow'` (it would run), `'deny'` (refused: a gate, the input, a rule),
 * `'limit'` (a limit is reached) or `'confirm'` (a person must confirm first).
 */
export interface RuleCheck {
  readonly outcome: 'allow' | 'deny' | 'limit' | 'confirm';
  /** For a refusal: the code the call would get. */
  readonly code?: ErrorCode;
  /** For a refusal: the message the caller would read. */
  readonly reason?: string;
  /** The rule that decided, when one did. */
  readonly rule?: string;
  /** For `'confirm'`: how many different people must approve, holding which flags. */
  readonly approvals: number;
  readonly approverFlags: readonly string[];
  /** For `'confirm'`: each approver signs with a passkey (a rule's or the tool's `passkey: true`). */
  readonly passkey?: true;
  /** Every limit the call counts against, and where it stands. */
  readonly limits: readonly LimitState[];
  /** Each rule that applied (or failed), shadow ones included. */
  readonly rules: readonly RuleReport[];
}

/** What `check` walks: the registry's silent path, its tools, and where limits are counted. */
export interface CheckSettings {
  readonly path: InvokePath;
  readonly table: ToolTable;
  readonly counter: LimitCounter;
  readonly locale: Locale;
}

/**
 * `registry.check`: the one call path's steps walked up to the rules (as the caller `ctx.caller` names;
 * an autonomous caller's or a plan's send as proposed), then the rules evaluated and the limits read,
 * never counted. Never throws.
 */
export async function checkCall(
  settings: CheckSettings,
  name: string,
  input: unknown,
  rawCtx: unknown,
): Promise<RuleCheck> {
  let ctx: {
    readonly actor?: unknown;
    readonly scope?: unknown;
    readonly flags?: unknown;
    readonly caller?: unknown;
  };
  let flags: Readonly<Record<string, true>>;
  try {
    ctx = (rawCtx ?? {}) as typeof ctx;
    const { actor, scope, caller } = ctx;
    flags = readGates(ctx).flags;
    ctx = { actor, scope, caller };
  } catch (error) {
    const reason = formatMessage(
      'INVALID_OPTION',
      { detail: describeThrown(error).slice(0, 200) },
      settings.locale,
    );
    return { outcome: 'deny', code: 'INVALID_OPTION', reason, ...NONE };
  }
  const { caller } = ctx;
  const isSend = settings.table.resolve(name)?.tool.info.sideEffect === 'send';
  const asked =
    caller === 'model' || caller === 'plan' || caller === 'autonomous'
      ? isSend && caller !== 'model'
        ? 'propose'
        : caller
      : 'invoke';
  const reached = await settings.path.reach(asked, name, input, rawCtx, asked === 'propose' ? {} : undefined);
  return judge({
    reached,
    table: settings.table,
    name,
    ctx,
    flags,
    counter: settings.counter,
    message: (code, params) => formatMessage(code, params, settings.locale),
  });
}

const NONE = { approvals: 1, approverFlags: [], limits: [], rules: [] };

async function judge(args: {
  readonly reached: InvokeResult | WouldRun;
  readonly table: ToolTable;
  readonly name: string;
  readonly ctx: { readonly actor?: unknown; readonly scope?: unknown };
  readonly flags: Readonly<Record<string, true>>;
  readonly counter: LimitCounter;
  readonly message: (code: ErrorCode, params: MessageParams) => string;
}): Promise<RuleCheck> {
  const { reached, table, counter } = args;
  const none = NONE;
  if (!(reached instanceof WouldRun)) {
    if (reached.ok) return { outcome: 'allow', ...none };
    const outcome = reached.requiresConfirm === true ? 'confirm' : 'deny';
    return { outcome, code: reached.code, reason: reached.error, ...none };
  }
  const tool = table.resolve(args.name)?.tool;
  if (tool === undefined) return { outcome: 'deny', code: 'UNKNOWN_TOOL', ...none };
  const scope = typeof args.ctx.scope === 'string' ? args.ctx.scope : undefined;
  const actor = typeof args.ctx.actor === 'string' ? args.ctx.actor : undefined;
  const verdict = evaluateRules(tool.rules, {
    input: reached.input,
    actor,
    scope,
    flags: args.flags,
    tool: tool.info.name,
    now: new Date(reached.now),
    context: reached.context,
    origins: reached.origins,
  });
  const approvals = verdict.requirement?.approvals ?? 1;
  const approverFlags = verdict.requirement?.approverFlags ?? [];
  const limits: LimitState[] = [];
  let reachedLimit: { rule: string; reason: string } | undefined;
  for (const use of verdict.limits) {
    let used: number;
    try {
      used = (await counter.peekLimit?.(use.key, use.windowStart)) ?? 0;
    } catch (error) {
      return { outcome: 'deny', code: 'STORE_FAILED', reason: describeThrown(error), ...none };
    }
    const { per, by, max, count } = use.limit;
    const resetsAt = new Date(use.windowEnd).toISOString();
    const state = {
      rule: use.rule,
      per,
      by,
      count,
      max,
      used,
      amount: use.amount,
      resetsAt,
      shadow: use.shadow,
    };
    limits.push(use.byValue === undefined ? state : { ...state, byValue: use.byValue });
    if (!use.shadow && reachedLimit === undefined && used + use.amount > max)
      reachedLimit = {
        rule: use.rule,
        reason: args.message('LIMIT_REACHED', {
          tool: tool.info.name,
          detail: limitInWords(use),
          until: resetsAt,
        }),
      };
  }
  const passkey = verdict.requirement?.passkey === true ? { passkey: true as const } : {};
  const common = { approvals, approverFlags, ...passkey, limits, rules: verdict.reports };
  if (verdict.denied !== undefined) {
    const reason = args.message('RULE_DENIED', { tool: tool.info.name, detail: verdict.denied.reason });
    return { outcome: 'deny', code: 'RULE_DENIED', reason, rule: verdict.denied.rule, ...common };
  }
  if (reachedLimit !== undefined)
    return { outcome: 'limit', code: 'LIMIT_REACHED', ...reachedLimit, ...common };
  const grade = tool.info.sideEffect;
  const asksPerson =
    grade === 'send' ||
    (grade === 'write' && (verdict.confirm !== undefined || verdict.requirement !== undefined));
  if (!asksPerson) return { outcome: 'allow', ...common };
  const rule = verdict.confirm ?? verdict.requirement?.rules[0];
  return { outcome: 'confirm', ...(rule === undefined ? {} : { rule }), ...common };
}
