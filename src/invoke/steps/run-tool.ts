import type { InvokeResult, ValidationIssue } from '../../result.js';
import { runWithin } from '../../telemetry/telemetry.js';
import type { Call, Step } from '../call.js';
import { GuardedCall, type GuardedOutcome } from '../guarded-call.js';
import { ToolRunContext } from '../run-context.js';
import { askPerson } from './ask.js';
import type { StepKit } from './step-kit.js';

/** A Standard Schema refused the input inside the guard; the run never started. */
class Refused {
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[]) {
    this.issues = issues;
  }
}

/** The run: `run` (or a send tool's `prepare`) under one guard, then the answer. */
export function runTool(kit: StepKit): Step {
  return (call) => guardedRun(kit, call);
}

/**
 * Runs `run` (or a send tool's `prepare`) under one guard. A Standard Schema check left pending is
 * awaited under the same guard: the timeout and the caller's signal cover it, so one whose check never
 * settles still ends the call.
 */
export function guardedRun(kit: StepKit, call: Call): InvokeResult | Promise<InvokeResult> {
  const { tool } = call.entry;
  const timeoutMs = tool.info.timeoutMs ?? kit.settings.defaultTimeoutMs;
  const guard = new GuardedCall(timeoutMs, call.ctx.signal);
  const runContext = new ToolRunContext(guard, call.ctx, tool.info.name);
  const work = tool.info.sideEffect === 'send' ? tool.prepare : tool.run;
  const answer = (outcome: GuardedOutcome<unknown>) => answerRun(kit, call, outcome, timeoutMs);
  const { span, pendingVerdict } = call;
  if (pendingVerdict === undefined) {
    if (span === undefined) return guard.apply(work, tool.receiver, call.input, runContext, answer);
    const { input } = call;
    return guard.run(() => runWithin(span, () => work?.call(tool.receiver, input, runContext)), answer);
  }
  const checkThenRun = async () => {
    const checked = await pendingVerdict;
    if (!checked.valid) return new Refused(checked.issues);
    // The guard may have ended while the check ran: then nothing runs.
    if (guard.isSettled) return undefined;
    // A send tool's confirmation records the input as validated (a Standard Schema may transform it).
    call.input = checked.value;
    return work?.call(tool.receiver, checked.value, runContext);
  };
  return guard.run(span === undefined ? checkThenRun : () => runWithin(span, checkThenRun), answer);
}

function answerRun(
  kit: StepKit,
  call: Call,
  outcome: GuardedOutcome<unknown>,
  timeoutMs: number,
): InvokeResult | Promise<InvokeResult> {
  const { answers, settings } = kit;
  const { info } = call.entry.tool;
  try {
    switch (outcome.kind) {
      case 'timeout':
        return answers.fail(call, 'TIMEOUT', { ms: timeoutMs });
      case 'aborted':
        return answers.fail(call, 'ABORTED', {});
      case 'threw':
        return answers.fail(call, 'RUN_FAILED', { detail: answers.describe(outcome.error, info.name) });
    }
    if (outcome.value instanceof Refused) return answers.invalidInput(call, outcome.value.issues);
    const data = outcome.value === undefined ? null : outcome.value;
    if (info.sideEffect === 'send') return askPerson(kit, call, data);
    // Within a run, what a read returned is what the agent read: where later destinations may come from.
    if (call.run !== undefined && info.sideEffect === 'read')
      return settings.runs.remember(call.run, info.name, data).then(() => answers.succeeded(call, data));
    return answers.succeeded(call, data);
  } catch (error) {
    return answers.unexpected(call, call.ctx, info.name, error);
  }
}
