import { type ConfirmationAction, type EventListener, emitSafely } from '../events.js';
import { GuardedCall, type GuardedOutcome } from '../invoke/run-guarded.js';
import { formatMessage, type Locale, type MessageParams, toLocale } from '../messages/index.js';
import { approverGates, readFlags } from '../policy/call-context.js';
import { refusalFor } from '../policy/gates.js';
import { type ConfirmRequired, type ErrorCode, failure } from '../result.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { traceConfirmationStep } from '../telemetry/trace-confirmation.js';
import type { Approval, JsonSchema } from '../tool.js';
import type { ToolInfo } from '../tools/tool-info.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { ApproverNotices } from './approver-notices.js';
import { ChangeWatchers } from './change-watchers.js';
import { isConfirmationIdShape, newConfirmationId } from './confirmation-id.js';
import { decodeCursor } from './cursor.js';
import { confirmationDigest, snapshotJson } from './digest.js';
import { fourEyesRefusal } from './four-eyes.js';
import { nameProblem, noteProblem, recordableLabel, storableText } from './labels.js';
import { checkPayloadEdit, type EditRules } from './payload-edit.js';
import type { ConfirmationStore, FinishChange, PayloadEdit, TransitionOutcome } from './store.js';
import { clampLimit, historyEntry } from './transitions.js';
import {
  CONFIRMATION_STATUSES,
  type Confirmation,
  type ConfirmationFailure,
  type ConfirmationListResult,
  type ConfirmationNotice,
  type ConfirmationPruneResult,
  type ConfirmationResult,
  type ConfirmationStatus,
  type ConfirmationSweepResult,
  type ConfirmationsView,
  type ConfirmationToolView,
  type ConfirmResult,
  type EditCheckResult,
  type SweepResult,
} from './types.js';

/** A registered `send` tool as the confirmation path needs it. */
export interface SendToolHandle {
  readonly info: ToolInfo;
  readonly deliver: (payload: unknown, approval: Approval) => unknown;
  /** What a person may edit before confirming, when the tool declares `payloadSchema`. */
  readonly edit: EditRules | undefined;
  /** `payloadSchema` as JSON Schema, for a confirmation screen. */
  readonly payloadSchema: JsonSchema | undefined;
}

/**
 * What the registry lends the confirmation path: its store, clock and settings, and a way to find a
 * send tool as registered *now* (so one unregistered or regated since is refused).
 */
export interface ConfirmationFlowSettings {
  readonly store: ConfirmationStore;
  readonly now: () => number;
  readonly ttlMs: number;
  readonly requireDigest: boolean;
  /** Four eyes: `confirm` and `retry` refuse the person who asked (`SAME_PERSON`). */
  readonly requireDifferentApprover: boolean;
  readonly locale: Locale;
  readonly defaultTimeoutMs: number;
  readonly onEvent: EventListener | undefined;
  readonly sendTool: (name: string) => SendToolHandle | undefined;
  readonly describeError: (error: unknown, tool: string) => string;
  /** Who tells approvers (the registry's `notify`), if anyone. */
  readonly notices: ApproverNotices | undefined;
  /** A reminder this long before expiry, from `sweep` (0: none). */
  readonly remindBeforeMs: number;
  /** Traces each confirm, retry, reject and markDelivered as a span, when the registry traces. */
  readonly telemetry: Telemetry | undefined;
}

/** What a person's invoke of a send tool produced, to be stored for confirmation. */
export interface NewConfirmation {
  readonly tool: string;
  readonly input: unknown;
  readonly payload: unknown;
  readonly actor: string | undefined;
  readonly scope: string | undefined;
}

/** Why a confirmation could not be created: the registry words and reports it like any failure. */
export interface CreateRefusal {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly detail: string;
}

/** What `ask` answers. */
export type Created = ConfirmRequired | CreateRefusal;

/** How long a delivery may run before `sweep` calls it `unknown`, unless told otherwise. */
const DEFAULT_STALE_AFTER_MS = 10 * 60_000;
/** The longest look-back `recoverStale` and `prune` accept: a year. */
const MAX_OLDER_THAN_MS = 366 * 24 * 60 * 60 * 1000;
const NOT_JSON = 'the result is not JSON and was not stored';

/** Builds a failure in the caller's language, carrying the confirmation when there is one. */
type Fail = (code: ErrorCode, params: MessageParams, confirmation?: Confirmation) => ConfirmationFailure;

/** One confirm or retry under way: what its steps share. */
interface Attempt {
  readonly mode: 'confirm' | 'retry';
  readonly now: number;
  readonly fail: Fail;
}

const UNREADABLE = { detail: 'the options could not be read' };

/** What a confirm or retry was told, each option read once, checked. */
interface Approving {
  readonly approvedBy: string;
  /** Lower case: a digest shown in capitals is the same digest. */
  readonly digest: string | undefined;
  /** Only the flags granted (exactly `true`), copied. */
  readonly flags: Readonly<Record<string, true>> | undefined;
  readonly scope: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The person's edit of the payload, as given (checked against the tool's rules before the claim). */
  readonly payload: unknown;
  readonly editing: boolean;
}

/**
 * The confirmation path, in the order a confirmation lives it: **ask** (store what `prepare` built as
 * `pending`), **confirm/retry** (a person approves: checks, one atomic claim, one delivery),
 * **record** (how the delivery ended), **decide** (reject, markDelivered), **sweep** (expire,
 * recoverStale, prune) and **read** (get, list).
 *
 * Every public method resolves to a result and never rejects: each copies the caller's options into
 * locals once, at the top, so a getter cannot answer one thing to a check and another to the store;
 * options that cannot be read are `INVALID_OPTION`, in English unless a known locale was readable.
 */
export class ConfirmationFlow {
  readonly #s: ConfirmationFlowSettings;
  readonly #locale: Locale;
  /** `registry.confirmations`: reads only, so it can be handed to a console without handing out a decision. */
  readonly view: ConfirmationsView;
  readonly #watchers: ChangeWatchers;

  constructor(settings: ConfirmationFlowSettings) {
    this.#s = settings;
    this.#locale = toLocale(settings.locale, 'en');
    this.#watchers = new ChangeWatchers(settings.store);
    this.view = Object.freeze({
      get: (id: string, options?: unknown) => this.get(id, options),
      list: (filter?: unknown) => this.list(filter),
      watch: (listener: (notice: ConfirmationNotice) => void) => this.#watchers.add(listener),
      tool: (name: string) => this.tool(name),
      checkEdit: (id: string, payload: unknown, options?: unknown) => this.checkEdit(id, payload, options),
    }) as ConfirmationsView;
  }

  // ── ask ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * Stores what `prepare` built as a `pending` confirmation and answers with the payload to show,
   * its digest, the id to confirm and when it expires. The payload must be plain JSON: it is stored,
   * shown and later delivered — possibly by another process — and all three must be the same.
   */
  async ask(asked: NewConfirmation): Promise<Created> {
    try {
      if (asked.actor !== undefined) {
        const problem = nameProblem(asked.actor, 'actor');
        if (problem !== undefined) return { ok: false, code: 'INVALID_OPTION', detail: problem };
      } else if (this.#s.requireDifferentApprover) {
        const detail = 'this registry needs `actor` (who asks) on a send, so that someone else confirms it';
        return { ok: false, code: 'INVALID_OPTION', detail };
      }
      const snapshot = snapshotJson(asked.payload);
      if (!snapshot.ok) {
        return {
          ok: false,
          code: 'RUN_FAILED',
          detail: `prepare must return a JSON payload (it is stored, shown and delivered as JSON): ${snapshot.detail}`,
        };
      }
      const confirmation = this.#newRecord(asked, snapshot.value);
      try {
        await this.#s.store.create(confirmation);
      } catch (error) {
        return { ok: false, code: 'STORE_FAILED', detail: storeFailure(error) };
      }
      this.#emit('created', confirmation, asked.actor);
      return {
        ok: true,
        requiresConfirm: true,
        // The snapshot, not what `prepare` returned: exactly the data that was digested and stored.
        confirmPayload: snapshot.value,
        confirmationId: confirmation.id,
        digest: confirmation.digest,
        expiresAt: confirmation.expiresAt,
      };
    } catch (error) {
      return { ok: false, code: 'RUN_FAILED', detail: describeThrown(error) };
    }
  }

  #newRecord(asked: NewConfirmation, payload: unknown): Confirmation {
    const now = this.#s.now();
    const createdAt = new Date(now).toISOString();
    const scope = recordableLabel(asked.scope);
    return {
      id: newConfirmationId(),
      tool: asked.tool,
      input: inputForRecord(asked.input),
      payload,
      digest: confirmationDigest(asked.tool, payload),
      ...(asked.actor === undefined ? {} : { actor: asked.actor }),
      ...(scope === undefined ? {} : { scope }),
      createdAt,
      expiresAt: new Date(now + this.#s.ttlMs).toISOString(),
      updatedAt: createdAt,
      status: 'pending',
      attempt: 0,
      history: [historyEntry({ now, by: asked.actor }, 'pending')],
    };
  }

  // ── confirm / retry ──────────────────────────────────────────────────────────────────────────

  /** A person approves a pending confirmation: checked, claimed once, delivered once. */
  confirm(id: string, options: unknown): Promise<ConfirmResult> {
    return traceConfirmationStep(this.#s.telemetry, 'confirm', id, () =>
      this.#approve(id, options, 'confirm'),
    );
  }

  /** A person re-delivers an `unknown` or `failed` one: the same checks and claim, no expiry. */
  retry(id: string, options: unknown): Promise<ConfirmResult> {
    return traceConfirmationStep(this.#s.telemetry, 'retry', id, () => this.#approve(id, options, 'retry'));
  }

  /**
   * 1. read the options → 2. look up → 3. status and expiry, and four eyes → 4. digest of tool and
   * payload → 5. the tool and its gates now → 6. the person's edit → 7. claim (with the edit) →
   * 8. deliver → 9. record the outcome.
   *
   * The checks come before the claim: a refused confirm leaves it `pending` for the right approver,
   * with no "unclaim" that a crash could skip. Checking the snapshot is sound because what they read
   * is fixed at creation or comes from the approver and the registry now; the status and expiry,
   * which do change, are decided again atomically by the claim itself.
   */
  async #approve(id: string, options: unknown, mode: 'confirm' | 'retry'): Promise<ConfirmResult> {
    const read = readOptions(options, [
      'approvedBy',
      'digest',
      'flags',
      'scope',
      'signal',
      'payload',
      'locale',
    ]);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    try {
      if (read === undefined) return fail('INVALID_OPTION', UNREADABLE);
      let approving: Approving | string;
      try {
        approving = this.#approving(read);
      } catch {
        return fail('INVALID_OPTION', UNREADABLE);
      }
      if (typeof approving === 'string') return fail('INVALID_OPTION', { detail: approving });
      if (approving.editing && mode === 'retry')
        return fail('INVALID_OPTION', {
          detail: 'a retry re-delivers what was approved; it cannot be edited',
        });
      if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
      if (approving.signal?.aborted) return fail('ABORTED', {});

      // Always awaited, even from the memory store: a confirm never acts before its caller regains
      // control, so a signal aborted right after calling it still stops it here.
      let record: Confirmation | undefined;
      try {
        record = await this.#s.store.get(id);
      } catch (error) {
        return fail('STORE_FAILED', { detail: storeFailure(error) });
      }
      if (record === undefined) return fail('CONFIRMATION_NOT_FOUND', {});
      const now = this.#s.now();

      const attempt: Attempt = { mode, now, fail };
      const notOpen = await this.#notOpen(record, attempt);
      if (notOpen !== undefined) return notOpen;
      const samePerson = this.#samePerson(record, approving.approvedBy, fail);
      if (samePerson !== undefined) return samePerson;
      const payload = this.#verifiedPayload(record, approving.digest, fail);
      if (!payload.ok) return payload.failure;
      const tool = this.#s.sendTool(record.tool);
      if (tool === undefined) return fail('UNKNOWN_TOOL', { tool: record.tool }, record);
      const gates = approverGates(approving, record.scope);
      const refusal = refusalFor(tool.info, gates, 'person');
      if (refusal !== undefined) return fail(refusal, { tool: record.tool, scope: gates.scope }, record);
      const edited = approving.editing
        ? await this.#edit(record, tool, approving.payload, payload.value, fail)
        : { ok: true as const, edit: undefined };
      if (!edited.ok) return edited.failure;
      if (approving.signal?.aborted) return fail('ABORTED', {}, record);

      const claim = await this.#claim(record, attempt, approving.approvedBy, edited.edit);
      if (!claim.ok) return claim.failure;
      this.#emit('confirmed', claim.confirmation, approving.approvedBy);
      return await this.#deliver({
        claimed: claim.confirmation,
        tool,
        // A fresh copy of exactly what was digested: a `deliver` that changes it changes nothing stored.
        payload: edited.edit === undefined ? payload.value : JSON.parse(edited.edit.payloadJson),
        approving,
        fail,
      });
    } catch (error) {
      // Defence in depth: nothing here may turn into an exception for the host.
      return fail('RUN_FAILED', { detail: describeThrown(error) });
    }
  }

  /** The options of a confirm, checked, or why they cannot be used. */
  #approving(read: Readonly<Record<string, unknown>>): Approving | string {
    const { approvedBy, digest, flags, scope, signal, payload } = read;
    const editing = payload !== undefined;
    const who = nameProblem(approvedBy, 'approvedBy');
    if (who !== undefined) return who;
    if (digest !== undefined && (typeof digest !== 'string' || !isDigestShape(digest.toLowerCase())))
      return '`digest` must be the 64-character hex digest the person was shown';
    if (digest === undefined && this.#s.requireDigest)
      return 'this registry requires the `digest` the person was shown';
    if (digest === undefined && editing)
      return 'an edit needs the `digest` the person was shown before editing';
    if (scope !== undefined && typeof scope !== 'string') return '`scope` must be a string';
    if (signal !== undefined && !(signal instanceof AbortSignal)) return '`signal` must be an AbortSignal';
    const granted = grantedFlags(flags);
    if (typeof granted === 'string') return granted;
    // A signal is read here once too: a proxy around one that cannot say whether it is aborted is refused.
    if (signal !== undefined && typeof (signal as AbortSignal).aborted !== 'boolean')
      return '`signal` must be an AbortSignal';
    return {
      approvedBy: approvedBy as string,
      digest: digest === undefined ? undefined : (digest as string).toLowerCase(),
      flags: granted,
      scope: scope as string | undefined,
      signal: signal as AbortSignal | undefined,
      payload,
      editing,
    };
  }

  /** Four eyes: the approver must not be the person who asked, and who asked must be known. */
  #samePerson(record: Confirmation, approvedBy: string, fail: Fail): ConfirmationFailure | undefined {
    if (!this.#s.requireDifferentApprover) return undefined;
    const refusal = fourEyesRefusal(record, approvedBy);
    if (refusal === undefined) return undefined;
    return fail('SAME_PERSON', refusal === 'no-actor' ? { detail: 'no-actor' } : {}, record);
  }

  /** The person's edit checked against the tool's rules: the edit to claim with, or the refusal. */
  async #edit(
    record: Confirmation,
    tool: SendToolHandle,
    proposed: unknown,
    original: unknown,
    fail: Fail,
  ): Promise<{ ok: true; edit: PayloadEdit | undefined } | { ok: false; failure: ConfirmationFailure }> {
    const checked = await checkPayloadEdit({
      tool: record.tool,
      original,
      fromDigest: record.digest,
      proposed,
      rules: tool.edit,
    });
    if (checked.ok) return checked;
    const failure = fail(checked.code, { tool: record.tool, detail: checked.detail }, record);
    return { ok: false, failure: 'issues' in checked ? { ...failure, issues: checked.issues } : failure };
  }

  /**
   * Why `record` cannot be approved now, if it cannot. A retry re-delivers something a person approved
   * once; the expiry bounds how long a *pending* approval stays open, so it does not apply to a retry.
   */
  async #notOpen(record: Confirmation, attempt: Attempt): Promise<ConfirmationFailure | undefined> {
    const { mode, now, fail } = attempt;
    if (mode === 'retry') {
      return record.status === 'unknown' || record.status === 'failed'
        ? undefined
        : alreadyDecided(fail, record);
    }
    if (record.status === 'expired') return fail('EXPIRED', {}, record);
    if (record.status !== 'pending') return alreadyDecided(fail, record);
    if (Date.parse(record.expiresAt) <= now) return this.#expireOne(record, now, fail);
    return undefined;
  }

  /**
   * The payload to deliver, if the digest recomputed from the record's tool and payload is the
   * stored one and the one the person was shown: an edited row — payload or tool — is caught even
   * without `digest`. Delivered is a fresh copy (in its own key order) of exactly what was digested,
   * so a `deliver` that changes its argument cannot change the record.
   */
  #verifiedPayload(
    record: Confirmation,
    shown: string | undefined,
    fail: Fail,
  ): { ok: true; value: unknown } | { ok: false; failure: ConfirmationFailure } {
    const snapshot = snapshotJson(record.payload);
    const digest =
      snapshot.ok && typeof record.tool === 'string' ? confirmationDigest(record.tool, snapshot.value) : '';
    if (!snapshot.ok || digest !== record.digest)
      return { ok: false, failure: fail('PAYLOAD_CHANGED', { detail: 'stored' }, record) };
    if (shown !== undefined && shown !== digest)
      return { ok: false, failure: fail('PAYLOAD_CHANGED', {}, record) };
    return { ok: true, value: JSON.parse(JSON.stringify(snapshot.value)) };
  }

  /** The single atomic step: of any number of concurrent confirms exactly one gets past it. */
  async #claim(
    record: Confirmation,
    attempt: Attempt,
    by: string,
    edit: PayloadEdit | undefined,
  ): Promise<{ ok: true; confirmation: Confirmation } | { ok: false; failure: ConfirmationFailure }> {
    const { mode, now, fail } = attempt;
    let claim: TransitionOutcome;
    try {
      const change = edit === undefined ? { now, by } : { now, by, edit };
      claim = await (mode === 'confirm'
        ? this.#s.store.claim(record.id, change)
        : this.#s.store.reclaim(record.id, change));
    } catch (error) {
      return {
        ok: false,
        failure: fail('STORE_FAILED', { detail: storeFailure(error) }, record),
      };
    }
    if (claim.ok) return claim;
    if (claim.reason === 'not-found') return { ok: false, failure: fail('CONFIRMATION_NOT_FOUND', {}) };
    if (claim.reason === 'expired')
      return { ok: false, failure: await this.#expireOne(claim.confirmation, now, fail) };
    if (claim.confirmation.status === 'expired')
      return { ok: false, failure: fail('EXPIRED', {}, claim.confirmation) };
    // Still pending, yet refused: the stored payload changed between the read and the edit's claim.
    if (claim.confirmation.status === 'pending')
      return { ok: false, failure: fail('PAYLOAD_CHANGED', {}, claim.confirmation) };
    return { ok: false, failure: alreadyDecided(fail, claim.confirmation) };
  }

  /** Runs `deliver` with the tool's timeout, then records how it ended. */
  async #deliver(call: {
    readonly claimed: Confirmation;
    readonly tool: SendToolHandle;
    readonly payload: unknown;
    readonly approving: Approving;
    readonly fail: Fail;
  }): Promise<ConfirmResult> {
    const { claimed, tool, payload, approving } = call;
    const timeoutMs = tool.info.timeoutMs ?? this.#s.defaultTimeoutMs;
    const guard = new GuardedCall(timeoutMs, approving.signal);
    // The signal is made only if `deliver` reads it.
    const approval: Approval = {
      confirmationId: claimed.id,
      approvedBy: approving.approvedBy,
      get signal() {
        return guard.signal;
      },
    };
    const outcome = await guard.run(() => tool.deliver(payload, approval), asIs);
    return this.#record({ ...call, outcome, timeoutMs });
  }

  // ── record ───────────────────────────────────────────────────────────────────────────────────

  /**
   * Records how delivery attempt `claimed.attempt` ended. A throw is the tool saying "not sent":
   * `failed`. A timeout or a cancel only means we stopped waiting — it may still have arrived — so
   * the honest status is `unknown`, for a person to settle.
   */
  async #record(call: {
    readonly claimed: Confirmation;
    readonly outcome: GuardedOutcome<unknown>;
    readonly timeoutMs: number;
    readonly fail: Fail;
  }): Promise<ConfirmResult> {
    const { claimed, outcome, fail } = call;
    const now = this.#s.now();
    const attempt = claimed.attempt;
    if (outcome.kind === 'ok') {
      const data = outcome.value === undefined ? null : outcome.value;
      const result = snapshotJson(data);
      const change: FinishChange = result.ok
        ? { now, attempt, status: 'delivered', resultJson: JSON.stringify(result.value) }
        : { now, attempt, status: 'delivered', note: NOT_JSON };
      let finished: TransitionOutcome;
      try {
        finished = await this.#s.store.finish(claimed.id, change);
      } catch (error) {
        this.#emit('delivered', claimed);
        const detail = `it was delivered, but recording that failed (${storeFailure(error)}); it stays "delivering" until recoverStale marks it unknown`;
        return fail('STORE_FAILED', { detail }, claimed);
      }
      this.#emit('delivered', claimed);
      // Refused only when a newer attempt or a person's decision came first; the delivery still happened.
      return { ok: true, data, confirmation: finished.ok ? finished.confirmation : claimed };
    }
    const error = storableText(
      outcome.kind === 'threw'
        ? this.#describe(outcome.error, claimed.tool)
        : outcome.kind === 'timeout'
          ? `it did not finish within ${call.timeoutMs} ms; it may or may not have been delivered`
          : 'it was cancelled while delivering; it may or may not have been delivered',
    );
    const status = outcome.kind === 'threw' ? 'failed' : 'unknown';
    const finished = await callStore(() => this.#s.store.finish(claimed.id, { now, attempt, status, error }));
    this.#emit(status, claimed);
    const current = finished.ok && finished.value.ok ? finished.value.confirmation : claimed;
    return fail('DELIVERY_FAILED', { tool: claimed.tool, detail: error }, current);
  }

  // ── decide ───────────────────────────────────────────────────────────────────────────────────

  /** A person says no to a pending confirmation (accepted even past `expiresAt`: no is never dangerous). */
  reject(id: string, options: unknown): Promise<ConfirmationResult> {
    return traceConfirmationStep(this.#s.telemetry, 'reject', id, () =>
      this.#decide({ id, options, decision: 'reject', byOption: 'rejectedBy', noteOption: 'reason' }),
    );
  }

  /** A person settles an `unknown` or `failed` confirmation as delivered. */
  markDelivered(id: string, options: unknown): Promise<ConfirmationResult> {
    return traceConfirmationStep(this.#s.telemetry, 'markDelivered', id, () =>
      this.#decide({ id, options, decision: 'markDelivered', byOption: 'by', noteOption: 'note' }),
    );
  }

  /** One conditional write, so a decision cannot overtake a concurrent confirm or retry. */
  async #decide(asked: {
    readonly id: string;
    readonly options: unknown;
    readonly decision: 'reject' | 'markDelivered';
    readonly byOption: string;
    readonly noteOption: string;
  }): Promise<ConfirmationResult> {
    const { id, decision, byOption, noteOption } = asked;
    const read = readOptions(asked.options, [byOption, noteOption, 'locale']);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    try {
      if (read === undefined) return fail('INVALID_OPTION', UNREADABLE);
      const by = read[byOption];
      const note = read[noteOption];
      const problem = nameProblem(by, byOption) ?? noteProblem(note, noteOption);
      if (problem !== undefined) return fail('INVALID_OPTION', { detail: problem });
      if (!isConfirmationIdShape(id)) return fail('CONFIRMATION_NOT_FOUND', {});
      const change = { now: this.#s.now(), by: by as string, note: note as string | undefined };
      const written = await callStore(() =>
        decision === 'reject' ? this.#s.store.reject(id, change) : this.#s.store.markDelivered(id, change),
      );
      if (!written.ok) return fail('STORE_FAILED', { detail: written.detail });
      const outcome = written.value;
      if (outcome.ok) {
        this.#emit(decision === 'reject' ? 'rejected' : 'delivered', outcome.confirmation, change.by);
        return { ok: true, confirmation: outcome.confirmation };
      }
      if (outcome.reason === 'not-found') return fail('CONFIRMATION_NOT_FOUND', {});
      if (outcome.confirmation.status === 'expired') return fail('EXPIRED', {}, outcome.confirmation);
      return alreadyDecided(fail, outcome.confirmation);
    } catch (error) {
      return fail('RUN_FAILED', { detail: describeThrown(error) });
    }
  }

  // ── sweep ────────────────────────────────────────────────────────────────────────────────────

  /** Marks every pending confirmation past its `expiresAt` as `expired`. */
  expireDue(options: unknown): Promise<ConfirmationSweepResult> {
    return this.#sweep(options, false, async () => {
      const changed = await this.#s.store.expire({ now: this.#s.now() });
      for (const confirmation of changed) this.#emit('expired', confirmation);
      return { ok: true, changed };
    });
  }

  /**
   * Marks deliveries started more than `olderThanMs` ago that never recorded an outcome as
   * `unknown`. It never re-delivers: only a person does, with `retry`, after reading the history.
   */
  recoverStale(options: unknown): Promise<ConfirmationSweepResult> {
    return this.#sweep(options, true, async (olderThanMs) => {
      const changed = await this.#s.store.recoverStale({ now: this.#s.now(), olderThanMs });
      for (const confirmation of changed) this.#emit('unknown', confirmation);
      return { ok: true, changed };
    });
  }

  /**
   * Deletes finished confirmations (`delivered`, `rejected`, `expired`) last changed more than
   * `olderThanMs` ago; never an open one or one whose outcome a person must still decide.
   */
  prune(options: unknown): Promise<ConfirmationPruneResult> {
    return this.#sweep(options, true, async (olderThanMs) => {
      const deleted = await this.#s.store.prune({ before: this.#s.now() - olderThanMs });
      if (deleted > 0) this.#watchers.notify({});
      return { ok: true, deleted };
    });
  }

  /**
   * One sweep: its options read once (`locale`, and `olderThanMs` when it takes one), then the store
   * work, whose rejection is `STORE_FAILED`.
   */
  async #sweep<R extends { readonly ok: true }>(
    options: unknown,
    takesLookBack: boolean,
    work: (olderThanMs: number) => Promise<R>,
  ): Promise<R | ConfirmationFailure> {
    const read = readOptions(options, takesLookBack ? ['olderThanMs', 'locale'] : ['locale']);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    if (read === undefined) return fail('INVALID_OPTION', UNREADABLE);
    const olderThanMs = takesLookBack ? read.olderThanMs : 0;
    if (!isLookBack(olderThanMs)) return fail('INVALID_OPTION', { detail: LOOK_BACK });
    try {
      return await work(olderThanMs);
    } catch (error) {
      return fail('STORE_FAILED', { detail: storeFailure(error) });
    }
  }

  /**
   * What an app runs now and then (the console runs it on an interval): expire the overdue, mark
   * stale deliveries `unknown`, and remind approvers of what expires soon — each reminder claimed in
   * the store, so several instances sweeping one store send it once.
   */
  async sweep(options?: unknown): Promise<SweepResult> {
    const read = readOptions(options, ['staleAfterMs', 'locale']);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    if (read === undefined) return fail('INVALID_OPTION', UNREADABLE);
    const staleAfterMs = read.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    if (!isLookBack(staleAfterMs))
      return fail('INVALID_OPTION', {
        detail: '`staleAfterMs` must be a number of milliseconds from 0 to a year',
      });
    try {
      const { store, now, remindBeforeMs } = this.#s;
      const expired = await store.expire({ now: now() });
      for (const confirmation of expired) this.#emit('expired', confirmation);
      const recovered = await store.recoverStale({ now: now(), olderThanMs: staleAfterMs });
      for (const confirmation of recovered) this.#emit('unknown', confirmation);
      const reminded =
        remindBeforeMs > 0 && typeof store.remindDue === 'function'
          ? await store.remindDue({ now: now(), within: remindBeforeMs })
          : [];
      for (const confirmation of reminded) this.#s.notices?.reminder(confirmation);
      return { ok: true, expired, recovered, reminded };
    } catch (error) {
      return fail('STORE_FAILED', { detail: storeFailure(error) });
    }
  }

  /** Marks one pending confirmation past its expiry as `expired`; the answer is `EXPIRED` either way. */
  async #expireOne(record: Confirmation, now: number, fail: Fail): Promise<ConfirmationFailure> {
    const expired = await callStore(() => this.#s.store.expire({ now, id: record.id }));
    const changed = expired.ok ? expired.value[0] : undefined;
    if (changed !== undefined) this.#emit('expired', changed);
    return fail('EXPIRED', {}, changed ?? record);
  }

  // ── read ─────────────────────────────────────────────────────────────────────────────────────

  /** One confirmation by id (`CONFIRMATION_NOT_FOUND` when there is none). */
  async get(id: string, options?: unknown): Promise<ConfirmationResult> {
    const found = await this.#lookup(id, options);
    return found.ok ? { ok: true, confirmation: found.record } : found.failure;
  }

  /**
   * The read both `get` and `checkEdit` start with: `options` read (only `locale`), `id` found in the
   * store; the record and failures worded in that locale, or why not.
   */
  async #lookup(
    id: string,
    options: unknown,
  ): Promise<{ ok: true; record: Confirmation; fail: Fail } | { ok: false; failure: ConfirmationFailure }> {
    const read = readOptions(options, ['locale']);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    const failed = (failure: ConfirmationFailure) => ({ ok: false as const, failure });
    try {
      if (read === undefined) return failed(fail('INVALID_OPTION', UNREADABLE));
      if (!isConfirmationIdShape(id)) return failed(fail('CONFIRMATION_NOT_FOUND', {}));
      const found = await callStore(() => this.#s.store.get(id));
      if (!found.ok) return failed(fail('STORE_FAILED', { detail: found.detail }));
      if (found.value === undefined) return failed(fail('CONFIRMATION_NOT_FOUND', {}));
      return { ok: true, record: found.value, fail };
    } catch (error) {
      return failed(fail('STORE_FAILED', { detail: describeThrown(error) }));
    }
  }

  /** Newest first; with `status: 'pending'`, only those that can still be confirmed. */
  async list(filter?: unknown): Promise<ConfirmationListResult> {
    const read = readOptions(filter, ['status', 'tool', 'limit', 'cursor', 'locale']);
    const fail = failureIn(toLocale(read?.locale, this.#locale));
    try {
      if (read === undefined) return fail('INVALID_OPTION', UNREADABLE);
      const { status, tool, limit, cursor } = read;
      if (status !== undefined && !CONFIRMATION_STATUSES.includes(status as ConfirmationStatus)) {
        const detail = `\`status\` must be one of ${CONFIRMATION_STATUSES.join(', ')}`;
        return fail('INVALID_OPTION', { detail });
      }
      if (tool !== undefined && typeof tool !== 'string')
        return fail('INVALID_OPTION', { detail: '`tool` must be a tool name' });
      if (cursor !== undefined && decodeCursor(cursor) === undefined)
        return fail('INVALID_OPTION', { detail: '`cursor` must be a `nextCursor` this list returned' });
      const query = {
        ...(cursor === undefined ? {} : { cursor: cursor as string }),
        ...(status === undefined ? {} : { status: status as ConfirmationStatus }),
        ...(tool === undefined ? {} : { tool }),
        limit: clampLimit(typeof limit === 'number' ? limit : undefined),
        // What a person can still confirm: a pending one past its expiry is not, even before a sweep marks it.
        ...(status === 'pending' ? { expiresAfter: this.#s.now() } : {}),
      };
      const listed = await callStore(() => this.#s.store.list(query));
      if (!listed.ok) return fail('STORE_FAILED', { detail: listed.detail });
      const { confirmations, nextCursor } = listed.value;
      return nextCursor === undefined ? { ok: true, confirmations } : { ok: true, confirmations, nextCursor };
    } catch (error) {
      return fail('STORE_FAILED', { detail: describeThrown(error) });
    }
  }

  /** A registered send tool as a confirmation screen shows it. */
  tool(name: unknown): ConfirmationToolView | undefined {
    if (typeof name !== 'string') return undefined;
    const tool = this.#s.sendTool(name);
    if (tool === undefined) return undefined;
    const { info, edit, payloadSchema } = tool;
    return Object.freeze({
      name: info.name,
      title: info.title,
      description: info.description,
      editable: edit?.editable ?? [],
      ...(payloadSchema === undefined ? {} : { payloadSchema }),
    });
  }

  /** A person's edit checked as `confirm({ payload })` checks it, claiming nothing. */
  async checkEdit(id: string, proposed: unknown, options?: unknown): Promise<EditCheckResult> {
    const found = await this.#lookup(id, options);
    if (!found.ok) return found.failure;
    const { record, fail } = found;
    try {
      const notOpen = await this.#notOpen(record, { mode: 'confirm', now: this.#s.now(), fail });
      if (notOpen !== undefined) return notOpen;
      const payload = this.#verifiedPayload(record, undefined, fail);
      if (!payload.ok) return payload.failure;
      const tool = this.#s.sendTool(record.tool);
      if (tool === undefined) return fail('UNKNOWN_TOOL', { tool: record.tool }, record);
      const edited = await this.#edit(record, tool, proposed, payload.value, fail);
      if (!edited.ok) return edited.failure;
      const { edit } = edited;
      return edit === undefined
        ? { ok: true, payload: payload.value, digest: record.digest, changed: [] }
        : { ok: true, payload: JSON.parse(edit.payloadJson), digest: edit.digest, changed: edit.fields };
    } catch (error) {
      return fail('RUN_FAILED', { detail: describeThrown(error) });
    }
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────

  #describe(error: unknown, tool: string): string {
    try {
      return String(this.#s.describeError(error, tool)).slice(0, 2_000);
    } catch {
      return describeThrown(error);
    }
  }

  /** Reports a confirmation step to the registry's listener and to watchers, never breaking the call. */
  #emit(action: ConfirmationAction, confirmation: Confirmation, by?: string): void {
    this.#watchers.notify({ id: confirmation.id });
    const notices = this.#s.notices;
    if (notices !== undefined) {
      if (action === 'created') notices.created(confirmation);
      else if (action !== 'confirmed') notices.decided(confirmation, action);
    }
    const { onEvent, now } = this.#s;
    if (onEvent === undefined) return;
    emitSafely(onEvent, {
      type: 'confirmation',
      action,
      confirmationId: confirmation.id,
      tool: confirmation.tool,
      ...(by === undefined ? {} : { by }),
      at: now(),
    });
  }
}

/**
 * The named options, each read exactly once, as own data of a fresh object; `undefined` when reading
 * them threw (a hostile proxy, a throwing getter). Anything that is not an object reads as no options.
 */
function readOptions(
  options: unknown,
  keys: readonly string[],
): Readonly<Record<string, unknown>> | undefined {
  const values: Record<string, unknown> = Object.create(null);
  if ((typeof options !== 'object' && typeof options !== 'function') || options === null) return values;
  try {
    for (const key of keys) values[key] = (options as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
  return values;
}

function failureIn(locale: Locale): Fail {
  return (code, params, confirmation) => {
    const base = failure(code, formatMessage(code, params, locale));
    return confirmation === undefined ? base : { ...base, confirmation };
  };
}

function alreadyDecided(fail: Fail, record: Confirmation): ConfirmationFailure {
  return fail('ALREADY_DECIDED', { status: record.status }, record);
}

/** The granted flags, copied once by the gates' rule, or why they cannot be read. */
function grantedFlags(flags: unknown): Readonly<Record<string, true>> | undefined | string {
  if (flags === undefined) return undefined;
  if (typeof flags !== 'object' || flags === null) return '`flags` must be an object of feature flags';
  try {
    return readFlags(flags).flags;
  } catch {
    return '`flags` could not be read';
  }
}

const LOOK_BACK = '`olderThanMs` must be a number of milliseconds from 0 to a year';

function isLookBack(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX_OLDER_THAN_MS;
}

/** True for 64 lowercase hex digits: the shape of a digest. */
function isDigestShape(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/** The input as JSON for the audit trail; it is never delivered, so a lossy copy beats refusing. */
function inputForRecord(input: unknown): unknown {
  const snapshot = snapshotJson(input);
  if (snapshot.ok) return snapshot.value;
  try {
    // Not plain JSON data (a Date, nested deeper than a snapshot goes): kept as its JSON text.
    return JSON.stringify(input) ?? null;
  } catch {
    return null;
  }
}

/** A guarded call's outcome as it is (one function for every call, not a closure each). */
const asIs = <T>(outcome: T): T => outcome;

/** The `STORE_FAILED` detail for what a store threw or rejected with. */
function storeFailure(error: unknown): string {
  return describeThrown(error).slice(0, 500);
}

/** A store call's value, or the `STORE_FAILED` detail: a store that throws never reaches the host. */
async function callStore<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; detail: string }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, detail: storeFailure(error) };
  }
}
