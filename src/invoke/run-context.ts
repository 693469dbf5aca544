import type { CallerKind, RunContext } from '../tool.js';
import type { GuardedCall } from './guarded-call.js';

/**
 * The `ctx` a tool's `run`/`prepare` receives: exactly its documented fields. The call's guard (a
 * node of the shared deadline list, which links to other calls in flight) stays in a private field,
 * so nothing of another call is reachable from here and the object serialises like plain data.
 */
export class ToolRunContext<AppContext> implements RunContext<AppContext> {
  readonly caller: CallerKind;
  readonly scope: string | undefined;
  readonly context: AppContext;
  readonly toolName: string;
  readonly #guard: GuardedCall;

  constructor(
    guard: GuardedCall,
    call: { readonly caller: CallerKind; readonly scope: string | undefined; readonly context: unknown },
    toolName: string,
  ) {
    this.#guard = guard;
    this.caller = call.caller;
    this.scope = call.scope;
    this.context = call.context as AppContext;
    this.toolName = toolName;
  }

  /** Aborted when the caller aborts or the tool's timeout passes; made only when read. */
  get signal(): AbortSignal {
    return this.#guard.signal;
  }
}
