import { getDefaultRegistry } from '../default-registry.js';
import type { Locale } from '../messages/index.js';
import { formatMessage } from '../messages/index.js';
import type { GateContext } from '../policy/gates.js';
import { INVOKE_AS, type ToolRegistry } from '../registry.js';
import { failure, type InvokeResult } from '../result.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { Plan, PlanResult, PlanState, StepRecord } from './types.js';

/** Where and how a plan runs. */
export interface PlanRunContext<AppContext = unknown> extends GateContext {
  /** The registry whose tools the steps call (default: the process-wide one). */
  readonly registry?: ToolRegistry<AppContext> | undefined;
  /** Ends the plan: the running step is aborted, later steps do not run. */
  readonly signal?: AbortSignal | undefined;
  /** Called after each step (also for skipped ones). Whatever it throws is ignored. */
  readonly onStep?: ((step: StepRecord) => void) | undefined;
  readonly context?: AppContext | undefined;
  readonly actor?: string | undefined;
  readonly locale?: Locale | undefined;
  /** The agent run the plan's steps belong to (`registry.beginRun`): its reads are remembered there. */
  readonly run?: string | undefined;
}

/**
 * The caller's plan context, read once: a getter cannot answer differently for each step. `null` is
 * an empty context; one that cannot be read refuses every step with `INVALID_OPTION`.
 */
function readPlanContext<AppContext>(
  raw: PlanRunContext<AppContext> | null | undefined,
): PlanRunContext<AppContext> | { readonly unreadable: string } {
  if (raw === null || raw === undefined) return {};
  try {
    const { registry, signal, onStep, context, actor, locale, scope, flags, run } = raw;
    return { registry, signal, onStep, context, actor, locale, scope, flags, run };
  } catch (error) {
    return { unreadable: `the plan's context could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

function stepFailure(error: unknown, tool: string, what: string, locale: Locale | undefined): InvokeResult {
  return failure(
    'RUN_FAILED',
    formatMessage('RUN_FAILED', { tool, detail: `${what} threw: ${describeThrown(error)}` }, locale),
  );
}

/**
 * Runs a fixed, human-written chain of tool calls. Steps run as an autonomous caller: `read` and
 * `write` tools run, `send` tools are refused with `requiresConfirm`. A failed step does not stop the
 * plan unless its `stopIf` says so. Never throws.
 *
 * @example
 * ```ts
 * import { runPlan, ToolRegistry } from 'graded-tools';
 * const registry = new ToolRegistry();
 * const result = await runPlan({ name: 'empty', steps: [] }, {}, { registry });
 * result.ok; // true
 * ```
 */
export async function runPlan<Seed, AppContext = unknown>(
  plan: Plan<Seed, AppContext>,
  seed: Seed,
  rawCtx: PlanRunContext<AppContext> = {},
): Promise<PlanResult> {
  const read = readPlanContext(rawCtx);
  const ctx: PlanRunContext<AppContext> = 'unreadable' in read ? {} : read;
  const registry = ctx.registry ?? (getDefaultRegistry() as unknown as ToolRegistry<AppContext>);
  const byTool: Record<string, InvokeResult> = {};
  const bySeq: (InvokeResult | undefined)[] = [];
  const steps: StepRecord[] = [];
  const state: PlanState<Seed, AppContext> = { seed, byTool, bySeq, context: ctx.context };
  // One context for every step: each step's gates see the same scope and flags.
  const invokeContext = Object.freeze({
    scope: ctx.scope,
    flags: ctx.flags,
    signal: ctx.signal,
    context: ctx.context,
    actor: ctx.actor,
    locale: ctx.locale,
    run: ctx.run,
  });
  let ok = true;
  let stoppedAt: number | undefined;
  let aborted = false;

  const record = (step: StepRecord) => {
    steps.push(step);
    bySeq.push(step.result);
    try {
      ctx.onStep?.(step);
    } catch {
      // A progress callback must not change how the plan runs.
    }
  };

  for (const [seq, step] of plan.steps.entries()) {
    if (ctx.signal?.aborted) {
      aborted = true;
      break;
    }
    const toolName = registry.get(step.tool)?.name ?? step.tool;
    let input: Record<string, unknown> | undefined;
    try {
      input = step.buildInput ? step.buildInput(state) : (step.input ?? {});
    } catch (error) {
      ok = false;
      record({
        seq,
        tool: toolName,
        status: 'failed',
        result: stepFailure(error, toolName, 'buildInput', ctx.locale),
      });
      continue;
    }
    if (input === undefined) {
      record({ seq, tool: toolName, status: 'skipped' });
      continue;
    }
    const result =
      'unreadable' in read
        ? failure('INVALID_OPTION', formatMessage('INVALID_OPTION', { detail: read.unreadable }, undefined))
        : await registry[INVOKE_AS]('plan', step.tool, input, invokeContext);
    byTool[toolName] = result;
    let stop = false;
    let outcome: StepRecord = { seq, tool: toolName, status: result.ok ? 'ok' : 'failed', result };
    try {
      stop = step.stopIf?.(result, state) === true;
    } catch (error) {
      outcome = {
        seq,
        tool: toolName,
        status: 'failed',
        result: stepFailure(error, toolName, 'stopIf', ctx.locale),
      };
    }
    if (outcome.status === 'failed') ok = false;
    record(outcome);
    if (!result.ok && result.code === 'ABORTED') {
      aborted = true;
      break;
    }
    if (stop) {
      stoppedAt = seq;
      break;
    }
  }
  return {
    plan: plan.name,
    ok,
    steps,
    byTool,
    bySeq,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
    ...(aborted ? { aborted: true as const } : {}),
  };
}
