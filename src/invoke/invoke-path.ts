import type { CountedLimit, Origins, ValueOrigins } from '../confirmation.js';
import { type EventListener, emitSafely, type InvokeOutcome } from '../events.js';
import { formatMessage, type Locale, type MessageParams } from '../messages/index.js';
import { type CallContext, readCallContext } from '../policy/call-context.js';
import { type Refusal, refusalFor } from '../policy/gates.js';
import { ruleCall } from '../policy/rules/rule-call.js';
import { echoableName, shownName, toldCode } from '../policy/told.js';
import {
  type ErrorCode,
  failure,
  type InvokeResult,
  type ToolFailure,
  type ValidationIssue,
} from '../result.js';
import type { ApprovalRequirement } from '../rule.js';
import {
  destinationKeys,
  NO_ORIGINS,
  originsOf,
  type UnvouchedDestination,
  unvouchedDestination,
} from '../runs/origins.js';
import type { RunMemory } from '../runs/run-memory.js';
import type { Runs } from '../runs/runs.js';
import {
  endSpan,
  runWithin,
  startToolSpan,
  type Telemetry,
  type ToolSpan,
  type ToolSpanEnd,
} from '../telemetry/telemetry.js';
import type { CallerKind } from '../tool.js';
import type { ToolEntry, ToolTable } from '../tools/tool-table.js';
import { describeThrown } from '../util/describe-thrown.js';
import { type StandardOutcome, validateStandard } from '../validation/standard-schema.js';
import type { CompiledValidator } from '../validation/validator.js';
import {
  applyRules,
  type LimitCounter,
  NO_RULES,
  type RuledCall,
  type RulesAnswer,
  refund,
} from './apply-rules.js';
import { type ArgumentLimits, ArgumentsProblem, readArguments } from './arguments.js';
import type { AskConfirmation, ConfirmationRequest } from './ask-confirmation.js';
import { GuardedCall, type GuardedOutcome } from './guarded-call.js';
import { ToolRunContext } from './run-context.js';
import { WouldRun } from './would-run.js';

/** A call whose input must reach the rules step even without rules: it has origins, or it may egress. */
function readsDestinations(call: Call): boolean {
  const { tool } = call.entry;
  // A call naming a run reaches it too: the run is read (and its actor checked) there.
  return tool.egress !== undefined || call.ctx.run !== undefined;
}

/**
 * Whether an egress read's destinations must be vouched for: always for the model, and within a run for
 * every caller that is not a person or a fixed plan — a call naming a run is checked the same on every path.
 */
function mustVouchEgress(call: Call): boolean {
  const { caller } = call.ctx;
  return caller === 'model' || (call.run !== undefined && caller === 'autonomous');
}

/** What the one invoke path needs from its registry. */
export interface InvokeSettings {
  readonly table: ToolTable;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly limits: ArgumentLimits;
  readonly onEvent: EventListener | undefined;
  readonly describeError: (error: unknown, tool: string) => string;
  /** Stores a person's prepared send as a pending confirmation (the confirmation flow's first step). */
  readonly ask: AskConfirmation;
  /** Traces each call as a span, when the registry was given one. */
  readonly telemetry: Telemetry | undefined;
  /** Where rules' limits are counted (the confirmation store), and their refusals logged (its audit log). */
  readonly counter: LimitCounter;
  readonly audit?: RuledCall['audit'];
  /** The registry's clock (epoch ms): rules see it as `now`. */
  readonly now: () => number;
  /** A path for `registry.check`: every step up to the rules, then `WouldRun`; nothing runs or counts. */
  readonly dry?: boolean;
  /** The registry's agent runs: what each run was told and what its agent read. */
  readonly runs: Runs;
}

/**
 * Who asked: `'invoke'` (a person, or autonomous when the context says so), a fixed caller kind, or
 * `'propose'`: an autonomous caller asking for a send or a write, which is stored for a person and
 * never run here.
 */
export type Asked = 'invoke' | CallerKind | 'propose';

/** What `propose` attaches for the approver, already read and checked at the registry's edge. */
export type ProposalAbout = ConfirmationRequest['about'];

/** One call in flight: the caller's context as read once, the tool, and when it started. */
interface Call {
  readonly ctx: CallContext;
  /** Set for `propose`: the call may only ask a person (a send or a write), with this attached. */
  readonly proposal: { readonly about: ProposalAbout } | undefined;
  readonly entry: ToolEntry;
  readonly started: number;
  /** The call's span, when the registry traces. */
  readonly span: ToolSpan | undefined;
  /** What the tool's rules ask of the approvers, once they have been applied. */
  readonly requires?: ApprovalRequirement | undefined;
  /** The agent run the call belongs to (`ctx.run`), once the rules step has read it. */
  readonly run?: RunMemory | undefined;
  /** Where each destination came from, within a run (before the rules, which read it). */
  readonly origins?: Origins | undefined;
  /** The same per value, for the person who decides. */
  readonly originValues?: ValueOrigins | undefined;
  /** What the rules counted against limits that count on delivery: the confirmation keeps it. */
  readonly counted?: readonly CountedLimit[] | undefined;
}

/** A Standard Schema refused the input inside the guard; the run never started. */
class Refused {
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[]) {
    this.issues = issues;
  }
}

const MAX_LISTED_IN_MESSAGE = 20;

const REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'UNKNOWN_TOOL',
  'FLAG_NOT_GRANTED',
  'SCOPE_MISMATCH',
  'SEND_REQUIRES_CONFIRM',
  'NOT_READ_ONLY',
]);

/**
 * The one call path, for every caller: resolve → gates → arguments → validate → (the run) → rules →
 * run → answer. It never throws, and without a run it is synchronous up to the tool's own work: a tool
 * that returns a plain value costs no promise of ours, one that returns a promise costs one race. A call
 * naming a run awaits its store twice at most: one read of the run, one write of what a read returned.
 * `invoke` is the only place where sync and async meet.
 */
export class InvokePath {
  readonly #settings: InvokeSettings;

  constructor(settings: InvokeSettings) {
    this.#settings = settings;
  }

  /** Calls `name` as `asked`; `about` only with `'propose'`. */
  invoke(
    asked: Asked,
    name: unknown,
    input: unknown,
    rawCtx: unknown,
    about?: ProposalAbout,
  ): Promise<InvokeResult> {
    const outcome = this.#attempt(asked, name, input, rawCtx, about);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  #attempt(
    asked: Asked,
    name: unknown,
    rawInput: unknown,
    rawCtx: unknown,
    about: ProposalAbout,
  ): InvokeResult | Promise<InvokeResult> {
    const started = this.#settings.onEvent === undefined ? 0 : performance.now();
    const proposing = asked === 'propose';
    const ctx = readCallContext(rawCtx, proposing ? 'autonomous' : asked, this.#settings.locale);
    if (!('caller' in ctx)) {
      return failure('INVALID_OPTION', formatMessage('INVALID_OPTION', { detail: ctx.detail }, ctx.locale));
    }
    let call: Call | undefined;
    try {
      const entry = this.#settings.table.resolve(name);
      if (entry === undefined) return this.#unknownTool(ctx, name, started, rawInput);
      const proposal = proposing ? { about } : undefined;
      call = { ctx, entry, proposal, started, span: this.#startSpan(ctx, entry, name, rawInput) };
      // A proposal asks a person to confirm a send or a write; a read has nothing to confirm.
      if (proposing && entry.tool.info.sideEffect === 'read') return this.#notConfirmable(call);
      // A proposal passes gates 1 and 2 as anyone would; gate 3 is why it only asks, never runs.
      const refusal = refusalFor(entry.tool.info, ctx, proposing ? 'person' : ctx.caller);
      if (refusal !== undefined) return this.#refuse(call, refusal, name);
      if (ctx.signal?.aborted) return this.#fail(call, 'ABORTED', {});

      const parsed = readArguments(rawInput, this.#settings.limits);
      if (parsed instanceof ArgumentsProblem)
        return this.#fail(call, 'INVALID_ARGUMENTS', { detail: parsed.detail });
      if (entry.tool.standard !== undefined) {
        const verdict = validateStandard(entry.tool.standard, parsed);
        if (verdict instanceof Promise) {
          // Rules read the validated input, so they wait for the check (outside the run's guard).
          const current = call;
          // A proposed write must reach the rules step too: it asks a person there, it never runs.
          const proposedWrite = proposing && entry.tool.info.sideEffect === 'write';
          if (
            entry.tool.rules.length > 0 ||
            this.#settings.dry === true ||
            proposedWrite ||
            readsDestinations(call)
          )
            return verdict.then(
              (checked) =>
                checked.valid
                  ? this.#ruled(current, checked.value)
                  : this.#invalidInput(current, checked.issues),
              (error: unknown) => this.#unexpected(current, ctx, name, error),
            );
          return this.#run(call, parsed, verdict);
        }
        if (!verdict.valid) return this.#invalidInput(call, verdict.issues);
        return this.#ruled(call, verdict.value);
      }
      const validate = this.#settings.table.validatorOf(entry);
      if (validate instanceof Promise) {
        // Only until the validator's engine has loaded (the first JSON Schema call).
        const current = call;
        return validate.then((loaded) => this.#validated(current, parsed, loaded));
      }
      return this.#validated(call, parsed, validate);
    } catch (error) {
      return this.#unexpected(call, ctx, name, error);
    }
  }

  /** The JSON Schema step: the input against the tool's compiled schema, then the rules. */
  #validated(
    call: Call,
    input: unknown,
    validate: CompiledValidator | string,
  ): InvokeResult | Promise<InvokeResult> {
    try {
      if (typeof validate === 'string') return this.#fail(call, 'SCHEMA_ERROR', { detail: validate });
      const checked = validate(input);
      if (!checked.valid) return this.#invalidInput(call, checked.issues);
      return this.#ruled(call, input);
    } catch (error) {
      return this.#unexpected(call, call.ctx, call.entry.tool.info.name, error);
    }
  }

  /**
   * The rules step: after validation, before anything runs. A tool without rules costs one branch; a
   * dry call (`registry.check`) stops here with what it reached.
   */
  #ruled(asked: Call, input: unknown): InvokeResult | Promise<InvokeResult> {
    const { run } = asked.ctx;
    // A call without a run stays synchronous; one naming a run reads it once, with its destinations' keys.
    if (run === undefined) return this.#ruledWithin(asked, input);
    const keys = destinationKeys(asked.entry.tool.info.destinations ?? [], input);
    return this.#settings.runs
      .find(run, asked.ctx.actor, keys)
      .then(
        (found) =>
          found === undefined
            ? this.#fail(asked, 'RUN_NOT_FOUND', {})
            : this.#ruledWithin({ ...asked, run: found }, input),
        (error: unknown) => this.#fail(asked, 'STORE_FAILED', { detail: describeThrown(error) }),
      )
      .catch((error: unknown) => this.#unexpected(asked, asked.ctx, asked.entry.tool.info.name, error));
  }

  /** The rules step once the call's run (if any) is read. */
  #ruledWithin(asked: Call, input: unknown): InvokeResult | Promise<InvokeResult> {
    const { tool } = asked.entry;
    const { destinations } = tool.info;
    // Only a call within a run, or an egress read, pays for origins: every other call skips both.
    const call =
      asked.run === undefined || destinations === undefined
        ? asked
        : { ...asked, ...originsOf(asked.run, destinations, input) };
    if (tool.egress !== undefined && mustVouchEgress(call)) {
      const unvouched = unvouchedDestination(call.run, destinations ?? [], tool.egress, input);
      if (unvouched !== undefined) return this.#egressRefused(call, unvouched);
    }
    const { ctx } = call;
    if (this.#settings.dry === true)
      return new WouldRun(input as Record<string, unknown>, {
        caller: ctx.caller,
        now: this.#settings.now(),
        context: ctx.context,
        origins: call.origins ?? NO_ORIGINS,
      }) as never;
    if (tool.rules.length === 0) return this.#afterRules(call, input, NO_RULES);
    const now = this.#settings.now();
    const answer = applyRules({
      rules: tool.rules,
      call: ruleCall(
        {
          input: input as Record<string, unknown>,
          actor: ctx.actor,
          scope: ctx.scope,
          flags: ctx.flags,
          tool: tool.info.name,
          context: ctx.context,
          origins: call.origins ?? NO_ORIGINS,
        },
        now,
      ),
      grade: tool.info.sideEffect,
      caller: ctx.caller,
      mayWaitForPerson: ctx.caller === 'person' || call.proposal !== undefined,
      counter: this.#settings.counter,
      audit: this.#settings.audit,
      onEvent: this.#settings.onEvent,
      now,
    });
    if (!(answer instanceof Promise)) return this.#afterRules(call, input, answer);
    return answer.then(
      (settled) => this.#afterRules(call, input, settled),
      (error: unknown) => this.#unexpected(call, ctx, tool.info.name, error),
    );
  }

  #afterRules(call: Call, input: unknown, answer: RulesAnswer): InvokeResult | Promise<InvokeResult> {
    if (answer.kind === 'refuse') return this.#fail(call, answer.code, answer.params, answer.extra);
    const { requires, counted } = answer;
    const ruled =
      requires === undefined && counted.length === 0
        ? call
        : { ...call, ...(requires === undefined ? {} : { requires }), counted };
    if (call.entry.tool.info.sideEffect !== 'write')
      return this.#givingBackUnasked(counted, this.#run(ruled, input, undefined));
    // A proposed write always waits for a person; a person's or a plan's only when a rule asks.
    // Its payload is its input: what the person confirms is what `run` gets.
    if (call.proposal !== undefined || answer.asksPerson)
      return this.#givingBackUnasked(counted, this.#askForConfirmation(ruled, input, input));
    // A write that runs now has gone out when it ran: what it counted stays counted.
    return this.#run(ruled, input, undefined);
  }

  /**
   * A call that counted on delivery but made no confirmation (`prepare` failed, the store refused the
   * record) sends nothing: its count is given back. Nothing stored holds it, so nothing else can.
   */
  #givingBackUnasked(
    counted: readonly CountedLimit[],
    outcome: InvokeResult | Promise<InvokeResult>,
  ): InvokeResult | Promise<InvokeResult> {
    if (counted.length === 0) return outcome;
    const settle = async (result: InvokeResult): Promise<InvokeResult> => {
      if (!('confirmationId' in result)) await refund(this.#settings.counter, counted);
      return result;
    };
    return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
  }

  /**
   * Runs `run` (or a send tool's `prepare`) under one guard. A Standard Schema that answers with a
   * promise is awaited under the same guard: the timeout and the caller's signal cover its check too,
   * so one whose check never settles still ends the call.
   */
  #run(
    call: Call,
    input: unknown,
    pendingVerdict: Promise<StandardOutcome> | undefined,
  ): InvokeResult | Promise<InvokeResult> {
    const { tool } = call.entry;
    const timeoutMs = tool.info.timeoutMs ?? this.#settings.defaultTimeoutMs;
    const guard = new GuardedCall(timeoutMs, call.ctx.signal);
    const runContext = new ToolRunContext(guard, call.ctx, tool.info.name);
    const work = tool.info.sideEffect === 'send' ? tool.prepare : tool.run;
    // A send tool's confirmation records the input as validated (a Standard Schema may transform it).
    let validated = input;
    const answer = (outcome: GuardedOutcome<unknown>) => this.#answer(call, validated, outcome, timeoutMs);
    const { span } = call;
    if (pendingVerdict === undefined) {
      const runWork = () => work?.call(tool.receiver, input, runContext);
      return guard.run(span === undefined ? runWork : () => runWithin(span, runWork), answer);
    }
    const checkThenRun = async () => {
      const checked = await pendingVerdict;
      if (!checked.valid) return new Refused(checked.issues);
      // The guard may have ended while the check ran: then nothing runs.
      if (guard.isSettled) return undefined;
      validated = checked.value;
      return work?.call(tool.receiver, validated, runContext);
    };
    return guard.run(span === undefined ? checkThenRun : () => runWithin(span, checkThenRun), answer);
  }

  #answer(
    call: Call,
    input: unknown,
    outcome: GuardedOutcome<unknown>,
    timeoutMs: number,
  ): InvokeResult | Promise<InvokeResult> {
    try {
      switch (outcome.kind) {
        case 'timeout':
          return this.#fail(call, 'TIMEOUT', { ms: timeoutMs });
        case 'aborted':
          return this.#fail(call, 'ABORTED', {});
        case 'threw':
          return this.#fail(call, 'RUN_FAILED', {
            detail: this.#describe(outcome.error, call.entry.tool.info.name),
          });
      }
      if (outcome.value instanceof Refused) return this.#invalidInput(call, outcome.value.issues);
      const data = outcome.value === undefined ? null : outcome.value;
      if (call.entry.tool.info.sideEffect === 'send') return this.#askForConfirmation(call, input, data);
      // Within a run, what a read returned is what the agent read: where later destinations may come from.
      if (call.run !== undefined && call.entry.tool.info.sideEffect === 'read')
        return this.#settings.runs
          .remember(call.run, call.entry.tool.info.name, data)
          .then(() => this.#succeeded(call, data));
      return this.#succeeded(call, data);
    } catch (error) {
      return this.#unexpected(call, call.ctx, call.entry.tool.info.name, error);
    }
  }

  #succeeded(call: Call, data: unknown): InvokeResult {
    this.#report(call.ctx, call.entry.tool.info.name, call.started, 'ok');
    this.#endSpan(call, { result: data });
    return { ok: true, data };
  }

  /** A send was prepared, or a write waits for a person: store it as pending and hand back what to show. */
  #askForConfirmation(call: Call, input: unknown, payload: unknown): Promise<InvokeResult> {
    const { ctx, entry, span } = call;
    const about = call.proposal?.about;
    const { requires } = call;
    const request = {
      tool: entry.tool.info.name,
      sideEffect: entry.tool.info.sideEffect === 'write' ? ('write' as const) : ('send' as const),
      input,
      payload,
      actor: ctx.actor,
      scope: ctx.scope,
      ...(requires === undefined ? {} : { requires }),
      ...(call.origins === undefined ? {} : { origins: call.origins }),
      ...(call.originValues === undefined ? {} : { originValues: call.originValues }),
      // A tool that names destinations, asked outside a run: every surface says nothing was recorded.
      ...(call.run === undefined && entry.tool.info.destinations !== undefined
        ? { originsOutsideRun: true as const }
        : {}),
      ...(call.counted === undefined || call.counted.length === 0 ? {} : { counted: call.counted }),
    };
    const ask = () => this.#settings.ask(about === undefined ? request : { ...request, about });
    // Within the call's span, so the confirmation's `created` step is recorded on it.
    return (span === undefined ? ask() : runWithin(span, ask)).then(
      (created): InvokeResult => {
        if (!created.ok) return this.#fail(call, created.code, { detail: created.detail });
        this.#report(ctx, entry.tool.info.name, call.started, 'confirm_required');
        this.#endSpan(call, { confirmationId: created.confirmationId, confirmationStatus: 'pending' });
        return created;
      },
      (error: unknown) => this.#unexpected(call, ctx, entry.tool.info.name, error),
    );
  }

  #refuse(call: Call, refusal: Refusal, asked: unknown): ToolFailure {
    const { ctx } = call;
    const told = toldCode(ctx.caller, refusal);
    if (told === 'UNKNOWN_TOOL') {
      // The model learns nothing about tools it may not call: same code and message as a made-up name.
      this.#report(ctx, call.entry.tool.info.name, call.started, 'refused', refusal);
      this.#endSpan(call, { code: 'UNKNOWN_TOOL', refusal });
      return failure(
        'UNKNOWN_TOOL',
        formatMessage('UNKNOWN_TOOL', this.#unknownToolParams(ctx, asked), ctx.locale),
      );
    }
    const extra = refusal === 'SEND_REQUIRES_CONFIRM' ? { requiresConfirm: true as const } : undefined;
    return this.#fail(call, refusal, { scope: ctx.scope }, extra);
  }

  /** `propose` asks a person to confirm a send or a write: a read is invoked. */
  #notConfirmable(call: Call): ToolFailure {
    const { name } = call.entry.tool.info;
    const detail = `propose asks a person to confirm a send or a write; \`${name}\` is a read tool, which changes nothing: invoke it instead`;
    return this.#fail(call, 'INVALID_OPTION', { detail });
  }

  /** An egress read the model chose a destination for that nobody vouched for: refused, and said why. */
  #egressRefused(call: Call, unvouched: UnvouchedDestination): ToolFailure {
    const { ctx, entry } = call;
    emitSafely(this.#settings.onEvent, {
      type: 'egress',
      tool: entry.tool.info.name,
      caller: ctx.caller,
      field: unvouched.field,
      value: unvouched.value,
      origins: unvouched.origins,
      at: this.#settings.now(),
    });
    const read = unvouched.origins.flatMap((o) => (o.tool === undefined ? [] : [o.tool]));
    const from = read.length === 0 ? {} : { from: read.join(', ') };
    return this.#fail(call, 'EGRESS_REFUSED', { detail: unvouched.value, ...from });
  }

  #unknownTool(ctx: CallContext, name: unknown, started: number, input: unknown): ToolFailure {
    const asked = typeof name === 'string' ? name.slice(0, 128) : String(typeof name);
    this.#report(ctx, asked, started, 'refused', 'UNKNOWN_TOOL');
    const refused = failure(
      'UNKNOWN_TOOL',
      formatMessage('UNKNOWN_TOOL', this.#unknownToolParams(ctx, name), ctx.locale),
    );
    this.#traceUnresolved(ctx, asked, input, refused);
    return refused;
  }

  #unknownToolParams(ctx: CallContext, name: unknown): MessageParams {
    const tool = echoableName(name);
    const base = tool === undefined ? {} : { tool };
    if (ctx.caller !== 'model') return base;
    const available = this.#settings.table.modelList(ctx).map((schema) => schema.name);
    const listed =
      available.length > MAX_LISTED_IN_MESSAGE
        ? [...available.slice(0, MAX_LISTED_IN_MESSAGE), '…']
        : available;
    return { ...base, available: listed };
  }

  #invalidInput(call: Call, issues: readonly ValidationIssue[]): ToolFailure {
    const detail = issues
      .map((issue) => `- ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('\n');
    return this.#fail(call, 'INVALID_INPUT', { detail }, { issues });
  }

  /** Defence in depth: nothing a caller or a tool does may turn into an exception for the host. */
  #unexpected(call: Call | undefined, ctx: CallContext, name: unknown, error: unknown): ToolFailure {
    const detail = describeThrown(error);
    if (call !== undefined) return this.#fail(call, 'RUN_FAILED', { detail });
    const asked = typeof name === 'string' ? name.slice(0, 128) : typeof name;
    this.#report(ctx, asked, 0, 'failed', 'RUN_FAILED');
    const tool = echoableName(name);
    const failed = failure(
      'RUN_FAILED',
      formatMessage('RUN_FAILED', { detail, ...(tool ? { tool } : {}) }, ctx.locale),
    );
    this.#traceUnresolved(ctx, asked, undefined, failed);
    return failed;
  }

  #fail(call: Call, code: ErrorCode, params: MessageParams, extra?: Partial<ToolFailure>): ToolFailure {
    const { ctx, entry } = call;
    this.#report(ctx, entry.tool.info.name, call.started, REFUSALS.has(code) ? 'refused' : 'failed', code);
    const message = formatMessage(
      code,
      { ...params, tool: shownName(entry.tool.info, ctx.caller) },
      ctx.locale,
    );
    this.#endSpan(call, { code, message, refusal: REFUSALS.has(code) ? code : undefined });
    return failure(code, message, extra);
  }

  #startSpan(ctx: CallContext, entry: ToolEntry, asked: unknown, input: unknown): ToolSpan | undefined {
    const telemetry = this.#settings.telemetry;
    if (telemetry === undefined) return undefined;
    const name = typeof asked === 'string' ? asked.slice(0, 128) : entry.tool.info.name;
    return startToolSpan(telemetry, {
      tool: entry.tool.info,
      asked: name,
      caller: ctx.caller,
      callId: ctx.callId,
      input,
    });
  }

  #endSpan(call: Call, end: ToolSpanEnd): void {
    if (call.span !== undefined) endSpan(call.span, end);
  }

  /** A call that matched no tool (or failed before it did) is still one span, ended at once. */
  #traceUnresolved(ctx: CallContext, asked: string, input: unknown, refused: ToolFailure): void {
    const telemetry = this.#settings.telemetry;
    if (telemetry === undefined) return;
    const span = startToolSpan(telemetry, {
      tool: undefined,
      asked,
      caller: ctx.caller,
      callId: ctx.callId,
      input,
    });
    if (span === undefined) return;
    const { code, error } = refused;
    endSpan(span, { code, message: error, refusal: code === 'UNKNOWN_TOOL' ? code : undefined });
  }

  #report(ctx: CallContext, tool: string, started: number, outcome: InvokeOutcome, code?: ErrorCode): void {
    const onEvent = this.#settings.onEvent;
    if (onEvent === undefined) return;
    emitSafely(onEvent, {
      type: 'invoke',
      tool,
      caller: ctx.caller,
      outcome,
      ms: started === 0 ? 0 : performance.now() - started,
      at: performance.timeOrigin + started,
      ...(code === undefined ? {} : { code }),
      ...(ctx.scope === undefined ? {} : { scope: ctx.scope }),
    });
  }

  #describe(error: unknown, tool: string): string {
    try {
      return String(this.#settings.describeError(error, tool)).slice(0, 2_000);
    } catch {
      return describeThrown(error);
    }
  }
}
