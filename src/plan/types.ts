import type { InvokeResult } from '../result.js';

/** What a step's `buildInput` and `stopIf` see: the seed and every result so far. */
export interface PlanState<Seed = unknown, AppContext = unknown> {
  readonly seed: Seed;
  /** The latest result of each tool that has run, by internal name. */
  readonly byTool: Readonly<Record<string, InvokeResult>>;
  /** Results in step order; `undefined` for a step that was skipped. */
  readonly bySeq: readonly (InvokeResult | undefined)[];
  readonly context: AppContext | undefined;
}

/** One step of a fixed, human-written plan. */
export interface PlanStep<Seed = unknown, AppContext = unknown> {
  /** The tool's internal or wire name. */
  readonly tool: string;
  /** A fixed input. */
  readonly input?: Record<string, unknown>;
  /** Builds the input from the seed and earlier results; `undefined` skips the step. */
  readonly buildInput?: (state: PlanState<Seed, AppContext>) => Record<string, unknown> | undefined;
  /** Ends the plan after this step when it returns true. */
  readonly stopIf?: (result: InvokeResult, state: PlanState<Seed, AppContext>) => boolean;
}

/** A named chain of tool calls written by a person. Steps run as an autonomous caller. */
export interface Plan<Seed = unknown, AppContext = unknown> {
  readonly name: string;
  readonly description?: string;
  readonly steps: readonly PlanStep<Seed, AppContext>[];
}

/** What happened to one step. */
export type StepStatus = 'ok' | 'failed' | 'skipped';

/** One step's record in a plan result. */
export interface StepRecord {
  readonly seq: number;
  readonly tool: string;
  readonly status: StepStatus;
  /** The invoke result, or for a failing `buildInput`/`stopIf` a `RUN_FAILED` result; absent when skipped. */
  readonly result?: InvokeResult;
}

/** What `runPlan` resolves to. */
export interface PlanResult {
  readonly plan: string;
  /** True when no executed step failed (also when the plan stopped early). */
  readonly ok: boolean;
  readonly steps: readonly StepRecord[];
  readonly byTool: Readonly<Record<string, InvokeResult>>;
  readonly bySeq: readonly (InvokeResult | undefined)[];
  /** The seq of the step whose `stopIf` ended the plan. */
  readonly stoppedAt?: number;
  /** True when the caller's signal ended the plan. */
  readonly aborted?: true;
}

/**
 * Defines a plan with its seed and app-context types checked.
 *
 * @example
 * ```ts
 * import { definePlan } from 'graded-tools';
 * const plan = definePlan<{ conversationId?: string }>({
 *   name: 'what-is-asked',
 *   steps: [
 *     { tool: 'session.fetch', buildInput: ({ seed }) => (seed.conversationId ? { id: seed.conversationId } : undefined) },
 *   ],
 * });
 * ```
 */
export function definePlan<Seed = unknown, AppContext = unknown>(
  plan: Plan<Seed, AppContext>,
): Plan<Seed, AppContext> {
  return plan;
}
