import type { ApprovalsSwap, PayloadEdit } from '../../confirm/store.js';
import { approvalsJson } from '../../confirm/transitions.js';
import type { ApprovalRequirement } from '../../rule.js';

/**
 * What a decision may be conditional on besides its status, each written into its statement only when
 * present: the payload shown (an edit), the approvals read (a quorum), a live one-time link.
 */
export interface Guards {
  readonly edit?: PayloadEdit | undefined;
  /** With `edit`: the stricter `requires` for the edited payload. */
  readonly requires?: ApprovalRequirement | undefined;
  readonly quorum?: ApprovalsSwap | undefined;
  readonly link?: { readonly tokenHash: string } | undefined;
}

/** Whether `change` carries any guard (else the plain statements serve it). */
export const isGuarded = (change: Guards): boolean =>
  change.edit !== undefined || change.quorum !== undefined || change.link !== undefined;

/**
 * A move's `UPDATE … RETURNING *` with its guards added to `set` and `where` (which use `$1` for the
 * id and `$2` for the time, the first of `values`): an edit stores the edited payload only over the
 * digest shown (with the stricter `requires` it needs); a quorum stores the next approvals only over
 * the ones read (compared as the text `approvalsJson` writes, absent as `[]`); a link must be this confirmation's, unused and unexpired.
 */
export function guardedUpdate(
  statement: {
    readonly table: string;
    readonly linksTable: string;
    readonly set: string;
    readonly where: string;
    readonly values: readonly unknown[];
  },
  { edit, requires, quorum, link }: Guards,
): { sql: string; values: unknown[] } {
  const values = [...statement.values];
  const param = (value: unknown) => `$${values.push(value)}`;
  const sets = [statement.set];
  const wheres = [statement.where];
  if (edit !== undefined) {
    sets.push(`payload = ${param(edit.payloadJson)}`, `digest = ${param(edit.digest)}`);
    wheres.push(`digest = ${param(edit.fromDigest)}`);
    if (requires !== undefined) {
      // `about` is the JSON object text `aboutText` wrote; a later `requires` key wins when read back.
      const added = param(`"requires":${JSON.stringify(requires)}}`);
      sets.push(
        `about = CASE WHEN about IS NULL OR about = '{}' THEN '{' || ${added} ELSE substr(about, 1, length(about) - 1) || ',' || ${added} END`,
      );
    }
  }
  if (quorum !== undefined) {
    sets.push(`approvals = ${param(approvalsJson(quorum.next))}`);
    wheres.push(`COALESCE(approvals, '[]') = ${param(approvalsJson(quorum.expected))}`);
  }
  if (link !== undefined) {
    wheres.push(
      `EXISTS (SELECT 1 FROM ${statement.linksTable} WHERE token_hash = ${param(link.tokenHash)}` +
        ' AND confirmation_id = $1 AND used_at IS NULL AND expires_at > $2)',
    );
  }
  const sql = `UPDATE ${statement.table} SET ${sets.join(', ')} WHERE ${wheres.join(' AND ')} RETURNING *`;
  return { sql, values };
}
