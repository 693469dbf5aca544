import { emitSafely, type InvokeOutcome } from '../events.js';
import { formatMessage, type MessageParams } from '../messages/index.js';
import type { CallContext } from '../policy/call-context.js';
import type { Refusal } from '../policy/gates.js';
import { echoableName, shownName, toldCode } from '../policy/told.js';
import { type ErrorCode, failure, type ToolFailure, type ValidationIssue } from '../result.js';
import { endSpan, startToolSpan, type ToolSpan, type ToolSpanEnd } from '../telemetry/telemetry.js';
import type { ToolEntry } from '../tools/tool-table.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { Call } from './call.js';
import type { InvokeSettings } from './invoke-settings.js';

const MAX_LISTED_IN_MESSAGE = 20;

const REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'UNKNOWN_TOOL',
  'FLAG_NOT_GRANTED',
  'SCOPE_MISMATCH',
  'SEND_REQUIRES_CONFIRM',
  'NOT_READ_ONLY',
]);

/**
 * How every step ends a call: the caller's answer, the `invoke` event and the span's end, said the same
 * way whichever step ended it.
 */
export class CallAnswers {
  readonly #settings: InvokeSettings;

  constructor(settings: InvokeSettings) {
    this.#settings = settings;
  }

  succeeded(call: Call, data: unknown): { readonly ok: true; readonly data: unknown } {
    this.report(call.ctx, call.entry.tool.info.name, call.started, 'ok');
    this.endSpan(call, { result: data });
    return { ok: true, data };
  }

  fail(call: Call, code: ErrorCode, params: MessageParams, extra?: Partial<ToolFailure>): ToolFailure {
    const { ctx, entry } = call;
    this.report(ctx, entry.tool.info.name, call.started, REFUSALS.has(code) ? 'refused' : 'failed', code);
    const message = formatMessage(
      code,
      { ...params, tool: shownName(entry.tool.info, ctx.caller) },
      ctx.locale,
    );
    this.endSpan(call, { code, message, refusal: REFUSALS.has(code) ? code : undefined });
    return failure(code, message, extra);
  }

  /** A gate refused: the model is told it as an unknown tool, everyone else why. */
  refuse(call: Call, refusal: Refusal, asked: unknown): ToolFailure {
    const { ctx } = call;
    const told = toldCode(ctx.caller, refusal);
    if (told === 'UNKNOWN_TOOL') {
      // The model learns nothing about tools it may not call: same code and message as a made-up name.
      this.report(ctx, call.entry.tool.info.name, call.started, 'refused', refusal);
      this.endSpan(call, { code: 'UNKNOWN_TOOL', refusal });
      return failure(
        'UNKNOWN_TOOL',
        formatMessage('UNKNOWN_TOOL', this.#unknownToolParams(ctx, asked), ctx.locale),
      );
    }
    const extra = refusal === 'SEND_REQUIRES_CONFIRM' ? { requiresConfirm: true as const } : undefined;
    return this.fail(call, refusal, { scope: ctx.scope }, extra);
  }

  invalidInput(call: Call, issues: readonly ValidationIssue[]): ToolFailure {
    const detail = issues
      .map((issue) => `- ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('\n');
    return this.fail(call, 'INVALID_INPUT', { detail }, { issues });
  }

  /** Defence in depth: nothing a caller or a tool does may turn into an exception for the host. */
  unexpected(call: Call | undefined, ctx: CallContext, name: unknown, error: unknown): ToolFailure {
    const detail = describeThrown(error);
    if (call !== undefined) return this.fail(call, 'RUN_FAILED', { detail });
    const asked = typeof name === 'string' ? name.slice(0, 128) : typeof name;
    this.report(ctx, asked, 0, 'failed', 'RUN_FAILED');
    const tool = echoableName(name);
    const failed = failure(
      'RUN_FAILED',
      formatMessage('RUN_FAILED', { detail, ...(tool ? { tool } : {}) }, ctx.locale),
    );
    this.#traceUnresolved(ctx, asked, undefined, failed);
    return failed;
  }

  unknownTool(ctx: CallContext, name: unknown, started: number, input: unknown): ToolFailure {
    const asked = typeof name === 'string' ? name.slice(0, 128) : String(typeof name);
    this.report(ctx, asked, started, 'refused', 'UNKNOWN_TOOL');
    const refused = failure(
      'UNKNOWN_TOOL',
      formatMessage('UNKNOWN_TOOL', this.#unknownToolParams(ctx, name), ctx.locale),
    );
    this.#traceUnresolved(ctx, asked, input, refused);
    return refused;
  }

  /** A tool's thrown error as its caller reads it: the registry's `describeError`, bounded. */
  describe(error: unknown, tool: string): string {
    try {
      return String(this.#settings.describeError(error, tool)).slice(0, 2_000);
    } catch {
      return describeThrown(error);
    }
  }

  startSpan(ctx: CallContext, entry: ToolEntry, asked: unknown, input: unknown): ToolSpan | undefined {
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

  endSpan(call: Call, end: ToolSpanEnd): void {
    if (call.span !== undefined) endSpan(call.span, end);
  }

  report(ctx: CallContext, tool: string, started: number, outcome: InvokeOutcome, code?: ErrorCode): void {
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
}
