import type { CountedLimit } from '../../confirmation.js';
import type { InvokeResult } from '../../result.js';
import { refund } from '../apply-rules.js';
import type { Call, Step } from '../call.js';
import { askPerson } from './ask.js';
import { guardedRun } from './run-tool.js';
import type { StepKit } from './step-kit.js';

/**
 * The last step of a write, a send or a ruled read: a proposed write always waits for a person, a
 * person's or a plan's only when a rule asks (its payload is its input: what the person confirms is
 * what `run` gets); everything else runs (a send's `prepare`, then its confirmation).
 */
export function askOrRun(kit: StepKit): Step {
  const givingBackUnasked = (
    call: Call,
    counted: readonly CountedLimit[],
    outcome: InvokeResult | Promise<InvokeResult>,
  ): InvokeResult | Promise<InvokeResult> => {
    if (counted.length === 0) return outcome;
    // Counted on delivery but no confirmation made (`prepare` failed, the store refused): nothing
    // stored holds the count, so it is given back here.
    const settle = async (result: InvokeResult): Promise<InvokeResult> => {
      if (!('confirmationId' in result)) await refund(call.counter, counted);
      return result;
    };
    return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
  };
  return (call) => {
    const { counted } = call;
    if (call.entry.tool.info.sideEffect !== 'write')
      return givingBackUnasked(call, counted, guardedRun(kit, call));
    if (call.proposal !== undefined || call.asksPerson)
      return givingBackUnasked(call, counted, askPerson(kit, call, call.input));
    // A write that runs now has gone out when it ran: what it counted stays counted.
    return guardedRun(kit, call);
  };
}
