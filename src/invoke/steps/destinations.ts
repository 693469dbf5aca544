import { emitSafely } from '../../events.js';
import { originsOf, type UnvouchedDestination, unvouchedDestination } from '../../origins/origins-in-run.js';
import type { ToolFailure } from '../../result.js';
import { VALUE_KEYS } from '../../runs/identifiers.js';
import type { Call, Step } from '../call.js';
import type { StepKit } from './step-kit.js';

/**
 * Whether an egress read's destinations must be vouched for: always for the model, and within a run for
 * every caller that is not a person or a fixed plan — a call naming a run is checked the same on every path.
 */
function mustVouchEgress(call: Call): boolean {
  const { caller } = call.ctx;
  return caller === 'model' || (call.run !== undefined && caller === 'autonomous');
}

/**
 * The destinations, for a tool that names them or may egress: where each came from within the call's
 * run (which the rules and the person read), then the egress refusal of one nobody vouched for.
 */
export function destinations(kit: StepKit): Step {
  return (call) => {
    const { tool } = call.entry;
    const named = tool.info.destinations;
    if (call.run !== undefined && named !== undefined) {
      const found = originsOf(VALUE_KEYS, call.run, named, call.input);
      call.origins = found.origins;
      call.originValues = found.originValues;
    }
    if (tool.egress !== undefined && mustVouchEgress(call)) {
      const unvouched = unvouchedDestination({
        keys: VALUE_KEYS,
        run: call.run,
        destinations: named ?? [],
        allowed: tool.egress,
        input: call.input,
      });
      if (unvouched !== undefined) return egressRefused(kit, call, unvouched);
    }
    return call;
  };
}

/** An egress read the model chose a destination for that nobody vouched for: refused, and said why. */
function egressRefused(
  { settings, answers }: StepKit,
  call: Call,
  unvouched: UnvouchedDestination,
): ToolFailure {
  const { ctx, entry } = call;
  emitSafely(settings.onEvent, {
    type: 'egress',
    tool: entry.tool.info.name,
    caller: ctx.caller,
    field: unvouched.field,
    value: unvouched.value,
    origins: unvouched.origins,
    at: settings.now(),
  });
  const read = unvouched.origins.flatMap((o) => (o.tool === undefined ? [] : [o.tool]));
  const from = read.length === 0 ? {} : { from: read.join(', ') };
  return answers.fail(call, 'EGRESS_REFUSED', { detail: unvouched.value, ...from });
}
