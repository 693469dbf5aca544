import { listStart, pageOf } from '../../confirm/list-page.js';
import type {
  ApproveChange,
  ConfirmationQuery,
  ConfirmationStore,
  DecisionChange,
  FinishChange,
  TransitionOutcome,
} from '../../confirm/store.js';
import { FINISHED_STATUSES } from '../../confirm/store.js';
import {
  approvalsJson,
  clampLimit,
  DECISIONS,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from '../../confirm/transitions.js';
import type { Confirmation, ConfirmationStatus } from '../../confirm/types.js';
import type { SqlDialect, SqlStatement } from './dialect.js';
import { type Guards, guardedUpdate, isGuarded } from './guarded-update.js';
import { pruneInBatches } from './prune-batches.js';
import { sqlEscalations } from './sql-escalations.js';
import { sqlLimits } from './sql-limits.js';
import { sqlLinks } from './sql-links.js';
import {
  appendedHistory,
  COLUMNS,
  type ConfirmationRow,
  confirmationRow,
  rowToConfirmation,
  rowValues,
  statusList,
  statusLiteral,
} from './sql-row.js';
import { linksTableOf, noticesTableOf } from './table-name.js';

/** Reminders one `remindDue` claims at most; the next sweep takes the rest. */
const REMIND_BATCH = 500;
/** How many rows the engine remembers from its own reads and writes (see `known` below). */
const KNOWN_ROWS = 256;

/** Internal switches of the engine; the public stores take none of them. */
export interface SqlStoreOptions {
  /** Remember rows so a write can skip `RETURNING *` (default true; off for the differential test). */
  readonly rememberRows?: boolean;
}

type Write = keyof ConfirmationStore;
type Move = 'claim' | 'reclaim' | 'reject' | 'markDelivered' | 'deliverDue' | 'cancel';

/**
 * The last millisecond of year 9999 (the latest ISO time both databases read) and the largest 64-bit
 * row number: a cursor past them starts from the top.
 */
const MAX_TIME = 253_402_300_799_999;
const MAX_ORDER = 9_223_372_036_854_775_807n;
const orderDigits = (digits: string): string => (BigInt(digits) > MAX_ORDER ? MAX_ORDER.toString() : digits);

/**
 * Every `ConfirmationStore` method, written once over a `SqlDialect`. Each status change is one
 * conditional `UPDATE … WHERE id = $1 AND status IN (…)`, so of any number of concurrent callers, in
 * any number of processes, exactly one changes the row; which commits must reach the disk is
 * `DECISIONS`, told to the dialect with each statement.
 */
export function createSqlStore(dialect: SqlDialect, options: SqlStoreOptions = {}): ConfirmationStore {
  const { table, insertionOrder: order } = dialect;
  const write = (name: Write, sql: string): SqlStatement => dialect.prepare(sql, DECISIONS.has(name));
  const history = (name: Write, entry: string): string =>
    DECISIONS.has(name) ? dialect.appendHistory(entry) : dialect.relaxed(dialect.appendHistory(entry));
  const fromRow = (row: ConfirmationRow): Confirmation => rowToConfirmation(row, dialect.isoOf);

  // The row as this store last read or wrote it. A write whose `WHERE` also pins the remembered
  // `status` and `attempt` (and no approvals or escalation) changes exactly that row or nothing — each
  // status is left for good or re-entered only with a new attempt, and only an approval or an escalation
  // changes a pending row in place, so these name one version — and the row after it is computed here instead of sent back
  // (`RETURNING *`). A miss falls back to the plain statement.
  const known = new Map<string, ConfirmationRow>();
  const remembering = options.rememberRows !== false;
  const remember = (row: ConfirmationRow): void => {
    if (!remembering) return;
    known.delete(row.id);
    known.set(row.id, row);
    if (known.size > KNOWN_ROWS) known.delete(known.keys().next().value as string);
  };
  const knownIn = (id: string, from: readonly ConfirmationStatus[]): ConfirmationRow | undefined => {
    const row = known.get(id);
    return row !== undefined &&
      row.approvals == null &&
      row.escalated == null &&
      from.includes(row.status as ConfirmationStatus)
      ? row
      : undefined;
  };

  const insert = write(
    'create',
    `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((column, i) =>
      column === 'history' && !DECISIONS.has('create') ? dialect.relaxed(`$${i + 1}`) : `$${i + 1}`,
    ).join(', ')})`,
  );
  const selectOne = dialect.prepare(`SELECT * FROM ${table} WHERE id = $1`, false);

  /**
   * Why a conditional update matched nothing: the read-back after a lost claim (for the message). A
   * decision whose payload or approvals changed since they were read is `wrong-status`, whatever the
   * time; one still where it starts from and not expired was refused for its link.
   */
  const refusal = async (
    id: string,
    transition: Transition | undefined,
    now: number,
    guards: Guards = {},
  ): Promise<TransitionOutcome> => {
    const [row] = (await selectOne([id])).rows;
    if (row === undefined) {
      known.delete(id);
      return { ok: false, reason: 'not-found' };
    }
    remember(row);
    const current = fromRow(row);
    const { edit, quorum, link } = guards;
    const unchanged =
      transition?.from.includes(current.status) === true &&
      (edit === undefined || current.digest === edit.fromDigest) &&
      (quorum === undefined || (row.approvals ?? '[]') === approvalsJson(quorum.expected));
    if (!unchanged) return { ok: false, reason: 'wrong-status', confirmation: current };
    if (transition?.refusedWhenExpired === true && Date.parse(current.expiresAt) <= now)
      return { ok: false, reason: 'expired', confirmation: current };
    return { ok: false, reason: link === undefined ? 'wrong-status' : 'link-refused', confirmation: current };
  };

  const linksTable = linksTableOf(table);
  // Bookkeeping, not a decision: `digest = digest` only carries the dialect's "no flush wait".
  const markLinkUsed = write(
    'useLink',
    `UPDATE ${linksTable} SET used_at = $2, digest = ${dialect.relaxed('digest')} WHERE token_hash = $1 AND used_at IS NULL`,
  );
  const moveClauses = (name: Move | 'approve' | 'hold') => {
    const transition: Transition = TRANSITIONS[name];
    // A held claim is written as a claim (a decision), its `deliverAt` bound as $4.
    const set =
      `status = ${statusLiteral(transition.to)}, updated_at = $2, history = ${history(name === 'hold' ? 'claim' : name, '$3')}` +
      (transition.startsAttempt ? ', attempt = attempt + 1' : '') +
      (name === 'hold' ? ', deliver_at = $4' : '');
    const where =
      `id = $1 AND status IN (${statusList(transition.from)})` +
      (transition.refusedWhenExpired ? ' AND expires_at > $2' : '') +
      (name === 'deliverDue' ? ' AND deliver_at <= $2' : '');
    return { transition, set, where };
  };
  const moveStatements = (name: Move) => {
    const { transition, set, where } = moveClauses(name);
    return {
      transition,
      full: write(name, `UPDATE ${table} SET ${set} WHERE ${where} RETURNING *`),
      lean: write(
        name,
        `UPDATE ${table} SET ${set} WHERE ${where} AND status = $4 AND attempt = $5 AND approvals IS NULL AND escalated IS NULL`,
      ),
    };
  };
  const moves = {
    claim: moveStatements('claim'),
    reclaim: moveStatements('reclaim'),
    reject: moveStatements('reject'),
    markDelivered: moveStatements('markDelivered'),
    deliverDue: moveStatements('deliverDue'),
    cancel: moveStatements('cancel'),
  };
  const guardedStatements = new Map<string, SqlStatement>();
  /**
   * A decision with guards (`guardedUpdate`): the write that decides is the one that checks them, and
   * spends a link (marking it used after is bookkeeping: its confirmation has left the state it was
   * made for). Always the full statement (guards are rare); its row is remembered like any other.
   */
  const guardedMove = async (
    name: Move | 'approve' | 'hold',
    id: string,
    change: DecisionChange &
      Guards & { readonly approval?: ApproveChange['approval']; readonly deliverAt?: number | undefined },
  ): Promise<TransitionOutcome> => {
    const { transition, set, where } = moveClauses(name);
    const now = dialect.time(change.now);
    const entry = JSON.stringify(historyEntry(change, transition.to, change.edit, change.approval));
    const held = name === 'hold' ? [dialect.time(change.deliverAt ?? change.now)] : [];
    const { sql, values } = guardedUpdate(
      { table, linksTable, set, where, values: [id, now, entry, ...held] },
      change,
    );
    const statement = guardedStatements.get(sql) ?? write(name === 'hold' ? 'claim' : name, sql);
    guardedStatements.set(sql, statement);
    const [after] = (await statement(values)).rows;
    if (after === undefined) return refusal(id, transition, change.now, change);
    remember(after);
    if (change.link !== undefined) await markLinkUsed([change.link.tokenHash, now]);
    return { ok: true, confirmation: fromRow(after) };
  };
  const move = async (
    name: Move,
    id: string,
    change: DecisionChange & Guards,
  ): Promise<TransitionOutcome> => {
    if (isGuarded(change)) return guardedMove(name, id, change);
    const { transition, full, lean } = moves[name];
    const entry = JSON.stringify(historyEntry(change, transition.to));
    const now = dialect.time(change.now);
    const before = knownIn(id, transition.from);
    if (before !== undefined) {
      const attempt = Number(before.attempt);
      if ((await lean([id, now, entry, before.status, attempt])).changed === 1) {
        const after: ConfirmationRow = {
          ...before,
          status: transition.to,
          updated_at: now,
          attempt: transition.startsAttempt ? attempt + 1 : attempt,
          history: appendedHistory(before.history, entry),
        };
        remember(after);
        return { ok: true, confirmation: fromRow(after) };
      }
    }
    const [after] = (await full([id, now, entry])).rows;
    if (after === undefined) return refusal(id, transition, change.now);
    remember(after);
    return { ok: true, confirmation: fromRow(after) };
  };

  const finishStatements = (status: FinishChange['status']) => {
    const set = `status = ${statusLiteral(status)}, updated_at = $2, result = $4, error = $5, history = ${history('finish', '$6')}`;
    const where = `id = $1 AND attempt = $3 AND status IN (${statusList(finishFrom(status))})`;
    return {
      full: write('finish', `UPDATE ${table} SET ${set} WHERE ${where} RETURNING *`),
      lean: write('finish', `UPDATE ${table} SET ${set} WHERE ${where} AND status = $7`),
    };
  };
  const finishes = {
    delivered: finishStatements('delivered'),
    failed: finishStatements('failed'),
    unknown: finishStatements('unknown'),
  };

  const expireSql = `UPDATE ${table} SET status = 'expired', updated_at = $1, history = ${history('expire', '$2')} WHERE status = 'pending' AND expires_at <= $1`;
  const expireAll = write('expire', `${expireSql} RETURNING *`);
  const expireOne = write('expire', `${expireSql} AND id = $3 RETURNING *`);
  const recover = write(
    'recoverStale',
    `UPDATE ${table} SET status = 'unknown', updated_at = $1, error = $3, history = ${history('recoverStale', '$4')}` +
      ` WHERE status = 'delivering' AND updated_at < $2 AND id NOT IN (${dialect.jsonTextElements('$5')}) RETURNING *`,
  );
  // One status at a time, so each batch is one range of the (status, updated_at) index.
  const pruneBatches = FINISHED_STATUSES.map((status) =>
    write(
      'prune',
      `DELETE FROM ${table} WHERE id IN (SELECT ${DECISIONS.has('prune') ? 'id' : dialect.relaxed('id')} FROM ${table}` +
        ` WHERE status = ${statusLiteral(status)} AND updated_at < $1 LIMIT $2)`,
    ),
  );
  const dueHeld = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'scheduled' AND deliver_at <= $1 ORDER BY deliver_at LIMIT $2`,
    false,
  );
  const lists = new Map<string, SqlStatement>();
  // Reminders: the due ones not claimed yet, then one claim each — the primary key lets one instance in.
  const notices = noticesTableOf(table);
  const dueForReminder = dialect.prepare(
    `SELECT * FROM ${table} WHERE status = 'pending' AND expires_at > $1 AND expires_at <= $2` +
      ` AND NOT EXISTS (SELECT 1 FROM ${notices} WHERE confirmation_id = ${table}.id AND kind = 'reminder')` +
      ` ORDER BY expires_at LIMIT ${REMIND_BATCH}`,
    false,
  );
  const claimReminder = write(
    'remindDue',
    `INSERT INTO ${notices} (confirmation_id, kind, claimed_at) VALUES ($1, ${dialect.relaxed("'reminder'")}, $2) ON CONFLICT DO NOTHING`,
  );
  // Claims of reminders older than a prune's cutoff, in batches like the prune; never one for a
  // confirmation still pending (that would let its reminder go out again).
  const forgetNotices = write(
    'prune',
    `DELETE FROM ${notices} WHERE (confirmation_id, kind) IN (SELECT confirmation_id, kind FROM ${notices}` +
      ` WHERE claimed_at < $1 AND NOT EXISTS (SELECT 1 FROM ${table} WHERE ${table}.id = ${notices}.confirmation_id` +
      ` AND ${table}.status = 'pending') LIMIT $2)`,
  );

  const { pruneLinks, ...links } = sqlLinks(dialect);
  const { pruneLimits, ...limits } = sqlLimits(dialect);

  return {
    ...links,
    ...limits,
    ...sqlEscalations(dialect, fromRow),

    async create(confirmation) {
      const row = confirmationRow(confirmation, dialect.time);
      await insert(rowValues(row));
      remember(row);
    },

    async get(id) {
      const [row] = (await selectOne([id])).rows;
      if (row === undefined) return undefined;
      remember(row);
      return fromRow(row);
    },

    async list(query: ConfirmationQuery = {}) {
      const limit = clampLimit(query.limit);
      const start = listStart(query);
      const where: string[] = [];
      const values: unknown[] = [];
      // The filtered columns lead the ORDER BY, in the indexes' column order, so only the index that
      // starts with them gives the order (see `SqlDialect.pinned`).
      const pinned: string[] = [];
      const pin = (column: 'status' | 'tool', value: string) => {
        values.push(value);
        where.push(dialect.pinned(column, `$${values.length}`));
        pinned.push(`${column} DESC, `);
      };
      if (query.status !== undefined) pin('status', query.status);
      if (query.tool !== undefined) pin('tool', query.tool);
      if (query.expiresAfter !== undefined) {
        values.push(dialect.time(query.expiresAfter));
        where.push(`expires_at > $${values.length}`);
      }
      if (start !== undefined) {
        // Keyset: a row value comparison, one range of the same index the first page reads.
        values.push(
          dialect.time(Math.min(start.createdAt, MAX_TIME)),
          dialect.order(orderDigits(start.order)),
        );
        where.push(`(created_at, ${order}) < ($${values.length - 1}, $${values.length})`);
      }
      values.push(limit + 1);
      const key = where.join(' AND ');
      let statement = lists.get(key);
      if (statement === undefined) {
        statement = dialect.prepare(
          `SELECT *, CAST(${order} AS TEXT) AS list_order FROM ${table}${key === '' ? '' : ` WHERE ${key}`}` +
            ` ORDER BY ${pinned.join('')}created_at DESC, ${order} DESC LIMIT $${values.length}`,
          false,
        );
        lists.set(key, statement);
      }
      const { rows } = await statement(values);
      return pageOf(rows, limit, fromRow, (row) => ({
        createdAt: Date.parse(dialect.isoOf(row.created_at)),
        order: String(row.list_order),
      }));
    },

    // A held send (`deliverAt`) takes the guarded path's one statement: only a tool with `holdMs` pays.
    claim: (id, change) =>
      change.deliverAt === undefined ? move('claim', id, change) : guardedMove('hold', id, change),
    deliverDue: (id, change) => move('deliverDue', id, change),
    cancel: (id, change) => move('cancel', id, change),
    async dueScheduled({ now, limit }) {
      const { rows } = await dueHeld([dialect.time(now), limit]);
      return rows.map(fromRow);
    },
    approve: (id, change) => guardedMove('approve', id, change),
    reclaim: (id, change) => move('reclaim', id, change),
    reject: (id, change) => move('reject', id, change),
    markDelivered: (id, change) => move('markDelivered', id, change),

    async finish(id, change) {
      const from = finishFrom(change.status);
      const { full, lean } = finishes[change.status];
      const entry = JSON.stringify(
        historyEntry({ now: change.now, by: change.by, note: change.note ?? change.error }, change.status),
      );
      const now = dialect.time(change.now);
      const result = change.resultJson ?? null;
      const error = change.error ?? null;
      const values = [id, now, change.attempt, result, error, entry];
      const before = knownIn(id, from);
      if (before !== undefined && Number(before.attempt) === change.attempt) {
        if ((await lean([...values, before.status])).changed === 1) {
          const after: ConfirmationRow = {
            ...before,
            status: change.status,
            updated_at: now,
            result,
            error,
            history: appendedHistory(before.history, entry),
          };
          remember(after);
          return { ok: true, confirmation: fromRow(after) };
        }
      }
      const [after] = (await full(values)).rows;
      if (after === undefined) return refusal(id, undefined, change.now);
      remember(after);
      return { ok: true, confirmation: fromRow(after) };
    },

    async expire({ now, id }) {
      const entry = JSON.stringify(historyEntry({ now }, 'expired'));
      const time = dialect.time(now);
      const { rows } = id === undefined ? await expireAll([time, entry]) : await expireOne([time, entry, id]);
      return rows.map(fromRow);
    },

    async recoverStale({ now, olderThanMs, running = [] }) {
      const note = staleNote(olderThanMs);
      const entry = JSON.stringify(historyEntry({ now, note }, 'unknown'));
      const times = [dialect.time(now), dialect.time(now - olderThanMs)];
      const { rows } = await recover([...times, note, entry, JSON.stringify(running)]);
      return rows.map(fromRow);
    },

    async prune({ before }) {
      const cutoff = dialect.time(before);
      let pruned = 0;
      for (const batch of pruneBatches) pruned += await pruneInBatches(batch, cutoff);
      await pruneInBatches(forgetNotices, cutoff);
      await pruneLinks(before);
      await pruneLimits(before);
      return pruned;
    },

    async remindDue({ now, within }) {
      const { rows } = await dueForReminder([dialect.time(now), dialect.time(now + within)]);
      const claimed: Confirmation[] = [];
      for (const row of rows) {
        if ((await claimReminder([row.id, dialect.time(now)])).changed === 1) claimed.push(fromRow(row));
      }
      return claimed;
    },
  };
}
