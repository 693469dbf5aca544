import type { Notifier } from '../../notice.js';
import {
  type AttemptOutcome,
  invalidOption,
  retryPolicy,
  sendWithRetries,
} from '../../notify/retry-policy.js';
import { describeThrown } from '../../util/describe-thrown.js';
import { type DbosSender, runtimeSender } from './dbos-sender.js';
import { DECISION_TOPIC, type Delivery, deliveryOf } from './decision-message.js';

/** How the DBOS channel sends. */
export interface DbosNotifierOptions {
  /**
   * Sends the message: a `DBOSClient` (`await DBOSClient.create({ systemDatabaseUrl })`) for an app
   * server that is not the DBOS runtime, or `DBOS` itself. Default: `DBOS.send` of the runtime
   * launched in this process, imported on first use.
   */
  readonly client?: DbosSender;
  /** Retries after the first attempt when the system database fails (default 3). */
  readonly retries?: number;
  /** The first backoff; it doubles each retry, with jitter (default 500 ms). */
  readonly backoffMs?: number;
}

const DEFAULT_POLICY = { retries: 3, backoffMs: 500 };

/**
 * A channel that hands each decision to the DBOS workflow that asked: a `decided` notice whose
 * confirmation has a `ref` (the workflow proposed with `ref: DBOS.workflowID`) becomes
 * `send(ref, message, DECISION_TOPIC, notice.id)`, a {@link DecisionMessage}. DBOS keeps one message
 * per idempotency key and workflow, so a notice sent twice, retried, or sent by two instances arrives
 * once. Other notices, and notices without a `ref`, are taken without sending. A `ref` that names no
 * workflow is refused without retrying; a failing system database is retried.
 *
 * @example
 * ```ts
 * import { DBOSClient } from '@dbos-inc/dbos-sdk';
 * import { ToolRegistry } from 'graded-tools';
 * import { dbosNotifier } from 'graded-tools/dbos';
 * import { createPostgresStore } from 'graded-tools/postgres';
 *
 * // The app server decides; the workflows run in DBOS processes on the same PostgreSQL.
 * const client = await DBOSClient.create({ systemDatabaseUrl: 'postgres://postgres@127.0.0.1:5432/desk_dbos' });
 * const registry = new ToolRegistry({
 *   confirmations: createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:5432/desk' }),
 *   notify: { to: [dbosNotifier({ client })] },
 * });
 * // …register the send tools; registry.confirm / registry.reject now reach the waiting workflow.
 * ```
 */
export function dbosNotifier(options: DbosNotifierOptions = {}): Notifier {
  const client = options.client;
  if (client !== undefined && typeof client?.send !== 'function')
    throw invalidOption('dbosNotifier: `client` must be a DBOSClient or DBOS (with `send`).');
  const policy = retryPolicy('dbosNotifier', options, DEFAULT_POLICY);
  return {
    channel: 'dbos',
    async send(notice, sendOptions) {
      let delivery: Delivery | undefined;
      try {
        delivery = deliveryOf(notice);
      } catch (error) {
        return { ok: false, error: `the notice could not be read: ${describeThrown(error)}` };
      }
      if (delivery === undefined) return { ok: true };
      const to = delivery;
      return sendWithRetries({
        channel: 'dbos',
        noticeId: to.noticeId,
        policy,
        options: sendOptions,
        attempt: () => sendOnce(client, to),
      });
    },
  };
}

async function sendOnce(client: DbosSender | undefined, to: Delivery): Promise<AttemptOutcome> {
  let sender: DbosSender;
  try {
    sender = client ?? (await runtimeSender());
  } catch (error) {
    return { ok: false, error: describeThrown(error), retry: false };
  }
  try {
    await sender.send(to.workflowId, to.message, DECISION_TOPIC, to.noticeId);
    return { ok: true };
  } catch (error) {
    if (isNoSuchWorkflow(error))
      return {
        ok: false,
        error: `no DBOS workflow "${to.workflowId}" (the confirmation's ref)`,
        retry: false,
      };
    return { ok: false, error: describeThrown(error), retry: true };
  }
}

/** DBOS's "sent to non-existent destination workflow" (its error code 16): a retry will not help. */
function isNoSuchWorkflow(error: unknown): boolean {
  try {
    const thrown = error as {
      readonly dbosErrorCode?: unknown;
      readonly constructor?: { readonly name?: unknown };
    };
    return thrown?.dbosErrorCode === 16 || thrown?.constructor?.name === 'DBOSNonExistentWorkflowError';
  } catch {
    return false;
  }
}
