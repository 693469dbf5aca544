import { confirmationDraft, type LoggedAction } from '../../audit/audit-drafts.js';
import type { AuditDraft } from '../../audit/audit-entry.js';
import type { Confirmation, ConfirmationStatus, CountedLimit } from '../../confirmation.js';
import type { PasskeyProof } from '../../passkeys/passkey-types.js';
import type { TransitionOutcome } from '../store.js';
import { countMove } from '../transitions.js';
import { type BoundSql, CHANGED, type SqlDialect } from './dialect.js';
import { type ConfirmationRow, countedOfRow } from './sql-row.js';
import { linksTableOf } from './table-name.js';

/** What a step makes of a row as read: the row after it, or why it does not apply. */
export type RowPlan = (
  row: ConfirmationRow,
) =>
  | { readonly ok: true; readonly after: ConfirmationRow }
  | { readonly ok: false; readonly reason: 'wrong-status' | 'expired' };

/** One change of one row: what it does, how the log names it, who made it and when. */
export interface RowStep {
  readonly plan: RowPlan;
  readonly action: LoggedAction;
  readonly now: number;
  readonly by: string | undefined;
  /** A one-time link the change spends: it must be live when the change is written, and is spent with it. */
  readonly link?: { readonly tokenHash: string } | undefined;
  /** The passkey assertion that proved the decision, kept in its audit entry. */
  readonly passkey?: PasskeyProof | undefined;
  /** Its commit must reach the disk before it resolves (`DECISIONS`). */
  readonly decision: boolean;
}

/** How often a change whose row moved under it is planned again from a fresh read before giving up. */
const MAX_ROUNDS = 5;

const revisionOf = (row: ConfirmationRow): number => Number(row.revision ?? 0);

/**
 * The one way the SQL engine changes a confirmation row: plan the row after the step from the row as
 * read, then write it — conditional on the row's `revision` being the one read, so the row written is
 * exactly the one planned — together with the step's audit entry and any link it spends, in one
 * transaction (`SqlDialect.together`). A row that moved in between is read again and planned again.
 */
export function rowChanges(
  dialect: SqlDialect,
  settings: {
    readonly recordOf: (draft: AuditDraft) => BoundSql;
    readonly read: (id: string) => Promise<ConfirmationRow | undefined>;
    /** The row as this store last saw it, if it remembers one (a write then needs no read first). */
    readonly known: (id: string) => ConfirmationRow | undefined;
    readonly remember: (row: ConfirmationRow) => void;
    readonly fromRow: (row: ConfirmationRow) => Confirmation;
    /** The statements that give back or count again what a confirmation counted on delivery. */
    readonly countStatements: (
      move: 'give-back' | 'count-again',
      counted: readonly CountedLimit[],
    ) => BoundSql[];
  },
): {
  change(id: string, step: RowStep): Promise<TransitionOutcome>;
  /** The insert of a new row, with its `created` entry, in one transaction. */
  insert(insert: BoundSql, row: ConfirmationRow, by: string | undefined, decision: boolean): Promise<void>;
  /**
   * The insert of several new rows (one statement), with each one's `created` entry and `also` (a
   * bundle's limit spends), in one transaction.
   */
  insertMany(
    insert: BoundSql,
    rows: readonly ConfirmationRow[],
    decision: boolean,
    also?: readonly BoundSql[],
  ): Promise<void>;
} {
  const { table } = dialect;
  const links = linksTableOf(table);
  const { recordOf, read, known, remember, fromRow, countStatements } = settings;
  /** A change's records for the counts it moves (`countMove`): committed with it, so given back once. */
  const countRecords = (before: ConfirmationRow, after: ConfirmationRow): BoundSql[] => {
    const move = countMove(before.status as ConfirmationStatus, after.status as ConfirmationStatus);
    if (move === undefined) return [];
    const counted = countedOfRow(after.about);
    return counted.length === 0 ? [] : countStatements(move, counted);
  };
  const spendLink: (tokenHash: string, now: unknown) => BoundSql = (tokenHash, now) => ({
    sql: `UPDATE ${links} SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND ${CHANGED}`,
    values: [tokenHash, now],
  });
  const updates = new Map<string, string>();
  const updateSql = (edited: boolean, linked: boolean, decision: boolean): string => {
    const key = `${edited}${linked}${decision}`;
    let sql = updates.get(key);
    if (sql === undefined) {
      // Bookkeeping (not a decision) may commit without waiting for the disk: the dialect says how.
      const history = decision ? '$6' : dialect.relaxed('$6');
      sql =
        `UPDATE ${table} SET status = $3, updated_at = $4, attempt = $5, history = ${history}, approvals = $7,` +
        ' deliver_at = $8, result = $9, error = $10, escalated = $11, revision = $12' +
        (edited ? ', payload = $13, digest = $14, about = $15' : '') +
        ' WHERE id = $1 AND revision = $2' +
        (linked
          ? ` AND EXISTS (SELECT 1 FROM ${links} WHERE token_hash = $${edited ? 16 : 13}` +
            ' AND confirmation_id = $1 AND used_at IS NULL AND expires_at > $4)'
          : '');
      updates.set(key, sql);
    }
    return sql;
  };
  const update = (before: ConfirmationRow, after: ConfirmationRow, step: RowStep): BoundSql => {
    // A person's edit: the payload, its digest and (stricter rules for it) what the approvers must be.
    const edited =
      after.payload !== before.payload || after.digest !== before.digest || after.about !== before.about;
    const values: unknown[] = [
      after.id,
      revisionOf(before),
      after.status,
      after.updated_at,
      Number(after.attempt),
      after.history,
      after.approvals ?? null,
      after.deliver_at ?? null,
      after.result ?? null,
      after.error ?? null,
      after.escalated ?? null,
      revisionOf(after),
    ];
    if (edited) values.push(after.payload, after.digest, after.about ?? null);
    if (step.link !== undefined) values.push(step.link.tokenHash);
    return { sql: updateSql(edited, step.link !== undefined, step.decision), values };
  };

  return {
    async change(id, step) {
      let row = known(id);
      let fresh = row === undefined;
      if (row === undefined) row = await read(id);
      for (let round = 1; ; round++) {
        if (row === undefined) return { ok: false, reason: 'not-found' };
        const planned = step.plan(row);
        if (!planned.ok) {
          // A remembered row may be stale: only a fresh one refuses.
          if (!fresh) {
            row = await read(id);
            fresh = true;
            continue;
          }
          return { ok: false, reason: planned.reason, confirmation: fromRow(row) };
        }
        const after: ConfirmationRow = { ...planned.after, revision: revisionOf(row) + 1 };
        const confirmation = fromRow(after);
        const draft = confirmationDraft({
          action: step.action,
          confirmation,
          by: step.by,
          at: step.now,
          viaLink: step.link !== undefined,
          passkey: step.passkey,
        });
        const records = [recordOf(draft)];
        if (step.link !== undefined) records.push(spendLink(step.link.tokenHash, after.updated_at));
        records.push(...countRecords(row, after));
        if ((await dialect.together(update(row, after, step), records, step.decision)) === 1) {
          remember(after);
          return { ok: true, confirmation };
        }
        const again = await read(id);
        // Unchanged, yet not written: the only other condition is the link.
        if (again !== undefined && revisionOf(again) === revisionOf(row) && step.link !== undefined)
          return { ok: false, reason: 'link-refused', confirmation: fromRow(again) };
        if (round >= MAX_ROUNDS)
          return again === undefined
            ? { ok: false, reason: 'not-found' }
            : { ok: false, reason: 'wrong-status', confirmation: fromRow(again) };
        row = again;
        fresh = true;
      }
    },

    async insert(insert, row, by, decision) {
      const confirmation = fromRow(row);
      const draft = confirmationDraft({
        action: 'created',
        confirmation,
        by,
        at: Date.parse(confirmation.createdAt),
        viaLink: false,
      });
      await dialect.together(insert, [recordOf(draft)], decision);
      remember({ ...row, revision: 0 });
    },

    async insertMany(insert, rows, decision, also = []) {
      const records = rows.map((row) => {
        const confirmation = fromRow(row);
        return recordOf(
          confirmationDraft({
            action: 'created',
            confirmation,
            by: confirmation.actor,
            at: Date.parse(confirmation.createdAt),
            viaLink: false,
          }),
        );
      });
      await dialect.together(insert, [...also, ...records], decision);
      for (const row of rows) remember({ ...row, revision: 0 });
    },
  };
}
