import { type AuditLog, auditLogOf } from './audit/audit-log.js';
import type { BundleDecisionResult } from './confirm/bundles/decide-bundle.js';
import type { BundleStep, ProposeBundleResult } from './confirm/bundles/propose-bundle.js';
import type { ConfirmationFlow } from './confirm/confirmation-flow.js';
import { createConfirmationPath } from './confirm/confirmation-path.js';
import { bundleKeyOf, proposeKeyOf } from './confirm/intents/idempotency-key.js';
import type { ApprovalLinks } from './confirm/links/approval-links.js';
import { readProposal } from './confirm/proposal.js';
import { confirmableTool } from './confirm/steps/confirmable-tool.js';
import type {
  CancelOptions,
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
  SweepOptions,
  SweepResult,
} from './confirm/types.js';
import { type DefinitionWarningEvent, type EventListener, emitSafely } from './events.js';
import { checkCall, type RuleCheck } from './invoke/check-call.js';
import { InvokePath, type InvokeSettings } from './invoke/invoke-path.js';
import { formatMessage, type Locale, localeOption } from './messages/index.js';
import { type AccessReport, buildAccessReport } from './policy/access-report.js';
import { gatesOrNone } from './policy/call-context.js';
import { egressWarning } from './policy/egress-warning.js';
import type { GateContext } from './policy/gates.js';
import {
  type CheckContext,
  type InvokeContext,
  type ProposeOptions,
  type RegisterOptions,
  type RegistryOptions,
  readRegistryOptions,
  readReplace,
} from './registry-options.js';
import {
  failure,
  type InvokeResult,
  type ProposeResult,
  type ReadOnlyResult,
  type ToolFailure,
} from './result.js';
import { type RunOptions, type RunStarted, Runs } from './runs/runs.js';
import { memoryRuns } from './stores/memory/memory-runs.js';
import type { ConfirmationStore } from './stores/store.js';
import { hasCapability } from './stores/store-capabilities.js';
import type { ToolDefinition } from './tool.js';
import type { ListFilter, ToolInfo } from './tool-info.js';
import { assertStoreFits, assertStoreServesNotify } from './tools/assert-store-fits.js';
import { checkDefinition } from './tools/check-definition.js';
import type { FunctionSchema } from './tools/function-schema.js';
import { ToolTable } from './tools/tool-table.js';
import { describeThrown } from './util/describe-thrown.js';
import { ownOptions } from './util/own-options.js';

export type { InvokeContext, ProposeOptions, RegisterOptions, RegistryOptions } from './registry-options.js';

/** Lets the plan runner call as `plan` without offering that caller kind to everyone. */
export const INVOKE_AS: unique symbol = Symbol('graded-tools.invokeAs');

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
  readonly #tools: ToolTable;
  readonly #locale: Locale;
  readonly #invokePath: InvokePath;
  readonly #flow: ConfirmationFlow;
  readonly #approvalLinks: ApprovalLinks;
  /** The same path, silent: `check` walks its steps up to the rules and runs nothing. */
  readonly #checkPath: InvokePath;
  /** The confirmation store, where rules' limits are counted. */
  readonly #counter: ConfirmationStore;
  /** Agent runs: what each was told, what its agent read. */
  readonly #runs: Runs;
  readonly #onEvent: EventListener | undefined;

  constructor(options: RegistryOptions = {}) {
    const settings = readRegistryOptions(options);
    this.#locale = settings.locale;
    this.#onEvent = settings.onEvent;
    this.#tools = new ToolTable(settings.validator);
    // The confirmation path lives in src/confirm; the registry only lends it its tools and settings.
    const confirmations = createConfirmationPath(settings, {
      sendTool: (name) => confirmableTool(this.#tools, name),
      titleOf: (tool) => this.#tools.resolve(tool)?.tool.info.title ?? tool,
      sideEffectOf: (tool) => this.#tools.resolve(tool)?.tool.info.sideEffect,
      longestDeliveryTimeoutMs: () => this.#tools.longestDeliveryTimeoutMs(settings.defaultTimeoutMs),
      registered: () => this.#tools.tools(),
    });
    this.#flow = confirmations.flow;
    this.#approvalLinks = confirmations.links;
    const { store } = confirmations;
    assertStoreServesNotify(settings.notify, store);
    this.#counter = store;
    // Runs live where the confirmations do when the store keeps them; otherwise in this process.
    this.#runs = new Runs(hasCapability(store, 'runs') ? store : memoryRuns(), settings.runs, settings.now);
    const path: InvokeSettings = {
      table: this.#tools,
      locale: settings.locale,
      defaultTimeoutMs: settings.defaultTimeoutMs,
      limits: settings.argumentLimits,
      onEvent: settings.onEvent,
      describeError: settings.describeError,
      ask: (request) => this.#flow.ask(request),
      telemetry: settings.telemetry,
      counter: store,
      audit: confirmations.audit,
      now: settings.now,
      runs: this.#runs,
    };
    this.#invokePath = new InvokePath(path);
    this.#checkPath = new InvokePath({ ...path, onEvent: undefined, telemetry: undefined });
  }

  /**
   * Adds a tool, as a snapshot: its grade, gates, functions and a deep-frozen copy of its schema are
   * taken now, so changing the definition object afterwards changes nothing. Throws
   * `ToolDefinitionError` for a definition mistake: an invalid or too long name, a duplicate (unless
   * `replace`), a wire-name collision, a root schema that is not an object, a `send` tool with `run`
   * or without `prepare`/`deliver`, a rule that does not compile (`INVALID_RULE`). Schemas are
   * compiled on first use; rules now.
   */
  register(definition: ToolDefinition<AppContext>, options: RegisterOptions = {}): this {
    const tool = checkDefinition(definition as ToolDefinition);
    assertStoreFits(tool, this.#counter);
    this.#tools.add(tool, readReplace(options));
    const warning = egressWarning(tool.info);
    if (warning !== undefined)
      this.#warn({ type: 'warning', code: 'EGRESS_UNDECLARED', tool: tool.info.name, message: warning });
    return this;
  }

  #warn(event: DefinitionWarningEvent): void {
    if (this.#onEvent === undefined) console.warn(`[graded-tools] ${event.message}`);
    else emitSafely(this.#onEvent, event);
  }

  /** Removes a tool by internal or wire name; true when one was removed. */
  unregister(name: string): boolean {
    return this.#tools.remove(name);
  }

  /** The language of messages when a call does not give its own `locale`. */
  get locale(): Locale {
    return this.#locale;
  }

  /** The number of registered tools. */
  get size(): number {
    return this.#tools.size;
  }

  /** A registered tool by internal (`kb.search`) or wire (`kb__search`) name, frozen. */
  get(name: string): ToolInfo | undefined {
    return this.#tools.resolve(name)?.tool.info;
  }

  /** True when a tool is registered under this internal or wire name. */
  has(name: string): boolean {
    return this.#tools.resolve(name) !== undefined;
  }

  /**
   * The registered tools (frozen), filtered by domain, grade or availability in a scope. An
   * unreadable filter lists nothing.
   */
  list(filter: ListFilter = {}): ToolInfo[] {
    return this.#tools.infos(filter);
  }

  /**
   * Calls a tool as a person (or, with `autonomous: true`, as the app's own automation; any value of
   * `autonomous` but `false` or none counts as autonomous). Gates run in order — feature flag, scope,
   * `send` from an autonomous caller — then the input is validated. A `send` tool is only prepared and
   * stored as a pending confirmation: the result holds the payload to show a person, its digest and
   * the id to `confirm`. Never throws; an unreadable `ctx` is `INVALID_OPTION`.
   */
  invoke(name: string, input?: unknown, ctx: InvokeContext<AppContext> = {}): Promise<InvokeResult> {
    return this.#invokePath.invoke('invoke', name, input, ctx);
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
    return this.#invokePath.invoke('model', name, input, ctx) as Promise<ReadOnlyResult>;
  }

  /**
   * An autonomous caller (an agent run, a plan, a job) asks a person to confirm a send or a write:
   * gates 1 and 2 run, the input is validated, `prepare` builds a send's payload (a write's payload is
   * its input), its rules apply, and it is stored as a pending confirmation with `note`, `links` and
   * `ref` — the same `ConfirmRequired` a person's `invoke` answers. A write waits for a person whether
   * or not a rule asks for one. Nothing is ever delivered or run here; no adapter, wire name or plan
   * step reaches this method. Never throws; a read tool, or an unreadable option, is `INVALID_OPTION`.
   */
  propose(name: string, input?: unknown, options: ProposeOptions<AppContext> = {}): Promise<ProposeResult> {
    const about = readProposal(options);
    if ('problem' in about) return this.#invalidOption(about.problem, this.#locale);
    const idempotency = proposeKeyOf(options, name, input, this.#internalName);
    // A proposal never runs a tool: it ends as a pending confirmation or a failure, never as data.
    if (idempotency === undefined)
      return this.#invokePath.invoke('propose', name, input, options, about) as Promise<ProposeResult>;
    const locale = localeOption(options, this.#locale);
    if ('problem' in idempotency) return this.#invalidOption(idempotency.problem, locale);
    return this.#flow.proposeOnce(
      idempotency,
      (ask) => this.#invokePath.invoke('propose', name, input, options, about, ask),
      locale,
    ) as Promise<ProposeResult>;
  }

  /**
   * An autonomous caller proposes related sends and writes as one bundle, in order: each step is
   * proposed exactly as `propose` would (gates, input, rules, `prepare`), with the same `options`, and
   * all of them are stored together — or, if any step is refused (a gate, invalid input, a rule, a read
   * tool, an unknown tool), none, with that step's failure and its place (`step`, from 0), and nothing
   * its steps counted against limits stays counted. `options` are read once, at the call. A person
   * then decides the bundle whole with `confirmBundle` (bound to `digest`), and its steps are delivered
   * in order: each only after the one before it was delivered; one rejected, expired, cancelled or
   * failed stops every step after it. 1 to 100 steps, no step twice (the same resolved tool and input);
   * never throws.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry()
   *   .register({
   *     name: 'refund.issue',
   *     description: 'Refund a customer.',
   *     sideEffect: 'send',
   *     inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
   *     prepare: (input: { amount: number }) => ({ amount: input.amount }),
   *     deliver: () => ({ refunded: true }),
   *   })
   *   .register({
   *     name: 'email.send',
   *     description: 'Email the customer.',
   *     sideEffect: 'send',
   *     inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
   *     prepare: (input: { text: string }) => ({ text: input.text }),
   *     deliver: () => ({ sent: true }),
   *   });
   * const bundle = await registry.proposeBundle(
   *   [
   *     { tool: 'refund.issue', input: { amount: 150 } },
   *     { tool: 'email.send', input: { text: 'We refunded 150 EUR.' } },
   *   ],
   *   { actor: 'agent:desk-bot', note: 'Refund, then tell the customer.' },
   * );
   * if (bundle.ok) {
   *   const decided = await registry.confirmBundle(bundle.bundleId, { approvedBy: 'li', digest: bundle.digest });
   *   if (decided.ok) console.log(decided.bundle.status); // 'delivered': the refund, then the email
   * }
   * ```
   */
  proposeBundle(
    steps: readonly BundleStep[],
    options: ProposeOptions<AppContext> = {},
  ): Promise<ProposeBundleResult> {
    // Read once: a getter must not give each step another asker (one card, one decision, one actor).
    const read = ownOptions(options);
    if ('problem' in read) return this.#invalidOption(read.problem, this.#locale);
    const once = read.options as ProposeOptions<AppContext>;
    const locale = localeOption(once, this.#locale);
    const about = readProposal(once);
    if ('problem' in about) return this.#invalidOption(about.problem, locale);
    const idempotency = bundleKeyOf(once, steps, this.#internalName);
    if (idempotency !== undefined && 'problem' in idempotency)
      return this.#invalidOption(idempotency.problem, locale);
    return this.#flow.proposeBundle(
      steps,
      (tool, input, ask, counter) =>
        this.#invokePath.invoke('propose', tool, input, once, about, ask, counter) as Promise<ProposeResult>,
      locale,
      idempotency,
    );
  }

  /** A tool's internal name from a name it is asked by: how an `idempotencyKey` is scoped. */
  readonly #internalName = (name: string): string | undefined => this.#tools.resolve(name)?.tool.info.name;

  #invalidOption(detail: string, locale: Locale): Promise<ProposeResult & ProposeBundleResult> {
    return Promise.resolve(failure('INVALID_OPTION', formatMessage('INVALID_OPTION', { detail }, locale)));
  }

  /**
   * A person approves a bundle whole, as they saw it: `digest` (the bundle digest `proposeBundle`
   * answered) must match the one recomputed from every step now, or nothing is decided
   * (`PAYLOAD_CHANGED`). Every pending step passes the one check list first; one refusal (expired, a
   * changed step, `authorize`, …) refuses the whole decision. The approval then counts for every step
   * this person may approve — each keeps its own quorum, approver flags, four eyes and rules (a step
   * they may not approve waits for someone who may, and holds the steps after it). The steps are then
   * delivered in order, as far as they can go now (a held one after its undo window, by `sweep`).
   * Options as `confirm` (`approvedBy`, `digest`, `flags`, `scope`, `authorize`, `signal`, `locale`),
   * without `link` or `payload`. Never throws.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const decided = await registry.confirmBundle('no-such-bundle', { approvedBy: 'li', digest: 'ab12' });
   * if (!decided.ok) console.log(decided.code); // 'CONFIRMATION_NOT_FOUND'
   * ```
   */
  confirmBundle(bundleId: string, options: ConfirmOptions): Promise<BundleDecisionResult> {
    return this.#flow.confirmBundle(bundleId, options);
  }

  /**
   * A person says no to a bundle: every step that has not gone out is stopped — each held one cancelled
   * as this person (of a cancel and a sweep, exactly one wins), its first pending step rejected (as
   * `reject` would), and every step after it stopped — recorded on each step with its audit entry, and
   * told. The answer says which steps it `stopped` and which had already `gone`. Options as `reject`
   * (`rejectedBy`, `reason`, `authorize`), without `link`. Never throws.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const result = await registry.rejectBundle('no-such-bundle', { rejectedBy: 'li', reason: 'Wrong customer.' });
   * if (!result.ok) console.log(result.code); // 'CONFIRMATION_NOT_FOUND'
   * ```
   */
  rejectBundle(bundleId: string, options: RejectOptions): Promise<BundleDecisionResult> {
    return this.#flow.rejectBundle(bundleId, options);
  }

  /**
   * Starts an agent run: the person's `request` (their words), the values the app `trusted` (known
   * payees, contacts, hosts; by list name) and the `actor` it is for. Calls pass the returned `id` as
   * `run` in their context — the model's exit, every adapter, `propose`, `check` — and within the run
   * the registry remembers what the agent read, records where each destination came from (`origins` on
   * the confirmation, read by rules), and lets an `egress` read reach only destinations the person
   * named or the app trusts. Runs are kept by the registry's store when it has the `runs` capability
   * (the memory, SQLite, PostgreSQL and D1 stores do: every registry and process sharing the store
   * shares its runs); a custom store without it keeps them in this process's memory. A run is
   * forgotten at `expiresAt` or by `endRun`; a call naming a run that is gone — or bound to another
   * actor — is refused with `RUN_NOT_FOUND`. Asynchronous; never rejects: unreadable options are
   * `INVALID_OPTION`, a failing store `STORE_FAILED`.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const run = await registry.beginRun({
   *   request: 'Pay my March rent to DE89 3704 0044 0532 0130 00',
   *   trusted: { payees: ['GB33BUKB20201555555555'] },
   *   actor: 'ana',
   * });
   * if (run.ok) console.log(run.id, run.expiresAt);
   * ```
   */
  async beginRun(options: RunOptions = {}): Promise<RunStarted | ToolFailure> {
    try {
      const started = await this.#runs.begin(options);
      if ('problem' in started)
        return failure(
          'INVALID_OPTION',
          formatMessage('INVALID_OPTION', { detail: started.problem }, this.#locale),
        );
      return started;
    } catch (error) {
      return failure(
        'STORE_FAILED',
        formatMessage('STORE_FAILED', { detail: describeThrown(error) }, this.#locale),
      );
    }
  }

  /**
   * Forgets an agent run now, with what its agent read (its calls are then refused with
   * `RUN_NOT_FOUND`); resolves true when it was kept. Rejects when the store fails.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const run = await registry.beginRun({ request: 'Email Ana' });
   * if (run.ok) console.log(await registry.endRun(run.id)); // true
   * ```
   */
  endRun(id: string): Promise<boolean> {
    return this.#runs.end(id);
  }

  /**
   * What would happen to this call now — allow, deny (a gate, the input, a rule), limit or confirm,
   * with the rule that decided, the approvals asked for and where each limit stands — without running
   * `run` or `prepare` and without counting anything. `ctx.caller` says who asks (default a person).
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry().register({
   *   name: 'credit.submit',
   *   description: 'Submit a credit.',
   *   sideEffect: 'write',
   *   inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
   *   rules: [{ when: 'input.amount > 100', confirm: true }],
   *   run: () => 'submitted',
   * });
   * const check = await registry.check('credit.submit', { amount: 250 }, { caller: 'plan' });
   * console.log(check.outcome, check.rule); // 'confirm' '#1'
   * ```
   */
  check(name: string, input?: unknown, ctx: CheckContext<AppContext> = {}): Promise<RuleCheck> {
    const locale = localeOption(ctx, this.#locale);
    const dry = { path: this.#checkPath, table: this.#tools, counter: this.#counter, locale };
    return checkCall(dry, name, input, ctx);
  }

  /** @internal The plan runner's way in: the caller kind is fixed by the runner, not by a flag. */
  [INVOKE_AS](
    caller: 'plan',
    name: string,
    input: unknown,
    ctx: InvokeContext<AppContext>,
  ): Promise<InvokeResult> {
    return this.#invokePath.invoke(caller, name, input, ctx);
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
   * Takes back a send held in its undo window (`holdMs`): `cancelled`, never sent (see `CancelOptions`).
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * await new ToolRegistry().cancel('some-confirmation-id', { by: 'lead-li', reason: 'wrong customer' });
   * ```
   */
  cancel(id: string, options: CancelOptions): Promise<ConfirmationResult> {
    return this.#flow.cancel(id, options);
  }

  /**
   * The housekeeping an app runs on an interval (the approvals console runs it for you): expires
   * overdue pending confirmations, marks deliveries older than `staleAfterMs` (default 10 minutes)
   * `unknown`, reminds approvers (`notify.remindBeforeMs`) and delivers held sends whose time came:
   * each reminder and delivery is claimed in the store, so instances sweeping one store do it once.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const swept = await registry.sweep();
   * if (swept.ok) console.log(swept.expired.length, swept.recovered.length, swept.reminded.length);
   * ```
   */
  sweep(options?: SweepOptions): Promise<SweepResult> {
    return this.#flow.sweep(options);
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
    return this.#flow.view;
  }

  /**
   * One-time approval links for confirmations in this registry's store, for a person without a
   * console session (an emailed approval): bound to one confirmation, its payload's digest, one
   * approver and an expiry; only the token's hash is stored; used once. The approvals console's
   * `createApprovalLink` builds its URLs on this; use that unless you serve the page yourself.
   *
   * @example
   * ```ts
   * import { ToolRegistry } from 'graded-tools';
   * const registry = new ToolRegistry();
   * const link = await registry.approvalLinks.issue('some-confirmation-id', { approver: 'lead-2' });
   * if (!link.ok) console.log(link.code); // 'CONFIRMATION_NOT_FOUND'
   * ```
   */
  get approvalLinks(): ApprovalLinks {
    return this.#approvalLinks;
  }

  /** The store's tamper-evident audit log: `verify`, `export`, `signHead` (see `AuditLog`). */
  get audit(): AuditLog {
    return auditLogOf(this.#counter);
  }

  /**
   * The tools for the model under `ctx`: exactly those the model's exit would run — `read` tools whose
   * gates pass — under wire names, in OpenAI's function shape. Never a `write` or `send` tool. Cached
   * per scope and granted flags until the next `register`. An unreadable `ctx` lists nothing.
   */
  toFunctionSchemas(ctx: GateContext = {}): FunctionSchema[] {
    return [...this.#tools.modelList(gatesOrNone(ctx))];
  }

  /** For every tool: may a person, a plan and the model reach it under `ctx`, and if not, why. */
  accessReport(ctx: GateContext & { readonly locale?: Locale | undefined } = {}): AccessReport {
    return buildAccessReport(this.list(), gatesOrNone(ctx), localeOption(ctx, this.#locale));
  }
}
