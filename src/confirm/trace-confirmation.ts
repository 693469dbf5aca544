import type { Confirmation } from '../confirmation.js';
import type { ErrorCode } from '../result.js';
import { decisionOf } from '../telemetry/decision-attributes.js';
import {
  type ConfirmationStep,
  endSpan,
  runWithin,
  type Telemetry,
  type ToolSpan,
  type ToolSpanEnd,
} from '../telemetry/telemetry.js';
import type { ConfirmationFailure } from './types.js';

/** A confirm refused by the tool's gates as they are now (or the tool is gone). */
const REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'UNKNOWN_TOOL',
  'FLAG_NOT_GRANTED',
  'SCOPE_MISMATCH',
]);

/** What every decision on the confirmation path resolves to. */
type StepResult =
  | { readonly ok: true; readonly confirmation: Confirmation; readonly data?: unknown }
  | ConfirmationFailure;

function endOf(step: ConfirmationStep, result: StepResult): ToolSpanEnd {
  const confirmation = result.confirmation;
  const known =
    confirmation === undefined
      ? {}
      : {
          tool: confirmation.tool,
          confirmationStatus: confirmation.status,
          decision: decisionOf(step, confirmation, result.ok ? undefined : result.code),
          payload: confirmation.payload,
        };
  if (result.ok) return { ...known, result: result.data };
  return {
    ...known,
    code: result.code,
    message: result.error,
    ...(REFUSALS.has(result.code) ? { refusal: result.code } : {}),
  };
}

/**
 * Runs one step of the confirmation path as a span of its own when the registry traces, so the
 * steps it records (confirmed, delivered …) and whatever `deliver` traces land inside it. The step
 * never rejects; nor does its tracing.
 */
export function traceConfirmationStep<R extends StepResult>(
  telemetry: Telemetry | undefined,
  step: ConfirmationStep,
  confirmationId: string,
  run: () => Promise<R>,
): Promise<R> {
  if (telemetry === undefined) return run();
  let span: ToolSpan | undefined;
  try {
    span = telemetry.startConfirmationSpan(step, String(confirmationId).slice(0, 128));
  } catch {
    span = undefined;
  }
  if (span === undefined) return run();
  const traced = span;
  return runWithin(traced, run).then((result) => {
    endSpan(traced, endOf(step, result));
    return result;
  });
}
