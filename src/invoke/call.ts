import type { CountedLimit, Origins, ValueOrigins } from '../confirmation.js';
import type { CallContext } from '../policy/call-context.js';
import type { InvokeResult } from '../result.js';
import type { ApprovalRequirement } from '../rule.js';
import type { RunMemory } from '../runs/run-memory.js';
import type { ToolSpan } from '../telemetry/telemetry.js';
import type { ToolEntry } from '../tools/tool-table.js';
import type { StandardOutcome } from '../validation/standard-schema.js';
import type { LimitCounter } from './apply-rules.js';
import type { AskConfirmation, ConfirmationRequest } from './ask-confirmation.js';

/** What `propose` attaches for the approver, already read and checked at the registry's edge. */
export type ProposalAbout = ConfirmationRequest['about'];

const NOTHING_COUNTED: readonly CountedLimit[] = Object.freeze([]);

/**
 * One call in flight, handed from step to step: the caller's context as read once, the tool, and what
 * each step found for the ones after it. One object per call, filled in place: a fast call allocates
 * no copy per step.
 */
export class Call {
  readonly ctx: CallContext;
  readonly entry: ToolEntry;
  /** The name as the caller gave it (a wire name, an internal name). */
  readonly asked: unknown;
  readonly started: number;
  /** The call's span, when the registry traces. */
  readonly span: ToolSpan | undefined;
  /** Set for `propose`: the call may only ask a person (a send or a write), with this attached. */
  readonly proposal: { readonly about: ProposalAbout } | undefined;
  /** Where a person's confirmation is asked for: the registry's, or a bundle's own. */
  readonly ask: AskConfirmation;
  /** Where limits are counted: the store, or a bundle's own counter (a refused bundle gives all back). */
  readonly counter: LimitCounter;
  /** The arguments as read, then as validated (a Standard Schema may transform them). */
  input: unknown = undefined;
  /** A Standard Schema's check still running: awaited under the run's guard, so its timeout covers it. */
  pendingVerdict: Promise<StandardOutcome> | undefined = undefined;
  /** The agent run the call belongs to (`ctx.run`), once read. */
  run: RunMemory | undefined = undefined;
  /** Where each destination came from, within a run (before the rules, which read it). */
  origins: Origins | undefined = undefined;
  /** The same per value, for the person who decides. */
  originValues: ValueOrigins | undefined = undefined;
  /** What the tool's rules ask of the approvers, once they have been applied. */
  requires: ApprovalRequirement | undefined = undefined;
  /** What the rules counted against limits that count on delivery: the confirmation keeps it. */
  counted: readonly CountedLimit[] = NOTHING_COUNTED;
  /** A rule asked a person to confirm this write. */
  asksPerson = false;

  constructor(
    start: Pick<Call, 'ctx' | 'entry' | 'asked' | 'started' | 'span' | 'proposal' | 'ask' | 'counter'>,
  ) {
    this.ctx = start.ctx;
    this.entry = start.entry;
    this.asked = start.asked;
    this.started = start.started;
    this.span = start.span;
    this.proposal = start.proposal;
    this.ask = start.ask;
    this.counter = start.counter;
  }
}

/**
 * One step of the call path: the call, passed on (changed or not), or its answer — a failure, or the
 * tool's result — at once or as a promise. A step never throws on purpose; the runner catches it if it does.
 */
export type Step = (call: Call) => Call | InvokeResult | Promise<Call | InvokeResult>;
