import type { Confirmation } from '../../confirmation.js';
import { type EscalationClaim, escalationEntry } from '../escalation-claim.js';
import type { EscalationStore, TransitionOutcome } from '../store.js';
import type { SqlDialect } from './dialect.js';
import type { RowStep } from './row-change.js';
import { appendedHistory } from './sql-row.js';

/** Escalations one `escalateDue` marks at most; the next sweep takes the rest. */
const ESCALATE_BATCH = 500;

/**
 * The SQL stores' `escalateDue`: the due rows, then one row change each that raises the `escalated`
 * column (the highest announced step) only while it is still below the step — conditional on the row
 * read, so of any number of instances sweeping at once, exactly one marks each row for each step —
 * with its history and audit entries. Not a decision: a claim lost to a power cut is announced again.
 */
export function sqlEscalations(
  dialect: SqlDialect,
  change: (id: string, step: RowStep) => Promise<TransitionOutcome>,
): EscalationStore {
  const { table } = dialect;
  const due = dialect.prepare(
    `SELECT id FROM ${table} WHERE status = 'pending' AND tool = $1 AND created_at <= $2 AND expires_at > $3` +
      ` AND COALESCE(escalated, 0) < $4 ORDER BY created_at LIMIT ${ESCALATE_BATCH}`,
    false,
  );
  const ms = (stored: unknown): number =>
    typeof stored === 'number' ? stored : Date.parse(dialect.isoOf(stored));
  return {
    async escalateDue({ now, step, olderThan, tool }: EscalationClaim) {
      const time = dialect.time(now);
      const { rows } = await due([tool, dialect.time(olderThan), time, step]);
      const entry = JSON.stringify(escalationEntry(now, step));
      const marked: Confirmation[] = [];
      for (const { id } of rows) {
        const outcome = await change(id, {
          action: 'escalated',
          now,
          by: undefined,
          decision: false,
          plan: (row) =>
            row.status === 'pending' &&
            row.tool === tool &&
            ms(row.created_at) <= olderThan &&
            ms(row.expires_at) > now &&
            Number(row.escalated ?? 0) < step
              ? {
                  ok: true,
                  after: {
                    ...row,
                    escalated: step,
                    updated_at: time,
                    history: appendedHistory(row.history, entry),
                  },
                }
              : { ok: false, reason: 'wrong-status' },
        });
        if (outcome.ok) marked.push(outcome.confirmation);
      }
      return marked;
    },
  };
}
