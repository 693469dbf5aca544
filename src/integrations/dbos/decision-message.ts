import type { ConfirmationStatus } from '../../confirmation.js';
import type { ApprovalNotice } from '../../notice.js';

/**
 * The topic every decision is sent on: a workflow waits with `DBOS.recv(DECISION_TOPIC, …)`, so
 * messages of its own on other topics never mix with them.
 *
 * @example
 * ```ts
 * import { DBOS } from '@dbos-inc/dbos-sdk';
 * import { DECISION_TOPIC, type DecisionMessage } from 'graded-tools/dbos';
 *
 * // Inside a workflow that proposed with `ref: DBOS.workflowID`:
 * const hearDecision = DBOS.registerWorkflow(
 *   async () => {
 *     const decided = await DBOS.recv<DecisionMessage>(DECISION_TOPIC, { timeoutSeconds: 24 * 3600 });
 *     return decided === null ? 'nobody decided within a day' : `${decided.status} by ${decided.by ?? 'the system'}`;
 *   },
 *   { name: 'hearDecision' },
 * );
 * ```
 */
export const DECISION_TOPIC = 'graded-tools.decision';

/** What a waiting workflow receives: the decision on the confirmation it proposed, in plain JSON. */
export interface DecisionMessage {
  readonly confirmationId: string;
  /** `delivered`, `rejected`, `expired`, `failed` or `unknown`. */
  readonly status: ConfirmationStatus;
  /** When it was decided (ISO 8601). */
  readonly at?: string;
  /** Who decided, when a person did. */
  readonly by?: string;
  /** What they said, e.g. a reject reason. */
  readonly note?: string;
}

/** One decision to hand over: to which workflow, what, and under which idempotency key. */
export interface Delivery {
  readonly workflowId: string;
  readonly message: DecisionMessage;
  /** The notice's id, the same on every retry of it. */
  readonly noticeId: string;
}

/**
 * What a notice asks of this channel: for a `decided` notice whose confirmation has a `ref`, the
 * decision for the workflow it names, its fields copied one by one (nothing else of the notice);
 * `undefined` for every other notice.
 */
export function deliveryOf(notice: ApprovalNotice): Delivery | undefined {
  if (notice.kind !== 'decided') return undefined;
  const { id, status, ref } = notice.confirmation;
  if (typeof ref !== 'string' || ref === '') return undefined;
  const { decision } = notice;
  const message: DecisionMessage = {
    confirmationId: id,
    status,
    ...(typeof decision?.at === 'string' ? { at: decision.at } : {}),
    ...(typeof decision?.by === 'string' ? { by: decision.by } : {}),
    ...(typeof decision?.note === 'string' ? { note: decision.note } : {}),
  };
  return { workflowId: ref, message, noticeId: notice.id };
}
