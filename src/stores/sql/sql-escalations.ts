import { type EscalationClaim, escalationEntry } from '../../confirm/escalation.js';
import type { ConfirmationStore } from '../../confirm/store.js';
import type { Confirmation } from '../../confirm/types.js';
import type { SqlDialect } from './dialect.js';
import type { ConfirmationRow } from './sql-row.js';

/** Escalations one `escalateDue` marks at most; the next sweep takes the rest. */
const ESCALATE_BATCH = 500;

/**
 * The SQL stores' `escalateDue`: the due rows, then one conditional `UPDATE` each that raises the
 * `escalated` column (the highest announced step) only while it is still below the step — so of any
 * number of instances sweeping at once, exactly one marks each row for each step — and appends the
 * history entry in the same write. Not a decision: a claim lost to a power cut is announced again.
 */
export function sqlEscalations(
  dialect: SqlDialect,
  fromRow: (row: ConfirmationRow) => Confirmation,
): Required<Pick<ConfirmationStore, 'escalateDue'>> {
  const { table } = dialect;
  const due = dialect.prepare(
    `SELECT id FROM ${table} WHERE status = 'pending' AND tool = $1 AND created_at <= $2 AND expires_at > $3` +
      ` AND COALESCE(escalated, 0) < $4 ORDER BY created_at LIMIT ${ESCALATE_BATCH}`,
    false,
  );
  const mark = dialect.prepare(
    `UPDATE ${table} SET escalated = $2, updated_at = $3, history = ${dialect.relaxed(dialect.appendHistory('$4'))}` +
      ` WHERE id = $1 AND status = 'pending' AND expires_at > $3 AND COALESCE(escalated, 0) < $2 RETURNING *`,
    false,
  );
  return {
    async escalateDue({ now, step, olderThan, tool }: EscalationClaim) {
      const time = dialect.time(now);
      const { rows } = await due([tool, dialect.time(olderThan), time, step]);
      const entry = JSON.stringify(escalationEntry(now, step));
      const marked: Confirmation[] = [];
      for (const { id } of rows) {
        const [row] = (await mark([id, step, time, entry])).rows;
        if (row !== undefined) marked.push(fromRow(row));
      }
      return marked;
    },
  };
}
