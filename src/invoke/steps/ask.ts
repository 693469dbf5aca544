import type { InvokeResult } from '../../result.js';
import { runWithin } from '../../telemetry/telemetry.js';
import type { Call } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * A send was prepared, or a write waits for a person: stored as pending (through the call's `ask`: the
 * registry's, or a bundle's own), and what to show handed back.
 */
export function askPerson({ answers }: StepKit, call: Call, payload: unknown): Promise<InvokeResult> {
  const { ctx, entry, span, requires, counted } = call;
  const about = call.proposal?.about;
  const request = {
    tool: entry.tool.info.name,
    sideEffect: entry.tool.info.sideEffect === 'write' ? ('write' as const) : ('send' as const),
    input: call.input,
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
    ...(counted.length === 0 ? {} : { counted }),
  };
  const ask = () => call.ask(about === undefined ? request : { ...request, about });
  // Within the call's span, so the confirmation's `created` step is recorded on it.
  return (span === undefined ? ask() : runWithin(span, ask)).then(
    (created): InvokeResult => {
      if (!created.ok) return answers.fail(call, created.code, { detail: created.detail });
      answers.report(ctx, entry.tool.info.name, call.started, 'confirm_required');
      answers.endSpan(call, { confirmationId: created.confirmationId, confirmationStatus: 'pending' });
      return created;
    },
    (error: unknown) => answers.unexpected(call, ctx, entry.tool.info.name, error),
  );
}
