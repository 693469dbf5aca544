// graded-tools/opentelemetry: every call and confirmation step as an OpenTelemetry span.
import {
  type Attributes,
  context,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { ConfirmationEvent } from '../events.js';
import { PACKAGE_VERSION } from '../util/package-version.js';
import { ATTR, STEP_NAME } from './attributes.js';
import { decisionAttributes } from './decision-attributes.js';
import type { ConfirmationStep, Telemetry, ToolSpan, ToolSpanEnd, ToolSpanStart } from './telemetry.js';

export type { Telemetry } from './telemetry.js';

/** How `openTelemetry` traces. Arguments and results may hold personal data: both are off by default. */
export interface OpenTelemetryOptions {
  /** Where spans go (default: the global provider of `@opentelemetry/api`, looked up at each span). */
  readonly tracerProvider?: TracerProvider;
  /**
   * Record each call's arguments as `gen_ai.tool.call.arguments` (default false). Off, no input text
   * reaches a span: a failed call's status says its code, not the message (which may quote the input).
   */
  readonly recordArguments?: boolean;
  /** Record what each call returned as `gen_ai.tool.call.result` (default false). */
  readonly recordResults?: boolean;
}

/** JSON text of a value for an attribute, or nothing when it has none (a cycle, a BigInt). */
function jsonText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The global API's stand-in while no SDK has registered a provider. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * True while no tracer provider is registered globally: then a span would be the no-op tracer's, so
 * a call is not traced at all (two property reads, where starting a no-op span costs a measurable 5%).
 */
function isNoProviderRegistered(): boolean {
  const global = trace.getTracerProvider();
  return global instanceof ProxyTracerProvider && global.getDelegate() === NO_PROVIDER;
}

/** The innermost span of ours in a context: where a confirmation step that happens there is recorded. */
const CURRENT = createContextKey('graded-tools span');

/** One span of ours; every method is safe to call on a span the SDK does not record. */
class OtelToolSpan implements ToolSpan {
  readonly #span: Span;
  readonly #options: OpenTelemetryOptions;
  readonly #prefix: string | undefined;
  /** The confirmation whose steps this span records: the one it was asked about, or that it created. */
  #confirmationId: string | undefined;
  #ended = false;

  constructor(span: Span, options: OpenTelemetryOptions, prefix?: string, confirmationId?: string) {
    this.#span = span;
    this.#options = options;
    this.#prefix = prefix;
    this.#confirmationId = confirmationId;
  }

  within<T>(work: () => T): T {
    return context.with(trace.setSpan(context.active(), this.#span).setValue(CURRENT, this), work);
  }

  recordStep(event: ConfirmationEvent): void {
    const span = this.#span;
    if (this.#ended || !span.isRecording()) return;
    if (this.#confirmationId === undefined) this.#confirmationId = event.confirmationId;
    else if (this.#confirmationId !== event.confirmationId) return;
    const attributes: Attributes = {
      [ATTR.confirmationId]: event.confirmationId,
      [ATTR.confirmationDecision]: event.action,
    };
    if (event.by !== undefined) attributes[ATTR.confirmationBy] = event.by;
    span.addEvent(`graded_tools.confirmation.${event.action}`, attributes);
  }

  end(end: ToolSpanEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    if (span.isRecording()) this.#record(span, end);
    span.end();
  }

  #record(span: Span, end: ToolSpanEnd): void {
    const attributes: Attributes = {};
    if (end.tool !== undefined && this.#prefix !== undefined) {
      span.updateName(`${this.#prefix} ${end.tool}`);
      attributes[ATTR.toolName] = end.tool;
      attributes[ATTR.grade] = 'send';
    }
    if (end.confirmationId !== undefined) attributes[ATTR.confirmationId] = end.confirmationId;
    if (end.confirmationStatus !== undefined) attributes[ATTR.confirmationStatus] = end.confirmationStatus;
    if (end.decision !== undefined) Object.assign(attributes, decisionAttributes(end.decision));
    if (end.refusal !== undefined) attributes[ATTR.refusal] = end.refusal;
    if (this.#options.recordArguments === true && end.payload !== undefined) {
      const text = jsonText(end.payload);
      if (text !== undefined) attributes[ATTR.arguments] = text;
    }
    if (this.#options.recordResults === true && end.result !== undefined) {
      const text = jsonText(end.result);
      if (text !== undefined) attributes[ATTR.result] = text;
    }
    if (end.code !== undefined) {
      attributes[ATTR.errorType] = end.code;
      // The message can quote the input (V8's JSON parse error does), so it is input text too.
      const message = this.#options.recordArguments === true ? (end.message ?? end.code) : end.code;
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.setAttributes(attributes);
  }
}

/**
 * Traces the registry with OpenTelemetry, by the GenAI semantic conventions: each call is an
 * `execute_tool {gen_ai.tool.name}` span (kind internal) with `gen_ai.operation.name`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id` when the adapter knows it and `error.type` on failure,
 * plus `graded_tools.grade`, `.caller`, `.refusal` (the real reason, even when the model was told
 * `UNKNOWN_TOOL`), `.confirmation.id` and `.confirmation.status`. A person's confirm, retry, reject
 * and markDelivered are spans of their own; confirmation steps are span events. The tool's own spans
 * nest inside its call's. With no tracer provider registered it does next to nothing.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { openTelemetry } from 'graded-tools/opentelemetry';
 *
 * const registry = new ToolRegistry({ telemetry: openTelemetry({ recordArguments: false }) });
 * await registry.invokeReadOnly('kb__search', { query: 'refunds' }); // one `execute_tool` span
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const settings: OpenTelemetryOptions = {
    recordArguments: options.recordArguments === true,
    recordResults: options.recordResults === true,
  };
  const tracer: Tracer = (options.tracerProvider ?? trace).getTracer('graded-tools', PACKAGE_VERSION);
  const isIdle = options.tracerProvider === undefined ? isNoProviderRegistered : () => false;

  /** A started span, or none when it is the no-op tracer's (no provider, no trace to carry). */
  const open = (name: string, attributes: Attributes) => {
    const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes });
    if (span.isRecording()) return span;
    const carried = span.spanContext();
    // Sampled out but in a trace: still carried, so what the tool calls stays in the same trace.
    return carried === INVALID_SPAN_CONTEXT || !isSpanContextValid(carried) ? undefined : span;
  };

  return {
    startToolSpan(start: ToolSpanStart): ToolSpan | undefined {
      if (isIdle()) return undefined;
      const { tool } = start;
      const name = tool?.name ?? start.asked;
      // What a sampler may decide on goes in at the start; the rest only onto a span that records.
      const span = open(`execute_tool ${name}`, { [ATTR.operation]: 'execute_tool', [ATTR.toolName]: name });
      if (span === undefined) return undefined;
      if (span.isRecording()) {
        const attributes: Attributes = { [ATTR.toolType]: 'function', [ATTR.caller]: start.caller };
        if (tool !== undefined) {
          attributes[ATTR.grade] = tool.sideEffect;
          attributes[ATTR.toolDescription] = tool.description;
        }
        if (start.callId !== undefined) attributes[ATTR.callId] = start.callId;
        if (settings.recordArguments === true) {
          const text = jsonText(start.input);
          if (text !== undefined) attributes[ATTR.arguments] = text;
        }
        span.setAttributes(attributes);
      }
      return new OtelToolSpan(span, settings);
    },

    startConfirmationSpan(step: ConfirmationStep, confirmationId: string): ToolSpan | undefined {
      if (isIdle()) return undefined;
      const prefix = STEP_NAME[step];
      const attributes: Attributes = {
        [ATTR.caller]: 'person',
        [ATTR.confirmationStep]: step,
        [ATTR.confirmationId]: confirmationId,
      };
      if (prefix === 'execute_tool') {
        attributes[ATTR.operation] = 'execute_tool';
        attributes[ATTR.toolType] = 'function';
      }
      const span = open(prefix, attributes);
      return span === undefined ? undefined : new OtelToolSpan(span, settings, prefix, confirmationId);
    },

    recordConfirmation(event: ConfirmationEvent): void {
      // The steps land on the call they happened within, and only on their own confirmation's span.
      const current = context.active().getValue(CURRENT);
      if (current instanceof OtelToolSpan) current.recordStep(event);
    },
  };
}
