import { type EventListener, emitSafely } from '../events.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { AuditChain } from './audit-chain.js';
import type { AuditDraft } from './audit-entry.js';

/** Where the registry's decisions append their audit entries. */
export interface AuditSink {
  /**
   * Appends one entry — one statement in a SQL store — and resolves when it is written. Never rejects:
   * a failed append is reported as an `audit` event (or a console warning without a listener), and the
   * decision it records stays made.
   */
  record(draft: AuditDraft): Promise<void>;
}

/** The sink over a store's chain, or none when the store keeps no audit log. */
export function auditSink(
  chain: AuditChain | undefined,
  onEvent: EventListener | undefined,
  now: () => number,
): AuditSink | undefined {
  if (chain === undefined) return undefined;
  return {
    async record(draft) {
      try {
        await chain.append(draft);
      } catch (error) {
        const detail = describeThrown(error).slice(0, 500);
        const event = {
          type: 'audit',
          action: 'append-failed',
          kind: draft.kind,
          ...(draft.confirmationId === undefined ? {} : { confirmationId: draft.confirmationId }),
          tool: draft.tool,
          entry: draft.action,
          error: detail,
          at: now(),
        } as const;
        if (onEvent === undefined) console.warn(`[graded-tools] audit entry not written: ${detail}`);
        else emitSafely(onEvent, event);
      }
    },
  };
}
