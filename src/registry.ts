import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type AccessReport, buildAccessReport, grantedFlagsOf } from './access-report.js';
import { checkDefinition } from './check-definition.js';
import { ConfirmationFlow, type Created, type SendToolHandle } from './confirm/confirmation-flow.js';
import { createMemoryStore } from './confirm/memory-store.js';
import type { ConfirmationStore } from './confirm/store.js';
import type {
  ConfirmationPruneResult,
  ConfirmationResult,
  ConfirmationSweepResult,
  ConfirmationsView,
  ConfirmOptions,
  ConfirmResult,
  MarkDeliveredOptions,
  PruneOptions,
  RecoverStaleOptions,
  RejectOptions,
} from './confirm/types.js';
import { ToolDefinitionError } from './errors/tool-definition-error.js';
import { type EventListener, emitSafely, type InvokeOutcome } from './events.js';
import { type FunctionSchema, toModelParameters } from './function-schema.js';
import { type GateContext, isModelCallable, type Refusal, refusalFor } from './gates.js';
import {
  type ArgumentLimits,
  ArgumentsProblem,
  DEFAULT_ARGUMENT_LIMITS,
  readArguments,
} from './invoke/arguments.js';
import { ToolRunContext } from './invoke/run-context.js';
import { describeThrown, type GuardedOutcome, isThenable } from './invoke/run-guarded.js';
import { formatMessage, type Locale, type MessageParams } from './messages/index.js';
import {
  type ErrorCode,
  failure,
  type InvokeResult,
  type ReadOnlyResult,
  type ToolFailure,
  type ValidationIssue,
} from './result.js';
import type { CallerKind, ToolDefinition } from './tool.js';
import type { ListFilter, ToolInfo } from './tool-info.js';
import { createAjvValidator } from './validation/ajv-validator.js';
import { isStandardSchema, validateStandard } from './validation/standard-schema.js';
import type { CompiledValidator, JsonSchemaValidator } from './validation/validator.js';

/** What a caller says about a call: the gates read `scope` and `flags`; the tool gets the rest. */
export interface InvokeContext<AppContext = unknown> extends GateContext {
  /** True for a caller acting without a person: `send` tools are then refused. */
  readonly autonomous?: boolean | undefined;
  /** Cancels the call; the tool's own signal is aborted with it. */
  readonly signal?: AbortSignal | undefined;
  /** The app's own value, handed to the tool as `ctx.context`. */
  readonly context?: AppContext | undefined;
  /** Who asked (a user id); recorded with confirmations. */
  readonly actor?: string | undefined;
  /** The language of messages for this call. */
  readonly locale?: Locale | undefined;
}

/** How a registry behaves; every option has a safe default. */
export interface RegistryOptions {
  /** Receives one event per invoke or refusal, with the real reason. Never breaks a call. */
  readonly onEvent?: EventListener;
  /** The language of messages (default `'en'`); a call's `locale` overrides it. */
  readonly locale?: Locale;
  /** The JSON Schema validator (default: Ajv). */
  readonly validator?: JsonSchemaValidator;
  /** Timeout for tools without their own `timeoutMs` (default 30 s). */
  readonly defaultTimeoutMs?: number;
  /** Limits on raw arguments (default: 1,000,000 characters, depth 64). */
  readonly argumentLimits?: Partial<ArgumentLimits>;
  /** Turns what a tool threw into the text callers (and the model) see; default: the error's message. */
  readonly describeError?: (error: unknown, tool: string) => string;
  /**
   * Where confirmations of `send` tools live (default: a new in-memory store, lost on restart). Pass
   * `graded-tools/sqlite` or `graded-tools/postgres` to survive restarts and share them between instances.
   */
  readonly confirmations?: ConfirmationStore;
  /** How long a person has to confirm (default 1 hour, at most a year). */
  readonly confirmationTtlMs?: number;
  /** Refuse a confirm or retry that does not pass the digest the person was shown (default false). */
  readonly requireDigest?: boolean;
  /** The clock of the confirmation path, in epoch ms (default `Date.now`); tests inject one. */
  readonly now?: () => number;
}

const DEFAULT_CONFIRMATION_TTL_MS = 60 * 60 * 1000;
const MAX_CONFIRMATION_TTL_MS = 366 * 24 * 60 * 60 * 1000;

/** Options for `register`. */
export interface RegisterOptions {
  /** Replace a tool registered under the same name instead of refusing it. */
  readonly replace?: boolean;
}

/** The facts about one call that its failure message and audit event need. */
interface Call {
  readonly caller: CallerKind;
  /** The internal name, or the name as asked for an unknown tool. */
  readonly tool: string;
  /** The name to show the caller (wire name for the model; empty when it may not be repeated). */
  readonly shown: string;
  readonly ctx: InvokeContext<unknown>;
  readonly started: number;
}

interface Entry<AppContext> {
  readonly definition: ToolDefinition<AppContext>;
  readonly info: ToolInfo;
  readonly standard: StandardSchemaV1 | undefined;
  validate: CompiledValidator | undefined;
  schemaError: string | undefined;
  modelSchema: FunctionSchema | undefined;
  sendHandle: SendToolHandle | undefined;
}

/** Lets the plan runner call as `plan` without offering that caller kind to everyone. */
export const INVOKE_AS: unique symbol = Symbol('graded-tools.invokeAs');

/** A name safe to repeat back in a message: a name shape, no control or markup characters. */
function safeName(name: unknown): string | undefined {
  return typeof name === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? name : undefined;
}

const MAX_LISTED_IN_MESSAGE = 20;
const MAX_CACHED_CONTEXTS = 256;

/**
 * Holds graded tools and is the only way to call them. Every call passes the gates; the model's exit
 * runs `read` tools only; `send` tools only prepare, and deliver once a person `confirm`s. `invoke`
 * and `invokeReadOnly` never throw.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 *
 * const registry = new ToolRegistry();
 * registry.register({
 *   name: 'kb.search',
 *   description: 'Search the knowledge base.',
 *   sideEffect: 'read',
 *   inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 *   run: ({ query }) => [`Article about ${String(query)}`],
 * });
 * const result = await registry.invokeReadOnly('kb__search', '{"query":"refunds"}');
 * if (result.ok) console.log(result.data);
 * ```
 */
export class ToolRegistry<AppContext = unknown> {
  readonly #byName = new Map<string, Entry<AppContext>>();
  /** Internal and wire names alike: they never collide (only internal names hold a dot). */
  readonly #byAnyName = new Map<string, Entry<AppContext>>();
  readonly #modelListCache = new Map<string, readonly FunctionSchema[]>();
  readonly #onEvent: EventListener | undefined;
  readonly #locale: Locale;
  readonly #validatorOption: JsonSchemaValidator | undefined;
  #validator: JsonSchemaValidator | undefined;
  readonly #defaultTimeoutMs: number;
  readonly #limits: ArgumentLimits;
  readonly #describeError: (error: unknown, tool: string) => string;
  readonly #flow: ConfirmationFlow;
  readonly #confirmationsView: ConfirmationsView;

  constructor(options: RegistryOptions = {}) {
    this.#onEvent = options.onEvent;
    this.#locale = options.locale ?? 'en';
    this.#validatorOption = options.validator;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.#limits = { ...DEFAULT_ARGUMENT_LIMITS, ...options.argumentLimits };
    this.#describeError = options.describeError ?? describeThrown;
    const ttlMs = options.confirmationTtlMs ?? DEFAULT_CONFIRMATION_TTL_MS;
    if (!(typeof ttlMs === 'number' && ttlMs > 0 && ttlMs <= MAX_CONFIRMATION_TTL_MS)) {
      throw new RangeError('`confirmationTtlMs` must be a positive number of milliseconds, at most a year.');
    }
    // The confirmation path lives in src/confirm; the registry only lends it its tools and settings.
    this.#flow = new ConfirmationFlow({
      store: options.confirmations ?? createMemoryStore(),
      now: options.now ?? Date.now,
      ttlMs,
      requireDigest: options.requireDigest === true,
      locale: this.#locale,
      defaultTimeoutMs: this.#defaultTimeoutMs,
      onEvent: this.#onEvent,
      sendTool: (name) => {
        const entry = this.#byName.get(name);
        const definition = entry?.definition;
        if (entry === undefined || definition?.sideEffect !== 'send') return undefined;
        // Made once per registered tool, not per confirm. Called as a method, like prepare: a tool
        // written as a class keeps its `this`.
        entry.sendHandle ??= {
          info: entry.info,
          deliver: (payload, approval) => definition.deliver(payload, approval),
        };
        return entry.sendHandle;
      },
      describeError: (error, tool) => this.#describeError(error, tool),
    });
    this.#confirmationsView = this.#flow.view;
  }

  /**
   * Adds a tool. Throws `ToolDefinitionError` for a definition mistake: an invalid or too long name,
   * a duplicate (unless `replace`), a wire-name collision, a root schema that is not an object, a
   * `send` tool with `run` or without `prepare`/`deliver`. Schemas are compiled on first use.
   */
  register(definition: ToolDefinition<AppContext>, options: RegisterOptions = {}): this {
    const info = checkDefinition(definition as ToolDefinition);
    const existing = this.#byName.get(info.name);
    if (existing !== undefined && options.replace !== true) {
      throw new ToolDefinitionError(
        'DUPLICATE_NAME',
        info.name,
        `Tool "${info.name}" is already registered. Pick another name, or pass { replace: true } to replace it.`,
      );
    }
    const wireOwner = this.#byAnyName.get(info.wireName);
    if (wireOwner !== undefined && wireOwner.info.name !== info.name) {
      throw new ToolDefinitionError(
        'WIRE_NAME_COLLISION',
        info.name,
        `Tool "${info.name}" has the wire name "${info.wireName}", which "${wireOwner.info.name}" already uses. Rename one of them.`,
      );
    }
    const schema = definition.inputSchema;
    const entry: Entry<AppContext> = {
      definition,
      info,
      standard: isStandardSchema(schema) ? schema : undefined,
      validate: undefined,
      schemaError: undefined,
      modelSchema: undefined,
      sendHandle: undefined,
    };
    this.#byName.set(info.name, entry);
    this.#byAnyName.set(info.name, entry);
    this.#byAnyName.set(info.wireName, entry);
    this.#modelListCache.clear();
    return this;
  }

  /** Removes a tool by internal or wire name; true when one was removed. */
  unregister(name: string): boolean {
    const entry = this.#resolve(name);
    if (entry === undefined) return false;
    this.#byName.delete(entry.info.name);
    this.#byAnyName.delete(entry.info.name);
    this.#byAnyName.delete(entry.info.wireName);
    this.#modelListCache.clear();
    return true;
  }

  /** The language of messages when a call does not give its own `locale`. */
  get locale(): Locale {
    return this.#locale;
  }

  /** The number of registered tools. */
  get size(): number {
    return this.#byName.size;
  }

  /** A registered tool by internal (`kb.search`) or wire (`kb__search`) name. */
  get(name: string): ToolInfo | undefined {
    return this.#resolve(name)?.info;
  }

  /** True when a tool is registered under this internal or wire name. */
  has(name: string): boolean {
    return this.#resolve(name) !== undefined;
  }

  /** The registered tools, filtered by domain, grade or availability in a scope. */
  list(filter: ListFilter = {}): ToolInfo[] {
    const tools: ToolInfo[] = [];
    for (const { info } of this.#byName.values()) {
      if (filter.domain !== undefined && info.domain !== filter.domain) continue;
      if (filter.sideEffect !== undefined && info.sideEffect !== filter.sideEffect) continue;
      if (filter.scope !== undefined && info.scopes !== undefined && !info.scopes.includes(filter.scope))
        continue;
      tools.push(info);
    }
    return tools;
  }

  /**
   * Calls a tool as a person (or, with `autonomous: true`, as the app's own automation). Gates run in
   * order — feature flag, scope, `send` from an autonomous caller — then the input is validated. A
   * `send` tool is only prepared and stored as a pending confirmation: the result holds the payload
   * to show a person, its digest and the id to `confirm`. Never throws.
   */
  invoke(name: string, input?: unknown, ctx: InvokeContext<AppContext> = {}): Promise<InvokeResult> {
    return this.#execute(ctx.autonomous === true ? 'autonomous' : 'person', name, input, ctx);
  }

  /**
   * The model's exit. Takes a wire or internal name and the arguments as an object or the raw JSON
   * string, re-checks the grade and the gates, and runs only `read` tools, as an autonomous caller.
   * A tool the model may not call is refused exactly like a name that does not exist. Never throws.
   */
  invokeReadOnly(
    name: string,
    input?: unknown,
    ctx: InvokeContext<AppContext> = {},
  ): Promise<ReadOnlyResult> {
    return this.#execute('model', name, input, ctx) as Promise<ReadOnlyResult>;
  }

  /** @internal The plan runner's way in: the caller kind is fixed by the runner, not by a flag. */
  [INVOKE_AS](
    caller: 'plan',
    name: string,
    input: unknown,
    ctx: InvokeContext<AppContext>,
  ): Promise<InvokeResult> {
    return this.#execute(caller, name, input, ctx);
  }

  /**
   * A person confirms a prepared `send`: the confirmation is checked (not expired, the `digest` they
   * were shown matches, the tool still registered and its gates passing with the approver's `flags`
   * and `scope`), claimed atomically — of any number of concurrent confirms, across processes, exactly
   * one wins and the others get `ALREADY_DECIDED` — and delivered once, with the confirmation id as
   * the idempotency key. Never throws. Not reachable from the model's exit or a plan.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   *
   * const registry = new ToolRegistry().register({
   *   name: 'message.send',
   *   description: 'Email a customer.',
   *   sideEffect: 'send',
   *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
   *   prepare: (input) => ({ to: 'ana@example.com', text: String(input.text) }),
   *   deliver: (payload, { confirmationId }) => ({ sentTo: payload.to, idempotencyKey: confirmationId }),
   * });
   * const asked = await registry.invoke('message.send', { text: 'Refunded.' }, { actor: 'agent-7' });
   * if (asked.ok && asked.requiresConfirm) {
   *   // Show asked.confirmPayload to a person; when they approve:
   *   const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead-2', digest: asked.digest });
   *   console.log(sent.ok ? sent.data : sent.code);
   * }
   * ```
   */
  confirm<T = unknown>(id: string, options: ConfirmOptions): Promise<ConfirmResult<T>> {
    return this.#flow.confirm(id, options) as Promise<ConfirmResult<T>>;
  }

  /**
   * A person re-delivers a confirmation whose outcome is `unknown` or `failed`, after reading its
   * history. Same checks and claim as `confirm` (but no expiry: it was approved once already), the
   * same confirmation id as idempotency key, so a downstream API that honours it will not send twice.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const result = await registry.retry('an-unknown-confirmation', { approvedBy: 'lead-2' });
   * result.ok; // false: CONFIRMATION_NOT_FOUND
   * ```
   */
  retry<T = unknown>(id: string, options: ConfirmOptions): Promise<ConfirmResult<T>> {
    return this.#flow.retry(id, options) as Promise<ConfirmResult<T>>;
  }

  /**
   * A person says no to a pending confirmation: it becomes `rejected` and can never be delivered.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const result = await registry.reject('some-confirmation-id', { rejectedBy: 'lead-2', reason: 'Wrong customer.' });
   * if (!result.ok) console.log(result.code); // 'CONFIRMATION_NOT_FOUND'
   * ```
   */
  reject(id: string, options: RejectOptions): Promise<ConfirmationResult> {
    return this.#flow.reject(id, options);
  }

  /**
   * A person settles an `unknown` or `failed` confirmation as delivered (they checked that it
   * arrived), so nobody retries it.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * await registry.markDelivered('some-confirmation-id', { by: 'lead-2', note: 'Customer replied to it.' });
   * ```
   */
  markDelivered(id: string, options: MarkDeliveredOptions): Promise<ConfirmationResult> {
    return this.#flow.markDelivered(id, options);
  }

  /**
   * After a crash: marks deliveries started more than `olderThanMs` ago that never recorded an
   * outcome as `unknown`. Never re-delivers; a person decides with `retry` or `markDelivered`. Run
   * it at startup and now and then, with more than your longest `deliver` timeout.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const swept = await registry.recoverStale({ olderThanMs: 10 * 60_000 });
   * if (swept.ok) for (const c of swept.changed) console.log(`${c.id} needs a person: ${c.tool}`);
   * ```
   */
  recoverStale(options: RecoverStaleOptions): Promise<ConfirmationSweepResult> {
    return this.#flow.recoverStale(options);
  }

  /**
   * Marks every pending confirmation past its expiry as `expired` (a confirm would refuse them
   * anyway; this keeps the store and the audit trail tidy).
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const swept = await new ToolRegistry().expireDue();
   * if (swept.ok) console.log(swept.changed.length);
   * ```
   */
  expireDue(options: { readonly locale?: Locale } = {}): Promise<ConfirmationSweepResult> {
    return this.#flow.expireDue(options);
  }

  /**
   * Deletes finished confirmations (`delivered`, `rejected`, `expired`) last changed more than
   * `olderThanMs` ago, and says how many. Never deletes one that is open or whose outcome a person
   * must still decide (`failed`, `unknown`). Run it now and then to keep the store small.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const pruned = await new ToolRegistry().prune({ olderThanMs: 30 * 24 * 60 * 60_000 });
   * if (pruned.ok) console.log(`${pruned.deleted} deleted`);
   * ```
   */
  prune(options: PruneOptions): Promise<ConfirmationPruneResult> {
    return this.#flow.prune(options);
  }

  /**
   * The confirmations, read-only: `get(id)` and `list({ status?, tool?, limit? })`, as results.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const pending = await registry.confirmations.list({ status: 'pending', limit: 20 });
   * if (pending.ok) for (const c of pending.confirmations) console.log(c.id, c.tool, c.payload);
   * ```
   */
  get confirmations(): ConfirmationsView {
    return this.#confirmationsView;
  }

  /**
   * The tools for the model under `ctx`: exactly those the model's exit would run — `read` tools whose
   * gates pass — under wire names, in OpenAI's function shape. Never a `write` or `send` tool. Cached
   * per scope and granted flags until the next `register`.
   */
  toFunctionSchemas(ctx: GateContext = {}): FunctionSchema[] {
    const key = `${ctx.scope ?? ''}\u0000${grantedFlagsOf(ctx.flags).join('\u0000')}`;
    let cached = this.#modelListCache.get(key);
    if (cached === undefined) {
      const schemas: FunctionSchema[] = [];
      for (const entry of this.#byName.values()) {
        if (isModelCallable(entry.info, ctx)) schemas.push(this.#modelSchemaOf(entry));
      }
      cached = Object.freeze(schemas);
      if (this.#modelListCache.size >= MAX_CACHED_CONTEXTS) this.#modelListCache.clear();
      this.#modelListCache.set(key, cached);
    }
    return [...cached];
  }

  /** For every tool: may a person, a plan and the model reach it under `ctx`, and if not, why. */
  accessReport(ctx: GateContext & { readonly locale?: Locale } = {}): AccessReport {
    return buildAccessReport(this.list(), ctx, ctx.locale ?? this.#locale);
  }

  #resolve(name: string): Entry<AppContext> | undefined {
    if (typeof name !== 'string') return undefined;
    return this.#byAnyName.get(name);
  }

  #modelSchemaOf(entry: Entry<AppContext>): FunctionSchema {
    entry.modelSchema ??= Object.freeze({
      name: entry.info.wireName,
      description: entry.info.description,
      parameters: toModelParameters(entry.info.inputSchema),
    });
    return entry.modelSchema;
  }

  #compiled(entry: Entry<AppContext>): CompiledValidator | undefined {
    if (entry.validate === undefined && entry.schemaError === undefined) {
      try {
        this.#validator ??= this.#validatorOption ?? createAjvValidator();
        entry.validate = this.#validator.compile(entry.info.inputSchema);
      } catch (error) {
        entry.schemaError = describeThrown(error);
      }
    }
    return entry.validate;
  }

  /**
   * Every call comes here. It never throws, and it is synchronous up to the tool's own work: a tool that
   * returns a plain value costs no promise of ours, one that returns a promise costs one race. No
   * timer and no AbortController are made per call unless a tool needs one.
   */
  #execute(
    caller: CallerKind,
    name: string,
    rawInput: unknown,
    ctx: InvokeContext<AppContext>,
  ): Promise<InvokeResult> {
    const outcome = this.#attempt(caller, name, rawInput, ctx);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  #attempt(
    caller: CallerKind,
    name: string,
    rawInput: unknown,
    ctx: InvokeContext<AppContext>,
  ): InvokeResult | Promise<InvokeResult> {
    const started = this.#onEvent === undefined ? 0 : performance.now();
    const entry = this.#resolve(name);
    try {
      if (entry === undefined) {
        const requested = typeof name === 'string' ? name.slice(0, 128) : String(name);
        const call: Call = { caller, tool: requested, shown: '', ctx, started };
        return this.#fail(call, 'UNKNOWN_TOOL', this.#unknownToolParams(name, caller, ctx));
      }
      const refusal = refusalFor(entry.info, ctx, caller);
      if (refusal !== undefined) return this.#refuse(entry, refusal, caller, name, ctx, started);
      if (ctx.signal?.aborted) return this.#fail(this.#call(entry, caller, ctx, started), 'ABORTED', {});

      const parsed = readArguments(rawInput, this.#limits);
      if (parsed instanceof ArgumentsProblem) {
        return this.#fail(this.#call(entry, caller, ctx, started), 'INVALID_ARGUMENTS', {
          detail: parsed.detail,
        });
      }
      if (entry.standard !== undefined)
        return this.#validateStandardThenRun(entry, parsed, caller, ctx, started);
      const validate = entry.validate ?? this.#compiled(entry);
      if (validate === undefined) {
        return this.#fail(this.#call(entry, caller, ctx, started), 'SCHEMA_ERROR', {
          detail: entry.schemaError ?? '',
        });
      }
      const checked = validate(parsed);
      if (!checked.valid) return this.#invalidInput(this.#call(entry, caller, ctx, started), checked.issues);
      return this.#run(entry, parsed, caller, ctx, started);
    } catch (error) {
      return this.#unexpected(error, entry, caller, name, ctx, started);
    }
  }

  async #validateStandardThenRun(
    entry: Entry<AppContext>,
    input: unknown,
    caller: CallerKind,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): Promise<InvokeResult> {
    try {
      const checked = await validateStandard(entry.standard as StandardSchemaV1, input);
      if (!checked.valid) return this.#invalidInput(this.#call(entry, caller, ctx, started), checked.issues);
      return await this.#run(entry, checked.value, caller, ctx, started);
    } catch (error) {
      return this.#unexpected(error, entry, caller, entry.info.name, ctx, started);
    }
  }

  #run(
    entry: Entry<AppContext>,
    input: unknown,
    caller: CallerKind,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): InvokeResult | Promise<InvokeResult> {
    const { definition, info } = entry;
    const timeoutMs = info.timeoutMs ?? this.#defaultTimeoutMs;
    const runContext = new ToolRunContext<AppContext>(
      timeoutMs,
      ctx.signal,
      caller,
      ctx.scope,
      ctx.context as AppContext,
      info.name,
    );
    let returned: unknown;
    try {
      returned =
        definition.sideEffect === 'send'
          ? definition.prepare(input, runContext)
          : definition.run(input, runContext);
    } catch (error) {
      return this.#toResult(entry, input, { kind: 'threw', error }, caller, ctx, started, timeoutMs);
    }
    if (!isThenable(returned)) {
      return this.#toResult(entry, input, { kind: 'ok', value: returned }, caller, ctx, started, timeoutMs);
    }
    return runContext.settle(returned, (outcome) =>
      this.#toResult(entry, input, outcome, caller, ctx, started, timeoutMs),
    );
  }

  #toResult(
    entry: Entry<AppContext>,
    input: unknown,
    outcome: GuardedOutcome<unknown>,
    caller: CallerKind,
    ctx: InvokeContext<AppContext>,
    started: number,
    timeoutMs: number,
  ): InvokeResult | Promise<InvokeResult> {
    try {
      switch (outcome.kind) {
        case 'timeout':
          return this.#fail(this.#call(entry, caller, ctx, started), 'TIMEOUT', { ms: timeoutMs });
        case 'aborted':
          return this.#fail(this.#call(entry, caller, ctx, started), 'ABORTED', {});
        case 'threw':
          return this.#fail(this.#call(entry, caller, ctx, started), 'RUN_FAILED', {
            detail: this.#safeDescribe(outcome.error, entry.info.name),
          });
      }
      const data = outcome.value === undefined ? null : outcome.value;
      if (entry.definition.sideEffect === 'send')
        return this.#storeConfirmation(entry, input, data, caller, ctx, started);
      if (started !== 0) this.#report(caller, entry.info.name, ctx, started, 'ok');
      return { ok: true, data };
    } catch (error) {
      return this.#unexpected(error, entry, caller, entry.info.name, ctx, started);
    }
  }

  /**
   * A person's send was prepared: store it as a pending confirmation and hand back what to show. Like
   * a plain tool, it answers without a promise when nothing waits (the memory store).
   */
  #storeConfirmation(
    entry: Entry<AppContext>,
    input: unknown,
    payload: unknown,
    caller: CallerKind,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): Promise<InvokeResult> {
    const created = this.#flow.ask({
      tool: entry.info.name,
      input,
      payload,
      actor: ctx.actor,
      scope: ctx.scope,
    });
    return created.then(
      (answer) => this.#answerCreated(answer, entry, caller, ctx, started),
      (error: unknown) => this.#unexpected(error, entry, caller, entry.info.name, ctx, started),
    );
  }

  #answerCreated(
    created: Created,
    entry: Entry<AppContext>,
    caller: CallerKind,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): InvokeResult {
    try {
      if (!created.ok)
        return this.#fail(this.#call(entry, caller, ctx, started), created.code, { detail: created.detail });
      this.#report(caller, entry.info.name, ctx, started, 'confirm_required');
      return created;
    } catch (error) {
      return this.#unexpected(error, entry, caller, entry.info.name, ctx, started);
    }
  }

  /** Defence in depth: nothing a caller or a tool does may turn into an exception for the host. */
  #unexpected(
    error: unknown,
    entry: Entry<AppContext> | undefined,
    caller: CallerKind,
    name: unknown,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): ToolFailure {
    const call: Call = entry
      ? this.#call(entry, caller, ctx, started)
      : { caller, tool: String(name).slice(0, 128), shown: safeName(name) ?? '', ctx, started };
    return this.#fail(call, 'RUN_FAILED', { detail: describeThrown(error) });
  }

  /** What a failure path needs to know about its call; made only when a call fails. */
  #call(entry: Entry<AppContext>, caller: CallerKind, ctx: InvokeContext<AppContext>, started: number): Call {
    // The model knows tools by wire name; people and plans by internal name.
    const shown = caller === 'model' ? entry.info.wireName : entry.info.name;
    return { caller, tool: entry.info.name, shown, ctx, started };
  }

  #refuse(
    entry: Entry<AppContext>,
    refusal: Refusal,
    caller: CallerKind,
    name: string,
    ctx: InvokeContext<AppContext>,
    started: number,
  ): ToolFailure {
    if (caller === 'model') {
      // The model learns nothing about tools it may not call: same code and message as a made-up name.
      this.#report(caller, entry.info.name, ctx, started, 'refused', refusal);
      const params = this.#unknownToolParams(name, caller, ctx);
      return failure('UNKNOWN_TOOL', formatMessage('UNKNOWN_TOOL', params, ctx.locale ?? this.#locale));
    }
    const extra = refusal === 'SEND_REQUIRES_CONFIRM' ? { requiresConfirm: true as const } : undefined;
    return this.#fail(this.#call(entry, caller, ctx, started), refusal, { scope: ctx.scope }, extra);
  }

  #fail(call: Call, code: ErrorCode, params: MessageParams, extra?: Partial<ToolFailure>): ToolFailure {
    const outcome = code === 'UNKNOWN_TOOL' || code in REFUSALS ? 'refused' : 'failed';
    this.#report(call.caller, call.tool, call.ctx, call.started, outcome, code);
    const message = formatMessage(
      code,
      { ...params, ...(call.shown === '' ? {} : { tool: call.shown }) },
      call.ctx.locale ?? this.#locale,
    );
    return failure(code, message, extra);
  }

  #report(
    caller: CallerKind,
    tool: string,
    ctx: { readonly scope?: string | undefined },
    started: number,
    outcome: InvokeOutcome,
    code?: ErrorCode,
  ): void {
    if (this.#onEvent === undefined) return;
    emitSafely(this.#onEvent, {
      type: 'invoke',
      tool,
      caller,
      outcome,
      ms: performance.now() - started,
      at: performance.timeOrigin + started,
      ...(code === undefined ? {} : { code }),
      ...(ctx.scope === undefined ? {} : { scope: ctx.scope }),
    });
  }

  #invalidInput(call: Call, issues: readonly ValidationIssue[]): ToolFailure {
    const detail = issues
      .map((issue) => `- ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('\n');
    return this.#fail(call, 'INVALID_INPUT', { detail }, { issues });
  }

  #unknownToolParams(name: unknown, caller: CallerKind, ctx: GateContext): MessageParams {
    const tool = safeName(name);
    const base = tool === undefined ? {} : { tool };
    if (caller !== 'model') return base;
    const available = this.toFunctionSchemas(ctx).map((schema) => schema.name);
    const listed =
      available.length > MAX_LISTED_IN_MESSAGE
        ? [...available.slice(0, MAX_LISTED_IN_MESSAGE), '…']
        : available;
    return { ...base, available: listed };
  }

  #safeDescribe(error: unknown, tool: string): string {
    try {
      return this.#describeError(error, tool).slice(0, 2_000);
    } catch {
      return describeThrown(error);
    }
  }
}

const REFUSALS: Readonly<Record<string, true>> = {
  FLAG_NOT_GRANTED: true,
  SCOPE_MISMATCH: true,
  SEND_REQUIRES_CONFIRM: true,
  NOT_READ_ONLY: true,
};
