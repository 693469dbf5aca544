import type { EventListener } from '../events.js';
import type { Locale } from '../messages/index.js';
import type { Runs } from '../runs/runs.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { ToolTable } from '../tools/tool-table.js';
import type { LimitCounter, RuledCall } from './apply-rules.js';
import type { ArgumentLimits } from './arguments.js';
import type { AskConfirmation } from './ask-confirmation.js';

/** What the one invoke path needs from its registry. */
export interface InvokeSettings {
  readonly table: ToolTable;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly limits: ArgumentLimits;
  readonly onEvent: EventListener | undefined;
  readonly describeError: (error: unknown, tool: string) => string;
  /** Stores a person's prepared send as a pending confirmation (the confirmation flow's first step). */
  readonly ask: AskConfirmation;
  /** Traces each call as a span, when the registry was given one. */
  readonly telemetry: Telemetry | undefined;
  /** Where rules' limits are counted (the confirmation store), and their refusals logged (its audit log). */
  readonly counter: LimitCounter;
  readonly audit?: RuledCall['audit'];
  /** The registry's clock (epoch ms): rules see it as `now`. */
  readonly now: () => number;
  /** The registry's agent runs: what each run was told and what its agent read. */
  readonly runs: Runs;
}
