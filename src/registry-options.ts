import { type NotifySettings, readNotifyOptions } from './confirm/notices/notify-options.js';
import type { ConfirmationLink } from './confirmation.js';
import { ToolDefinitionError } from './errors/tool-definition-error.js';
import type { EventListener } from './events.js';
import { type ArgumentLimits, DEFAULT_ARGUMENT_LIMITS } from './invoke/arguments.js';
import { type Locale, toLocale } from './messages/index.js';
import type { NotifyOptions } from './notice.js';
import type { PasskeyVerifier } from './passkeys/passkey-verifier.js';
import type { GateContext } from './policy/gates.js';
import { type RunsOptions, type RunsSettings, readRunsOptions } from './runs/runs.js';
import type { ConfirmationStore } from './stores/store.js';
import type { Telemetry } from './telemetry/telemetry.js';
import { isTimeoutMs, MAX_TIMEOUT_MS } from './tools/check-definition.js';
import { describeThrown } from './util/describe-thrown.js';
import type { JsonSchemaValidator } from './validation/validator.js';

/** The registry's options and a call's context: what they are, and how they are read, once. */

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
  /** The provider's id of this tool call, when an adapter knows it: traced as `gen_ai.tool.call.id`. */
  readonly callId?: string | undefined;
  /**
   * The agent run this call belongs to: the id `registry.beginRun` returned. Within it, what the model
   * reads is remembered, destinations get `origins`, and egress reads are judged. A run bound to an
   * actor is found only by a call with that `actor`.
   */
  readonly run?: string | undefined;
}

/**
 * What `registry.propose` is told: who asks and the gates' context, as for any call, and what the
 * approver is shown beside the payload. There is no `autonomous`: a proposal always is.
 */
export interface ProposeOptions<AppContext = unknown> extends GateContext {
  /** Who asks (an agent id is fine); recorded, and the one who may not approve under four eyes. */
  readonly actor?: string | undefined;
  /** Why the asker wants this sent: plain text (at most 2,000 characters), shown to the approver. */
  readonly note?: string | undefined;
  /** Where the approver can read more: at most 10, each an http(s) URL with a label. */
  readonly links?: readonly ConfirmationLink[] | undefined;
  /** The app's own reference (at most 256 characters), kept on the record and in every notice. */
  readonly ref?: string | undefined;
  /**
   * One proposal per intent (at most 256 characters): a second `propose` with the same key, tool and
   * actor (`proposeBundle`: the same key and actor) answers the first confirmation — the same id,
   * nothing stored or counted — for as long as the store keeps it, decided or not. The same key with
   * another input is refused (`IDEMPOTENCY_CONFLICT`). Needs a store with the `idempotency` capability.
   */
  readonly idempotencyKey?: string | undefined;
  /** Cancels the call while `prepare` runs. */
  readonly signal?: AbortSignal | undefined;
  /** The app's own value, handed to `prepare` as `ctx.context`. */
  readonly context?: AppContext | undefined;
  /** The language of the result's message. */
  readonly locale?: Locale | undefined;
  /** The agent run asking (`registry.beginRun`): the confirmation keeps where each destination came from. */
  readonly run?: string | undefined;
}

/** How a registry behaves; every option has a safe default. */
export interface RegistryOptions {
  /** Receives one event per invoke or refusal, with the real reason. Never breaks a call. */
  readonly onEvent?: EventListener;
  /** The language of messages (default `'en'`); a call's `locale` overrides it. */
  readonly locale?: Locale;
  /** The JSON Schema validator (default: Ajv; `createCfworkerValidator()` under the `workerd` and `worker` conditions, where code generation is forbidden). */
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
  /**
   * Four eyes (default false): `confirm` and `retry` refuse the person who asked (`SAME_PERSON`), and a
   * send must record who asks (`ctx.actor`). Enforced in `confirm`, whatever screen calls it.
   */
  readonly requireDifferentApprover?: boolean;
  /** The clock of the confirmation path, in epoch ms (default `Date.now`); tests inject one. */
  readonly now?: () => number;
  /**
   * Tell approvers when a send waits, remind them before it expires (`sweep`), and tell the asker how
   * it was decided — through `graded-tools/notify` channels. A channel never delays or fails a call.
   */
  readonly notify?: NotifyOptions;
  /** Traces every call and confirmation step, e.g. `openTelemetry()` from `graded-tools/opentelemetry`. */
  readonly telemetry?: Telemetry;
  /** How agent runs (`beginRun`) are kept: how many at once, for how long, how much each remembers. */
  readonly runs?: RunsOptions;
  /**
   * Passkey approvals: `createPasskeys({ rpID, rpName, origin })` from `graded-tools/passkeys`. A
   * confirmation that `requires.passkey` is approved only with the approver's signed assertion.
   */
  readonly passkeys?: PasskeyVerifier;
}

const DEFAULT_CONFIRMATION_TTL_MS = 60 * 60 * 1000;
const MAX_CONFIRMATION_TTL_MS = 366 * 24 * 60 * 60 * 1000;

/** Who `registry.check` asks as: a person (default), an autonomous caller, a plan, or the model. */
export type CheckContext<AppContext = unknown> = InvokeContext<AppContext> & {
  readonly caller?: 'person' | 'autonomous' | 'plan' | 'model';
};

/** Options for `register`. */
export interface RegisterOptions {
  /** Replace a tool registered under the same name instead of refusing it. */
  readonly replace?: boolean;
}

export interface RegistrySettings {
  readonly onEvent: EventListener | undefined;
  readonly locale: Locale;
  readonly validator: JsonSchemaValidator | undefined;
  readonly defaultTimeoutMs: number;
  readonly argumentLimits: ArgumentLimits;
  readonly describeError: (error: unknown, tool: string) => string;
  readonly confirmations: ConfirmationStore | undefined;
  readonly confirmationTtlMs: number;
  readonly requireDigest: boolean;
  readonly requireDifferentApprover: boolean;
  readonly now: () => number;
  readonly notify: NotifySettings;
  readonly telemetry: Telemetry | undefined;
  readonly runs: RunsSettings;
  readonly passkeys: PasskeyVerifier | undefined;
}

function optionError(message: string): ToolDefinitionError {
  return new ToolDefinitionError('INVALID_OPTION', '', message);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Reads the registry's options once and checks each: a mistake here is the app's, found at startup
 * with a `ToolDefinitionError` that names the option, never a silently disabled guard.
 */
export function readRegistryOptions(options: RegistryOptions): RegistrySettings {
  const o = (options ?? {}) as Record<string, unknown>;
  const defaultTimeoutMs = o.defaultTimeoutMs ?? 30_000;
  if (!isTimeoutMs(defaultTimeoutMs)) {
    throw optionError(
      `\`defaultTimeoutMs\` must be a positive number of milliseconds (at most ${MAX_TIMEOUT_MS}).`,
    );
  }
  const ttlMs = o.confirmationTtlMs ?? DEFAULT_CONFIRMATION_TTL_MS;
  if (!(typeof ttlMs === 'number' && ttlMs > 0 && ttlMs <= MAX_CONFIRMATION_TTL_MS)) {
    throw optionError('`confirmationTtlMs` must be a positive number of milliseconds, at most a year.');
  }
  const limits = (o.argumentLimits ?? {}) as Record<string, unknown>;
  const argumentLimits = {
    maxLength: limits.maxLength ?? DEFAULT_ARGUMENT_LIMITS.maxLength,
    maxDepth: limits.maxDepth ?? DEFAULT_ARGUMENT_LIMITS.maxDepth,
  };
  if (!isLimit(argumentLimits.maxLength) || !isLimit(argumentLimits.maxDepth)) {
    throw optionError('`argumentLimits.maxLength` and `.maxDepth` must be positive whole numbers.');
  }
  // Like a call's locale: one we have no catalog for speaks English.
  const locale = toLocale(o.locale, 'en');
  for (const name of ['onEvent', 'describeError', 'now'] as const) {
    if (o[name] !== undefined && typeof o[name] !== 'function')
      throw optionError(`\`${name}\` must be a function.`);
  }
  const notify = readNotifyOptions(o.notify, ttlMs);
  if (typeof notify === 'string') throw optionError(`${notify}.`);
  const runs = readRunsOptions(o.runs);
  if (typeof runs === 'string') throw optionError(`${runs}.`);
  const telemetry = o.telemetry as Telemetry | undefined;
  if (telemetry !== undefined && typeof telemetry?.startToolSpan !== 'function')
    throw optionError(
      '`telemetry` must be what `openTelemetry()` from `graded-tools/opentelemetry` returns.',
    );
  const passkeys = o.passkeys as PasskeyVerifier | undefined;
  if (
    passkeys !== undefined &&
    (typeof passkeys?.verifyAssertion !== 'function' || typeof passkeys.rpID !== 'string')
  )
    throw optionError('`passkeys` must be what `createPasskeys()` from `graded-tools/passkeys` returns.');
  return {
    notify,
    onEvent: o.onEvent as EventListener | undefined,
    locale,
    validator: o.validator as JsonSchemaValidator | undefined,
    defaultTimeoutMs,
    argumentLimits: argumentLimits as ArgumentLimits,
    describeError: (o.describeError as RegistrySettings['describeError'] | undefined) ?? describeThrown,
    confirmations: o.confirmations as ConfirmationStore | undefined,
    confirmationTtlMs: ttlMs,
    requireDigest: o.requireDigest === true,
    requireDifferentApprover: o.requireDifferentApprover === true,
    now: (o.now as (() => number) | undefined) ?? Date.now,
    telemetry,
    runs,
    passkeys,
  };
}

/** `register`'s `replace`, read once: anything unreadable is no. */
export function readReplace(options: RegisterOptions | undefined): boolean {
  try {
    return options?.replace === true;
  } catch {
    return false;
  }
}
