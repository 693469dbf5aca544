import type { ConfirmationEvent, EventListener } from '../events.js';
import type { ErrorCode } from '../result.js';
import type { CallerKind } from '../tool.js';
import type { ToolInfo } from '../tool-info.js';

/** What a confirmation step decided, for its span: counts and flags only — no payload, no names. */
export interface ConfirmationDecision {
  /** `confirmed`, `approved` (one of several), `rejected`, `delivered`, `cancelled`, or `refused`. */
  readonly decision: string;
  readonly approvals?: number;
  readonly approvalsNeeded?: number;
  /** Held for its undo window (`scheduled`). */
  readonly held: boolean;
  readonly cancelled: boolean;
  /** An escalation step announced it. */
  readonly escalated: boolean;
  /** A step of a bundle (`proposeBundle`): the bundle's id and the step's place (from 0). */
  readonly bundle?: { readonly id: string; readonly index: number };
}

/** How one call began, for its span. */
export interface ToolSpanStart {
  /** The tool as registered; `undefined` for a name that matches none. */
  readonly tool: ToolInfo | undefined;
  /** The name as asked (cut to 128 characters): what an unknown tool's span is named after. */
  readonly asked: string;
  readonly caller: CallerKind;
  /** The provider's id of the call, when the adapter passed one (`ctx.callId`). */
  readonly callId: string | undefined;
  /** The arguments as given; a span records them only when the app opted in. */
  readonly input: unknown;
}

/** The confirmation path's own steps, each a span of its own. */
export type ConfirmationStep = 'confirm' | 'retry' | 'reject' | 'markDelivered' | 'cancel';

/** How a call or a confirmation step ended; nothing set is a success. */
export interface ToolSpanEnd {
  /** The code the caller was told, on failure. */
  readonly code?: ErrorCode | undefined;
  /** The real reason of a refusal (the model may have been told `UNKNOWN_TOOL`). */
  readonly refusal?: ErrorCode | undefined;
  /** The message the caller was told, on failure. */
  readonly message?: string | undefined;
  /** The tool's internal name, when only the end knows it (a confirmation step). */
  readonly tool?: string | undefined;
  readonly confirmationId?: string | undefined;
  /** The confirmation's status after the step (`delivered`, `pending` …). */
  readonly confirmationStatus?: string | undefined;
  /** What the step decided (counts and flags, no names). */
  readonly decision?: ConfirmationDecision | undefined;
  /** A confirmation's payload, for a span that records arguments. */
  readonly payload?: unknown;
  /** What the tool returned; a span records it only when the app opted in. */
  readonly result?: unknown;
}

/** One call's span: `within` runs the call's own work as its child; `end` closes it once. */
export interface ToolSpan {
  within<T>(work: () => T): T;
  end(end: ToolSpanEnd): void;
}

/**
 * What the registry traces through, when given one (`new ToolRegistry({ telemetry })`): the narrow
 * seam that keeps the core free of any tracing SDK. `graded-tools/opentelemetry` implements it.
 */
export interface Telemetry {
  /**
   * Starts the span of one call through the invoke path; `undefined` when nothing would record or
   * carry it (no tracer provider), so the call then runs exactly as untraced.
   */
  startToolSpan(start: ToolSpanStart): ToolSpan | undefined;
  /** Starts the span of a person's confirm, retry, reject or markDelivered (or none, as above). */
  startConfirmationSpan(step: ConfirmationStep, confirmationId: string): ToolSpan | undefined;
  /** A confirmation step (created, confirmed, delivered …), on the span it happened within. */
  recordConfirmation(event: ConfirmationEvent): void;
}

/** Ends `span`; what a telemetry object throws never reaches the call it traces. */
export function endSpan(span: ToolSpan, end: ToolSpanEnd): void {
  try {
    span.end(end);
  } catch {
    // Tracing is for the operator: a broken exporter must not change the outcome of a call.
  }
}

/**
 * Runs `work` as the child of `span`, exactly once: what `work` returns or throws is the call's, and a
 * `within` that throws around it changes nothing.
 */
export function runWithin<T>(span: ToolSpan, work: () => T): T {
  let state: 'not run' | 'returned' | 'threw' = 'not run';
  let value: T | undefined;
  let thrown: unknown;
  try {
    span.within(() => {
      try {
        value = work();
        state = 'returned';
      } catch (error) {
        thrown = error;
        state = 'threw';
      }
    });
  } catch {
    // The telemetry object's own failure: the work below still runs, untraced.
  }
  if (state === 'not run') return work();
  if (state === 'threw') throw thrown;
  return value as T;
}

/** Starts a call's span, or none when the telemetry object throws. */
export function startToolSpan(telemetry: Telemetry, start: ToolSpanStart): ToolSpan | undefined {
  try {
    return telemetry.startToolSpan(start);
  } catch {
    return undefined;
  }
}

/**
 * The confirmation path's listener: the app's own, and the telemetry's record of each step. The
 * path reports its steps once, through `onEvent`; tracing them needs no second report.
 */
export function withConfirmationSteps(
  listener: EventListener | undefined,
  telemetry: Telemetry | undefined,
): EventListener | undefined {
  if (telemetry === undefined) return listener;
  return (event) => {
    if (event.type === 'confirmation') {
      try {
        telemetry.recordConfirmation(event);
      } catch {
        // Like any listener: tracing a step never breaks it.
      }
    }
    return listener?.(event);
  };
}
