import { refusalFor } from '../../policy/gates.js';
import type { Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * The gates: a proposal must be of a send or a write, then the three gates, then the caller's signal.
 * A proposal passes gates 1 and 2 as anyone would; gate 3 is why it only asks, never runs.
 */
export function gates({ answers }: StepKit): Step {
  return (call) => {
    const { ctx, entry } = call;
    const { info } = entry.tool;
    if (call.proposal !== undefined) {
      // A proposal asks a person to confirm a send or a write; a read has nothing to confirm.
      if (info.sideEffect === 'read') {
        const detail = `propose asks a person to confirm a send or a write; \`${info.name}\` is a read tool, which changes nothing: invoke it instead`;
        return answers.fail(call, 'INVALID_OPTION', { detail });
      }
    }
    const refusal = refusalFor(info, ctx, call.proposal === undefined ? ctx.caller : 'person');
    if (refusal !== undefined) return answers.refuse(call, refusal, call.asked);
    if (ctx.signal?.aborted) return answers.fail(call, 'ABORTED', {});
    return call;
  };
}
