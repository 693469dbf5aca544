import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from './json-schema.js';
import type { EscalationStep } from './notice.js';
import type { Rule } from './rule.js';

/**
 * What a tool does to the world, answered by two questions: can it be undone, and will someone
 * outside see it at once?
 * - `read`: looks up, searches, fetches. A person, a plan and the model may call it.
 * - `write`: changes local state. A person or a fixed plan may call it, never the model.
 * - `send`: leaves the building. It only ever delivers after a person confirms.
 */
export type SideEffect = 'read' | 'write' | 'send';

/** Every grade, in order of consequence. */
export const SIDE_EFFECTS: readonly SideEffect[] = ['read', 'write', 'send'];

/**
 * Who is calling: a person at a screen, an autonomous caller of the app's own, a fixed plan, or the
 * model through its exit. Everyone but a person is autonomous.
 */
export type CallerKind = 'person' | 'autonomous' | 'plan' | 'model';

/** A Standard Schema (zod 4, valibot, arktype …) that can also describe itself as JSON Schema. */
export type DescribedStandardSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** What a tool may give as `inputSchema`. */
export type InputSchema = JsonSchema | DescribedStandardSchema;

/**
 * The input `run` or `prepare` receives: the schema's output type for a Standard Schema, a plain
 * object for JSON Schema (give `defineTool` a type argument to narrow it).
 */
export type InferToolInput<S> = S extends StandardSchemaV1<infer _I, infer O> ? O : Record<string, unknown>;

/** What a tool's `run` or `prepare` is handed besides its input. */
export interface RunContext<AppContext = unknown> {
  /** Aborted when the caller aborts or the tool's timeout passes; pass it on to I/O. */
  readonly signal: AbortSignal;
  /** Who is calling. */
  readonly caller: CallerKind;
  /** The scope of the call, if the caller gave one. */
  readonly scope: string | undefined;
  /** The app's own value from the invoke context (the signed-in user, a tenant, a DB handle …). */
  readonly context: AppContext;
  /** The internal name of the tool being run. */
  readonly toolName: string;
}

/** What `deliver` is handed: the proof that a person approved this exact payload. */
export interface Approval {
  /** The confirmation's id; use it as the idempotency key for the downstream API. */
  readonly confirmationId: string;
  /** Who approved. */
  readonly approvedBy: string;
  /** Aborted when the delivery is cancelled or times out. */
  readonly signal: AbortSignal;
}

interface ToolFields<S extends InputSchema> {
  /**
   * `<domain>.<capability>` (advised: `kb.search`) or flat (`send_email`). Segments start with a
   * letter; see `isValidToolName`.
   */
  readonly name: string;
  /**
   * The first segment of a dotted `name` (derived when omitted, refused when it disagrees); for a flat
   * name, any one segment (`email`), the name itself when omitted.
   */
  readonly domain?: string;
  /** A short label for people (consoles, confirmation screens). */
  readonly title?: string;
  /** What the tool does and when to use it, written for the model. */
  readonly description: string;
  /** The input: a JSON Schema whose root is an object, or a self-describing Standard Schema. */
  readonly inputSchema: S;
  /** Where the tool is available; omitted means anywhere. */
  readonly scopes?: readonly string[];
  /** The feature flag that must be granted (`ctx.flags[flag] === true`); omitted means not gated. */
  readonly featureFlag?: string;
  /** How long `run`/`prepare` may take before the call fails with `TIMEOUT`. */
  readonly timeoutMs?: number;
  /** True when a read reaches outside the app (the web, a third-party API); tells MCP clients. */
  readonly openWorld?: boolean;
  /**
   * Decisions by what the call says, checked after the input is validated: deny, limit, ask a person
   * to confirm a `write`, or ask more (or flagged) people to approve. A rule only ever tightens.
   */
  readonly rules?: readonly Rule[];
  /**
   * A `send` (or a `write` that confirms): every approver signs with a registered passkey — a rule
   * `{ passkey: true }` that always applies. Needs the registry's `passkeys` (`graded-tools/passkeys`).
   */
  readonly passkey?: boolean;
  /**
   * The input fields whose values say where the call goes: a recipient, an IBAN, a URL. Each names a
   * string or number (or a list of them): a field (`to`), a dotted path that looks through lists
   * (`to.address`, or `to[].address`), or a JSON Pointer (`/to/0/address`); `register` refuses one
   * whose schema lets an object or a value of any type through. Within an agent run (`ctx.run`) the
   * registry judges every value and records where each came from (the person's request, the app's
   * trusted values by list, a tool's result, or nowhere) as the confirmation's `origins` (per field,
   * which rules read) and `originValues` (per value, which people read); outside a run it records
   * `originsOutsideRun`, and every surface says the origins were not recorded.
   */
  readonly destinations?: readonly string[];
  /**
   * For a `read` that sends model-chosen values outside (fetching a URL): the model's exit runs it only
   * when every destination is named in the run's request, trusted by the app, or in `allow`; otherwise
   * it is refused with `EGRESS_REFUSED`. Needs `destinations`.
   */
  readonly egress?: true | { readonly allow: readonly string[] };
}

/** A `read` or `write` tool: it runs. */
export interface RunnableToolDefinition<
  S extends InputSchema = InputSchema,
  Output = unknown,
  AppContext = unknown,
  Input = InferToolInput<S>,
> extends ToolFields<S> {
  readonly sideEffect: 'read' | 'write';
  /**
   * Does the work and returns the data. A throw becomes a failed result. (Method syntax, so a JSON
   * Schema tool may annotate a narrower input type.)
   */
  run(input: Input, ctx: RunContext<AppContext>): Output | Promise<Output>;
  /**
   * A `write` only: one line for approvers saying what confirming the change does, with `{field}` for
   * a top-level input field (a write's payload is its input): `'Moves the meeting to {date}'`.
   */
  readonly effect?: string;
  readonly prepare?: never;
  readonly deliver?: never;
  readonly holdMs?: never;
  readonly escalate?: never;
}

/** A `send` tool: it prepares a payload for a person to see, and delivers only once they confirm. */
export interface SendToolDefinition<
  S extends InputSchema = InputSchema,
  Payload = unknown,
  Output = unknown,
  AppContext = unknown,
  Input = InferToolInput<S>,
> extends ToolFields<S> {
  readonly sideEffect: 'send';
  /** Builds what the person will see and approve. It must not send anything. */
  prepare(input: Input, ctx: RunContext<AppContext>): Payload | Promise<Payload>;
  /** The real send; only the confirmation path calls it, once per approved confirmation. */
  deliver(payload: Payload, approval: Approval): Output | Promise<Output>;
  /**
   * The payload's shape, for a person's edit before confirming (JSON Schema with an object root, or a
   * Standard Schema): an edited payload must pass it, or nothing is sent.
   */
  readonly payloadSchema?: InputSchema;
  /**
   * The top-level payload fields a person may change before confirming (needs `payloadSchema`, whose
   * `properties` must name each — checked at register). The edited payload is validated, digested and
   * delivered exactly; the history keeps both digests.
   */
  readonly editable?: readonly string[];
  /**
   * One line for approvers saying what confirming does, with `{field}` for a top-level payload field:
   * `'Emails the customer at {to}'`. Shown on the console card and filled by `describeEffect`.
   */
  readonly effect?: string;
  /**
   * An undo window in milliseconds (at most 24 hours): a confirmed send waits as `scheduled` this long,
   * then `registry.sweep` delivers it; until then the approver (or anyone `authorize` allows) may
   * `registry.cancel` it and nothing is sent.
   */
  readonly holdMs?: number;
  /**
   * Who else to tell while it is still pending, step by step: `[{ afterMs: 15 * 60_000, to: [leads] }]`
   * announces it to `leads` 15 minutes after it was asked (sent by `registry.sweep()`, once across
   * instances). Overrides the registry's `notify.escalate`.
   */
  readonly escalate?: readonly EscalationStep[];
  readonly run?: never;
}

/** Any tool definition. */
export type ToolDefinition<AppContext = unknown> =
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
  | RunnableToolDefinition<InputSchema, any, AppContext, any>
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
  | SendToolDefinition<InputSchema, any, any, AppContext, any>;

/**
 * Defines a tool with its types checked: a `send` tool must have `prepare` and `deliver` and no `run`;
 * a `read`/`write` tool must have `run`. With a Standard Schema, `run`'s input type is inferred.
 *
 * @example
 * ```ts
 * import { defineTool } from 'graded-tools';
 *
 * const search = defineTool({
 *   name: 'kb.search',
 *   description: 'Search the knowledge base. Returns the best matching articles.',
 *   sideEffect: 'read',
 *   inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 *   run: (input) => [{ title: `About ${String(input.query)}` }],
 * });
 * ```
 */
export function defineTool<S extends InputSchema, Output, AppContext = unknown>(
  tool: RunnableToolDefinition<S, Output, AppContext>,
): RunnableToolDefinition<S, Output, AppContext>;
export function defineTool<S extends InputSchema, Payload, Output, AppContext = unknown>(
  tool: SendToolDefinition<S, Payload, Output, AppContext>,
): SendToolDefinition<S, Payload, Output, AppContext>;
export function defineTool(tool: ToolDefinition): ToolDefinition {
  return tool;
}

/**
 * True for a tool that only prepares and waits for a person (`send`).
 *
 * @example
 * ```ts
 * import { isSendTool, type ToolDefinition } from 'graded-tools';
 * declare const tool: ToolDefinition;
 * if (isSendTool(tool)) console.log('needs a person to confirm', tool.name);
 * ```
 */
export function isSendTool(tool: ToolDefinition): tool is SendToolDefinition {
  return tool.sideEffect === 'send';
}
