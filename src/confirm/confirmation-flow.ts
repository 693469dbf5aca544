import type { Confirmation, ConfirmationIdempotency } from '../confirmation.js';
import type { AskConfirmation } from '../invoke/ask-confirmation.js';
import { type Locale, toLocale } from '../messages/index.js';
import type { InvokeResult } from '../result.js';
import type { LinkApprover } from '../stores/store.js';
import { type BundleView, bundleView, readBundle } from './bundles/bundle-view.js';
import { afterBundleStep } from './bundles/carry-bundle.js';
import { type BundleDecisionResult, confirmBundle, rejectBundle } from './bundles/decide-bundle.js';
import { type ProposeBundleResult, type ProposeStep, proposeBundle } from './bundles/propose-bundle.js';
import {
  type BundleCarrier,
  type ConfirmationFlowSettings,
  type Fail,
  type FlowContext,
  failureIn,
  flowContext,
  storeFailed,
  storeFailure,
} from './flow-context.js';
import { proposeBundleOnce } from './intents/propose-bundle-once.js';
import { proposeOnce } from './intents/propose-once.js';
import { ChangeWatchers } from './notices/change-watchers.js';
import {
  type Read,
  readApproving,
  readDeciding,
  readDecisionAsked,
  readListFilter,
  readLocaleOnly,
  readLookBack,
  readSweep,
  readWaiting,
} from './read-options.js';
import { getOne, listPage, previewEdit, toolView } from './reading/read-view.js';
import { waitForDecision } from './reading/wait-for.js';
import { approve } from './steps/approve.js';
import { askConfirmation, type Created, type NewConfirmation } from './steps/ask.js';
import { cancelHeld } from './steps/cancel.js';
import { checkDecision, type LinkToCheck } from './steps/check-list.js';
import { decide } from './steps/decide.js';
import * as sweeps from './sweeps/sweeps.js';
import { traceConfirmationStep } from './trace-confirmation.js';
import type {
  ConfirmationFailure,
  ConfirmationListResult,
  ConfirmationNotice,
  ConfirmationPruneResult,
  ConfirmationResult,
  ConfirmationSweepResult,
  ConfirmationsView,
  ConfirmationToolView,
  ConfirmResult,
  EditCheckResult,
  SweepResult,
} from './types.js';

export type { ConfirmationFlowSettings, SendToolHandle } from './flow-context.js';
export type { Created, CreateRefusal, NewConfirmation } from './steps/ask.js';

/**
 * The confirmation path, composed of the files named for its lifecycle: **ask** (store what `prepare`
 * built as `pending`), **approve** (confirm and retry: the check list, one claim, one delivery,
 * recorded), **decide** (reject, markDelivered), **sweeps** (expire, recover, remind, prune) and the
 * **read view** (get, list). The check list (`check-list.ts`) is the one place a decision is checked.
 *
 * Every public method resolves to a result and never rejects; each reads its options once, at this
 * edge (`read-options.ts`), into typed values.
 */
export class ConfirmationFlow {
  readonly #ctx: FlowContext;
  readonly #locale: Locale;
  /** `registry.confirmations`: reads only, so it can be handed to a console without handing out a decision. */
  readonly view: ConfirmationsView;

  constructor(settings: ConfirmationFlowSettings) {
    this.#locale = toLocale(settings.locale, 'en');
    const watchers = new ChangeWatchers(settings.store);
    const carrier: { current: BundleCarrier | undefined } = { current: undefined };
    this.#ctx = flowContext(settings, watchers, carrier);
    const ctx = this.#ctx;
    carrier.current = (action, step) => afterBundleStep(ctx, action, step, failureIn(this.#locale));
    this.view = Object.freeze({
      bundle: (id: string, options?: unknown) => this.bundle(id, options),
      get: (id: string, options?: unknown) => this.get(id, options),
      list: (filter?: unknown) => this.list(filter),
      watch: (listener: (notice: ConfirmationNotice) => void) => watchers.add(listener),
      tool: (name: string) => this.tool(name),
      checkEdit: (id: string, payload: unknown, options?: unknown) => this.checkEdit(id, payload, options),
      waitFor: (id: string, options?: unknown) => this.waitFor(id, options),
      canDecide: (confirmation: Confirmation, options: unknown) => this.canDecide(confirmation, options),
    }) as ConfirmationsView;
  }

  ask(asked: NewConfirmation): Promise<Created> {
    return askConfirmation(this.#ctx, asked);
  }

  /** Stores a bundle's steps, each proposed through `propose`, together, or none of them. */
  proposeBundle(
    steps: unknown,
    propose: ProposeStep,
    locale: Locale,
    idempotency?: ConfirmationIdempotency,
  ): Promise<ProposeBundleResult> {
    const fail = failureIn(locale);
    const ctx = this.#ctx;
    if (idempotency === undefined) return proposeBundle(ctx, { steps, propose, fail });
    return proposeBundleOnce(ctx, {
      idempotency,
      fail,
      propose: () => proposeBundle(ctx, { steps, propose, fail, idempotency }),
    });
  }

  /** `propose` with an `idempotencyKey`: the confirmation the key holds answers, or a new one holds it. */
  proposeOnce(
    idempotency: ConfirmationIdempotency,
    propose: (ask: AskConfirmation) => Promise<InvokeResult>,
    locale: Locale,
  ): Promise<InvokeResult> {
    return proposeOnce(this.#ctx, {
      idempotency,
      propose,
      ask: (asked) => this.ask(asked),
      fail: failureIn(locale),
    });
  }

  /** A person approves a bundle whole (every step they may approve), then it is carried on in order. */
  async confirmBundle(bundleId: string, options: unknown): Promise<BundleDecisionResult> {
    const read = readApproving(options, 'confirm', { ...this.#ctx, requireDigest: true });
    if (!read.ok) return read.failure;
    const { link, editing } = read.value;
    if (link !== undefined || editing)
      return read.fail('INVALID_OPTION', {
        detail: 'a bundle is approved by a person as shown: no link, no edited payload',
      });
    return confirmBundle(this.#ctx, bundleId, { approving: read.value, fail: read.fail });
  }

  /** A person says no to a bundle: its first pending step is rejected, and every step after it stops. */
  async rejectBundle(bundleId: string, options: unknown): Promise<BundleDecisionResult> {
    const read = readDeciding(options, 'reject', this.#locale);
    if (!read.ok) return read.failure;
    if (read.value.link !== undefined)
      return read.fail('INVALID_OPTION', { detail: 'a bundle is rejected by a person, not through a link' });
    return rejectBundle(this.#ctx, bundleId, { deciding: read.value, fail: read.fail });
  }

  /** A bundle's steps, in order, and where it stands. */
  async bundle(
    id: string,
    options?: unknown,
  ): Promise<{ readonly ok: true; readonly bundle: BundleView } | ConfirmationFailure> {
    const read = readLocaleOnly(options, this.#locale);
    if (!read.ok) return read.failure;
    try {
      const steps = await readBundle(this.#ctx, id);
      if (steps === undefined || steps.length === 0) return read.fail('CONFIRMATION_NOT_FOUND', {});
      return { ok: true, bundle: bundleView(steps) };
    } catch (error) {
      return storeFailed(read.fail, error);
    }
  }

  /** A person approves a pending confirmation: checked, claimed once, delivered once. */
  confirm(id: string, options: unknown): Promise<ConfirmResult> {
    return traceConfirmationStep(this.#ctx.telemetry, 'confirm', id, () =>
      this.#approve(id, options, 'confirm'),
    );
  }

  /** A person re-delivers an `unknown` or `failed` one: the same checks and claim, no expiry. */
  retry(id: string, options: unknown): Promise<ConfirmResult> {
    return traceConfirmationStep(this.#ctx.telemetry, 'retry', id, () => this.#approve(id, options, 'retry'));
  }

  /** A person says no to a pending confirmation (accepted even past `expiresAt`: no is never dangerous). */
  reject(id: string, options: unknown): Promise<ConfirmationResult> {
    return traceConfirmationStep(this.#ctx.telemetry, 'reject', id, () =>
      this.#decide(id, options, 'reject'),
    );
  }

  /** A person settles an `unknown` or `failed` confirmation as delivered. */
  markDelivered(id: string, options: unknown): Promise<ConfirmationResult> {
    return traceConfirmationStep(this.#ctx.telemetry, 'markDelivered', id, () =>
      this.#decide(id, options, 'markDelivered'),
    );
  }

  /** A person takes a held send back in its undo window: `scheduled` → `cancelled`, nothing sent. */
  cancel(id: string, options: unknown): Promise<ConfirmationResult> {
    return traceConfirmationStep(this.#ctx.telemetry, 'cancel', id, async () => {
      const read = readDeciding(options, 'cancel', this.#locale);
      return read.ok ? cancelHeld(this.#ctx, id, { deciding: read.value, fail: read.fail }) : read.failure;
    });
  }

  /**
   * The check list asked about a link: may one be made for `approver` (`issue-link`: as their confirm
   * would run now — open, four eyes, the stored payload, the tool and its gates), or does `link` open
   * `record` (`open-link`: the link, open, the stored payload). Decides and writes nothing.
   */
  async checkLink(
    kind: 'issue-link' | 'open-link',
    asked: { record: Confirmation; approver: LinkApprover; link?: LinkToCheck | undefined; fail: Fail },
  ): Promise<ConfirmationFailure | undefined> {
    const { record, approver, link, fail } = asked;
    const cleared = await checkDecision(this.#ctx, {
      kind,
      record,
      person: approver,
      link,
      now: this.#ctx.now(),
      fail,
    });
    return cleared.ok ? undefined : cleared;
  }

  expireDue(options: unknown): Promise<ConfirmationSweepResult> {
    return this.#housekeeping(readLocaleOnly(options, this.#locale), async () => ({
      ok: true,
      changed: await sweeps.expireDue(this.#ctx),
    }));
  }

  /** Marks stale deliveries `unknown`; never re-delivers (a person decides with `retry`). */
  recoverStale(options: unknown): Promise<ConfirmationSweepResult> {
    const read = readLookBack(options, this.#locale);
    return this.#housekeeping(read, async (olderThanMs) => ({
      ok: true,
      changed: await sweeps.recoverStale(this.#ctx, olderThanMs),
    }));
  }

  /** Deletes finished confirmations; never an open one or one whose outcome a person must decide. */
  prune(options: unknown): Promise<ConfirmationPruneResult> {
    const read = readLookBack(options, this.#locale);
    return this.#housekeeping(read, async (olderThanMs) => ({
      ok: true,
      deleted: await sweeps.prune(this.#ctx, olderThanMs),
    }));
  }

  /** Expire, recover, remind: what an app (or the console) runs now and then. */
  async sweep(options?: unknown): Promise<SweepResult> {
    const read = readSweep(options, this.#locale);
    if (!read.ok) return read.failure;
    return sweeps.sweep(this.#ctx, read.value, read.fail);
  }

  async get(id: string, options?: unknown): Promise<ConfirmationResult> {
    const read = readLocaleOnly(options, this.#locale);
    return read.ok ? getOne(this.#ctx, id, read.fail) : read.failure;
  }

  async list(filter?: unknown): Promise<ConfirmationListResult> {
    const read = readListFilter(filter, this.#locale);
    return read.ok ? listPage(this.#ctx, read.value, read.fail) : read.failure;
  }

  /** Resolves once the confirmation is decided (here or in any instance sharing the store). */
  async waitFor(id: string, options?: unknown): Promise<ConfirmationResult> {
    const read = readWaiting(options, this.#locale);
    return read.ok ? waitForDecision(this.#ctx, id, read.value, read.fail) : read.failure;
  }

  /**
   * Would this person's decision pass the check list now? The same list a decision runs, asked dry:
   * nothing is claimed, spent or written, and an overdue one is answered `EXPIRED` without marking it.
   */
  async canDecide(
    confirmation: Confirmation,
    options: unknown,
  ): Promise<{ readonly ok: true } | ConfirmationFailure> {
    const read = readDecisionAsked(options, this.#locale);
    if (!read.ok) return read.failure;
    if (typeof confirmation !== 'object' || confirmation === null)
      return read.fail('INVALID_OPTION', { detail: 'canDecide needs the confirmation as read' });
    const { kind, person, authorize, bundleDigest } = read.value;
    // A bundle's step, asked as its bundle's decision would ask it (which recomputes the digest from
    // every step; asked dry, the stored one stands for it).
    const stored = confirmation.bundle?.digest;
    const bundle =
      bundleDigest === undefined || stored === undefined
        ? undefined
        : { shown: bundleDigest, current: stored };
    try {
      const cleared = await checkDecision(this.#ctx, {
        kind,
        record: confirmation,
        person,
        authorize,
        now: this.#ctx.now(),
        fail: read.fail,
        dry: true,
        bundle,
      });
      return cleared.ok ? { ok: true } : cleared;
    } catch (error) {
      return read.fail('RUN_FAILED', { detail: storeFailure(error) });
    }
  }

  tool(name: unknown): ConfirmationToolView | undefined {
    return toolView(this.#ctx, name);
  }

  async checkEdit(id: string, proposed: unknown, options?: unknown): Promise<EditCheckResult> {
    const read = readLocaleOnly(options, this.#locale);
    return read.ok ? previewEdit(this.#ctx, id, proposed, read.fail) : read.failure;
  }

  async #approve(id: string, options: unknown, mode: 'confirm' | 'retry'): Promise<ConfirmResult> {
    const read = readApproving(options, mode, this.#ctx);
    if (!read.ok) return read.failure;
    return approve(this.#ctx, id, { approving: read.value, mode, fail: read.fail });
  }

  async #decide(
    id: string,
    options: unknown,
    decision: 'reject' | 'markDelivered',
  ): Promise<ConfirmationResult> {
    const read = readDeciding(options, decision, this.#locale);
    if (!read.ok) return read.failure;
    return decide(this.#ctx, id, { decision, deciding: read.value, fail: read.fail });
  }

  /** A housekeeping step with its options read; a store that fails is `STORE_FAILED` (or `AUDIT_FAILED`). */
  async #housekeeping<T, R extends { readonly ok: true }>(
    read: Read<T>,
    work: (value: T) => Promise<R>,
  ): Promise<R | ConfirmationFailure> {
    if (!read.ok) return read.failure;
    try {
      return await work(read.value);
    } catch (error) {
      return storeFailed(read.fail, error);
    }
  }
}
