/**
 * Every expected outcome's code, one union for programs to switch on. Messages change with the locale;
 * codes never do.
 */
export type ErrorCode =
  /** No tool by that name, or (to the model) one it may not call. */
  | 'UNKNOWN_TOOL'
  /** The tool's feature flag is not granted in this context. */
  | 'FLAG_NOT_GRANTED'
  /** The tool is not available in this scope. */
  | 'SCOPE_MISMATCH'
  /** A `send` tool was called by an autonomous caller: only a person may start one. */
  | 'SEND_REQUIRES_CONFIRM'
  /** The model's exit was asked for a `write` or `send` tool (audit events only; the model sees `UNKNOWN_TOOL`). */
  | 'NOT_READ_ONLY'
  /** The arguments are not a JSON object (unparseable, an array, cyclic, too large …). */
  | 'INVALID_ARGUMENTS'
  /** The arguments are an object but do not match the tool's input schema; `issues` says where. */
  | 'INVALID_INPUT'
  /** The tool's own input schema could not be compiled: a definition mistake found at first use. */
  | 'SCHEMA_ERROR'
  /** The tool's `run` or `prepare` threw or rejected. */
  | 'RUN_FAILED'
  /** The tool did not finish within its timeout. */
  | 'TIMEOUT'
  /** The caller's signal was aborted. */
  | 'ABORTED'
  /** The model asked for more calls in one turn than an adapter runs; the rest were not run. */
  | 'TOO_MANY_CALLS'
  /** No confirmation with that id. */
  | 'CONFIRMATION_NOT_FOUND'
  /** The confirmation was already confirmed, rejected, expired or is being delivered. */
  | 'ALREADY_DECIDED'
  /** The confirmation expired before a person confirmed it. */
  | 'EXPIRED'
  /** The digest the person saw differs from the stored payload's. */
  | 'PAYLOAD_CHANGED'
  /**
   * `deliver` threw (the confirmation is marked `failed`), or timed out or was cancelled (marked
   * `unknown`: it may have arrived). Either way a person decides with `retry` or `markDelivered`.
   */
  | 'DELIVERY_FAILED'
  /** The confirmation store could not be read or written. */
  | 'STORE_FAILED'
  /** The change's audit entry could not be written, so the change was not made (nothing sent or lost). */
  | 'AUDIT_FAILED'
  /** A confirmation call was made without what it needs (who approved, a well-formed digest …). */
  | 'INVALID_OPTION'
  /**
   * Four eyes (`requireDifferentApprover`): the approver is the person who asked, or who asked is not
   * recorded. Someone else must confirm.
   */
  | 'SAME_PERSON'
  /**
   * A one-time approval link that opens nothing: unknown or meant for another confirmation, already
   * used, or expired (`reason` says which).
   */
  | 'LINK_REFUSED'
  /**
   * `propose` or `proposeBundle` with an `idempotencyKey` that a kept confirmation (or bundle) of the
   * same scope already holds for another input: nothing was proposed. Use a new key for a new intent.
   */
  | 'IDEMPOTENCY_CONFLICT'
  /** The caller's `authorize` did not allow this person this decision; nothing was done. */
  | 'FORBIDDEN'
  /** One of the tool's rules refused this call (or could not be evaluated, and so refused it). */
  | 'RULE_DENIED'
  /** A rule's limit is reached for this window; `resetsAt` says when it starts again. */
  | 'LIMIT_REACHED'
  /** This person already approved this payload; another person must approve it. */
  | 'ALREADY_APPROVED'
  /**
   * The approval was recorded, but the tool's rules ask for more people: nothing is sent until
   * `requires.approvals` different people have approved the same payload.
   */
  | 'AWAITING_APPROVALS'
  /**
   * Approved, and held for the tool's undo window (`holdMs`): it is `scheduled` and a sweep sends it at
   * `confirmation.deliverAt`, unless someone cancels it first. Nothing is sent yet.
   */
  | 'SCHEDULED'
  /** `ctx.run` names no run this registry keeps: never started, ended, expired or forgotten. */
  | 'RUN_NOT_FOUND'
  /**
   * The model's exit refused an egress read (`egress`): a destination it chose is not named in the
   * person's request nor trusted by the app. Ask the person for it.
   */
  | 'EGRESS_REFUSED'
  /**
   * The confirmation asks for a passkey (`requires.passkey`) and none was given — or this registry has
   * no `passkeys` (configure `createPasskeys` from `graded-tools/passkeys`). A link, Slack or email
   * cannot carry one: approve in the console. Nothing was sent or counted.
   */
  | 'PASSKEY_REQUIRED'
  /**
   * The passkey assertion does not prove this decision: replayed or expired, made for another digest,
   * confirmation, bundle or approver, from a credential that is not this approver's, its counter did
   * not advance (a cloned authenticator), or not user-verified. Nothing was sent or counted.
   */
  | 'PASSKEY_INVALID';

/** One thing wrong with an input, for a person or a model to fix. */
export interface ValidationIssue {
  /** JSON Pointer to the offending value (`''` for the root). */
  readonly path: string;
  readonly message: string;
}

/** A tool ran and returned `data`. */
export interface ToolSuccess<T = unknown> {
  readonly ok: true;
  readonly data: T;
  readonly requiresConfirm?: false;
}

/** A person's invoke of a `send` tool: the payload is prepared, nothing is sent until they confirm. */
export interface ConfirmRequired<Payload = unknown> {
  readonly ok: true;
  readonly requiresConfirm: true;
  /** What `prepare` built: show this to the person. */
  readonly confirmPayload: Payload;
  /** The stored confirmation to pass to `registry.confirm`. */
  readonly confirmationId: string;
  /** SHA-256 of the payload's canonical JSON; pass it back to `confirm` to prove what was shown. */
  readonly digest: string;
  /** ISO time after which the confirmation can no longer be confirmed. */
  readonly expiresAt: string;
}

/** Anything expected that went wrong: a refusal, bad input, a failing tool. */
export interface ToolFailure {
  readonly ok: false;
  readonly code: ErrorCode;
  /** For a person or a model: what went wrong and how to recover. */
  readonly error: string;
  /** Set on `SEND_REQUIRES_CONFIRM`: a person must start and confirm this. */
  readonly requiresConfirm?: true;
  /** Set on `INVALID_INPUT`: each thing wrong with the input. */
  readonly issues?: readonly ValidationIssue[];
  /** Set on `RULE_DENIED` and `LIMIT_REACHED`: the rule that decided. */
  readonly rule?: string;
  /** Set on `LIMIT_REACHED`: when the window ends and the limit starts again (ISO 8601, UTC). */
  readonly resetsAt?: string;
}

/** What `invoke` resolves to. It never rejects. */
export type InvokeResult<T = unknown> = ToolSuccess<T> | ConfirmRequired | ToolFailure;

/** What `registry.propose` resolves to: the pending confirmation, or why none was made. Never data. */
export type ProposeResult<Payload = unknown> = ConfirmRequired<Payload> | ToolFailure;

/** What the model's exit resolves to: a read tool's data or a failure, never a confirmation. */
export type ReadOnlyResult<T = unknown> = ToolSuccess<T> | ToolFailure;

/** Builds a failure result. */
export function failure(
  code: ErrorCode,
  error: string,
  extra?: Partial<Omit<ToolFailure, 'ok' | 'code' | 'error'>>,
): ToolFailure {
  return extra === undefined ? { ok: false, code, error } : { ok: false, code, error, ...extra };
}
