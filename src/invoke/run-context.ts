import type { CallerKind, RunContext } from '../tool.js';
import { GuardedCall } from './run-guarded.js';

/** The `ctx` a tool's `run`/`prepare` receives; it is also the guard of that very call. */
export class ToolRunContext<AppContext> extends GuardedCall implements RunContext<AppContext> {
  readonly caller: CallerKind;
  readonly scope: string | undefined;
  readonly context: AppContext;
  readonly toolName: string;

  constructor(
    timeoutMs: number,
    parent: AbortSignal | undefined,
    caller: CallerKind,
    scope: string | undefined,
    context: AppContext,
    toolName: string,
  ) {
    super(timeoutMs, parent);
    this.caller = caller;
    this.scope = scope;
    this.context = context;
    this.toolName = toolName;
  }
}
