import type { LoggedAction } from '../../audit/audit-drafts.js';
import { confirmationDraft } from '../../audit/audit-drafts.js';
import { memoryAuditChain } from '../../audit/memory-audit.js';
import type { Confirmation, ConfirmationApproval, ConfirmationStatus, Draft } from '../../confirmation.js';
import { setOwn } from '../../util/own-property.js';
import type { ListPosition } from '../cursor.js';
import { inProcess } from '../in-process.js';
import { listStart, pageOf } from '../list-page.js';
import type {
  ApprovalLinkRecord,
  ApproveChange,
  ClaimChange,
  ConfirmationQuery,
  DecisionChange,
  StoreCapability,
  StoreChange,
  StoreWith,
  TransitionOutcome,
} from '../store.js';
import { FINISHED_STATUSES } from '../store.js';
import {
  approvalsJson,
  clampLimit,
  countMove,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from '../transitions.js';
import { memoryEscalations } from './memory-escalations.js';
import { memoryLimits } from './memory-limits.js';
import { memoryPasskeys } from './memory-passkeys.js';
import { memoryRuns } from './memory-runs.js';

/** Options for `createMemoryStore`. */
export interface MemoryStoreOptions {
  /**
   * The most confirmations kept (default 100,000). When full, the finished ones that finished first
   * are dropped; when every one is still open, `create` fails (`STORE_FAILED`) rather than growing.
   */
  readonly maxRecords?: number;
  /**
   * The most audit entries kept (default 1,000,000; each change of a confirmation adds one). The log
   * never drops one: once full, every change is refused with `AUDIT_FAILED` rather than made
   * unrecorded. A process that runs for long should use a durable store.
   */
  readonly maxAuditEntries?: number;
}

/**
 * One record (its private shell), its times parsed once, its place in creation order (the list's
 * tie-break between equal times), and whether it is still held.
 */
interface Slot {
  record: Confirmation;
  readonly createdMs: number;
  readonly expiresMs: number;
  readonly order: number;
  alive: boolean;
  /** A reminder was claimed for it (`remindDue`). */
  reminded?: true;
}

/** Newest first: later `createdAt`, then later created. */
const newestFirst = (a: Slot, b: Slot) => b.createdMs - a.createdMs || b.order - a.order;

/** Whether `slot` comes after `start` in a newest-first list (strictly older). */
const isAfter = (slot: Slot, start: ListPosition, order: number) =>
  slot.createdMs < start.createdAt || (slot.createdMs === start.createdAt && slot.order < order);

/** The last index in `slots` (oldest first) of one that comes after `start`, or -1. */
function lastAfter(slots: readonly Slot[], start: ListPosition, order: number): number {
  let low = 0;
  let high = slots.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAfter(slots[middle] as Slot, start, order)) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** A frozen deep copy of plain data: records hold only JSON values and strings. */
function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  // Built key by key, not spread: freezing a spread object is many times slower.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwn(copy, key, frozenCopy((value as Record<string, unknown>)[key]));
  return Object.freeze(copy) as T;
}

/** A record's own shell, kept private; everything below it deep-frozen and shared between versions. */
/**
 * What a record is handed out as: a fresh shell over the frozen parts, so nothing a caller does to it
 * reaches the store. (Freezing the shell instead would cost more than the rest of a change.)
 */
const out = (record: Confirmation): Confirmation => ({ ...record });

function ownShell(confirmation: Confirmation): Draft {
  const shell: Draft = { ...confirmation };
  for (const key of Object.keys(shell) as (keyof Draft)[]) {
    const value = shell[key];
    if (typeof value === 'object' && value !== null)
      (shell as Record<string, unknown>)[key] = frozenCopy(value);
  }
  return shell;
}

/**
 * A store in process memory: the default, with no dependencies. Atomic within one process (every
 * change happens synchronously), gone when the process ends — for development, tests and single-process
 * apps that accept losing open confirmations on restart. Use `graded-tools/sqlite` or
 * `graded-tools/postgres` to survive restarts or share confirmations between instances. Records are
 * deep-frozen copies: one handed out can never change the store.
 *
 * @example
 * ```ts
 * import { createMemoryStore, ToolRegistry } from 'graded-tools';
 * const registry = new ToolRegistry({ confirmations: createMemoryStore({ maxRecords: 10_000 }) });
 * ```
 */
export function createMemoryStore(
  options: MemoryStoreOptions = {},
): StoreWith<Exclude<StoreCapability, 'watch'>> {
  const maxRecords = options?.maxRecords ?? 100_000;
  if (!Number.isInteger(maxRecords) || maxRecords < 1) {
    throw new RangeError('createMemoryStore: `maxRecords` must be a positive integer.');
  }
  const maxAuditEntries = options?.maxAuditEntries ?? 1_000_000;
  if (!Number.isInteger(maxAuditEntries) || maxAuditEntries < 1) {
    throw new RangeError('createMemoryStore: `maxAuditEntries` must be a positive integer.');
  }
  const slots = new Map<string, Slot>();
  /** Idempotency keys (`Confirmation.idempotency.key`) of the kept records, to their slots. */
  const keyed = new Map<string, Slot>();
  /** The kept records by the payload digest they were stored with (`findAlike`). */
  const byDigest = new Map<string, Set<Slot>>();
  /** … and by their `ref` (`findAlike` by reference). */
  const byRef = new Map<string, Set<Slot>>();
  // Creation order. While that is also `createdAt` order (a clock that moves forward), `list` reads
  // from the end and stops at its limit; dropped slots are skipped, and compacted away in bulk.
  let created: Slot[] = [];
  let inTimeOrder = true;
  let createdCount = 0;
  // What the sweeps read, so none scans every record: pending and delivering ones, and the finished
  // ones in the order they finished — a queue, so making room is O(1) (a Set's oldest entry is not:
  // it sits behind every deleted one).
  const pending = new Set<Slot>();
  const delivering = new Set<Slot>();
  /** Sends held for their undo window, each with `deliverAt` parsed (what the sweep compares). */
  const scheduled = new Map<Slot, number>();
  let finished: Slot[] = [];
  let finishedHead = 0;
  const isFinished = new Set<ConfirmationStatus>(FINISHED_STATUSES);

  // One-time approval links by token hash; expired ones leave with `prune`, or when the map is full.
  const links = new Map<string, ApprovalLinkRecord>();
  const { pruneLimits, moveCounts, spendAll, ...limits } = memoryLimits(maxRecords);
  const audit = memoryAuditChain(maxAuditEntries);

  const drop = (slot: Slot) => {
    slot.alive = false;
    pending.delete(slot);
    delivering.delete(slot);
    scheduled.delete(slot);
    slots.delete(slot.record.id);
    const key = slot.record.idempotency?.key;
    if (key !== undefined && keyed.get(key) === slot) keyed.delete(key);
    const same = byDigest.get(slot.record.digest);
    same?.delete(slot);
    if (same?.size === 0) byDigest.delete(slot.record.digest);
    const ref = slot.record.ref;
    const sameRef = ref === undefined ? undefined : byRef.get(ref);
    sameRef?.delete(slot);
    if (ref !== undefined && sameRef?.size === 0) byRef.delete(ref);
    if (created.length > 2 * slots.size + 1_024) created = created.filter((s) => s.alive);
    if (finishedHead > 1_024 && finishedHead > finished.length / 2) {
      finished = finished.slice(finishedHead).filter((s) => s.alive);
      finishedHead = 0;
    }
  };

  const hold = (slot: Slot, status: ConfirmationStatus) => {
    if (status === 'pending') pending.add(slot);
    else if (status === 'delivering') delivering.add(slot);
    else if (status === 'scheduled') scheduled.set(slot, Date.parse(slot.record.deliverAt ?? '') || 0);
    else if (isFinished.has(status)) finished.push(slot);
  };

  /** The next version of a record: a new shell and history; the rest is frozen and shared. */
  /**
   * The next version of a record: a new shell and history; the rest is frozen and shared. Its audit
   * entry is committed in the same synchronous step: both happen, or (if building the entry throws)
   * neither.
   */
  const change = (
    slot: Slot,
    {
      to,
      at,
      action,
      fields = {},
    }: {
      to: ConfirmationStatus;
      at: StoreChange | ClaimChange | ApproveChange;
      action: LoggedAction;
      fields?: Partial<Draft>;
    },
  ) => {
    const current = slot.record;
    const edit = 'edit' in at ? at.edit : undefined;
    const approval = 'approval' in at ? at.approval : undefined;
    const entry =
      edit === undefined && approval === undefined
        ? Object.freeze(historyEntry(at, to))
        : frozenCopy(historyEntry(at, to, edit, approval));
    const next: Draft = { ...current, ...fields, status: to, updatedAt: entry.at };
    next.history = Object.freeze([...current.history, entry]);
    audit.commit(
      confirmationDraft({
        action,
        confirmation: next,
        by: at.by,
        at: at.now,
        viaLink: 'link' in at && at.link !== undefined,
        passkey: 'passkey' in at ? at.passkey : undefined,
      }),
    );
    slot.record = next;
    // In the same synchronous step as the change and its entry: once, whoever else tries the same change.
    const counts = next.counted === undefined ? undefined : countMove(current.status, to);
    if (counts !== undefined && next.counted !== undefined) moveCounts(counts, next.counted);
    // An approval stays pending: re-adding it would move it out of the pending set's creation order.
    if (current.status === to) return out(next);
    if (current.status === 'pending') pending.delete(slot);
    else if (current.status === 'delivering') delivering.delete(slot);
    else if (current.status === 'scheduled') scheduled.delete(slot);
    hold(slot, to);
    return out(next);
  };

  const move = (
    id: string,
    transition: Transition,
    at: StoreChange | DecisionChange | ClaimChange | ApproveChange,
    action: LoggedAction,
  ): TransitionOutcome => {
    const slot = slots.get(id);
    if (slot === undefined) return { ok: false, reason: 'not-found' };
    const current = slot.record;
    const edit = 'edit' in at ? at.edit : undefined;
    const quorum = 'quorum' in at ? at.quorum : undefined;
    if (
      !transition.from.includes(current.status) ||
      (edit !== undefined && current.digest !== edit.fromDigest) ||
      (quorum !== undefined && approvalsJson(current.approvals) !== approvalsJson(quorum.expected))
    )
      return { ok: false, reason: 'wrong-status', confirmation: out(current) };
    if (transition.refusedWhenExpired && slot.expiresMs <= at.now)
      return { ok: false, reason: 'expired', confirmation: out(current) };
    const spent = 'link' in at && at.link !== undefined ? at.link.tokenHash : undefined;
    const link = spent === undefined ? undefined : links.get(spent);
    if (spent !== undefined) {
      if (
        link === undefined ||
        link.confirmationId !== id ||
        link.usedAt !== undefined ||
        link.expiresAt <= at.now
      )
        return { ok: false, reason: 'link-refused', confirmation: out(current) };
    }
    const fields: Partial<Draft> = transition.startsAttempt ? { attempt: current.attempt + 1 } : {};
    if (edit !== undefined) {
      // From its JSON text, so the stored payload is plain data that nothing outside holds.
      fields.payload = frozenCopy(JSON.parse(edit.payloadJson) as unknown);
      fields.digest = edit.digest;
      if ('requires' in at && at.requires !== undefined) fields.requires = frozenCopy(at.requires);
      if ('counted' in at && at.counted !== undefined) fields.counted = frozenCopy(at.counted);
    }
    if (quorum !== undefined)
      fields.approvals = frozenCopy(JSON.parse(approvalsJson(quorum.next)) as ConfirmationApproval[]);
    const deliverAt = 'deliverAt' in at ? at.deliverAt : undefined;
    if (deliverAt !== undefined) fields.deliverAt = new Date(deliverAt).toISOString();
    const changed = change(slot, { to: transition.to, at, action, fields });
    // Synchronous with the move above: the link is spent exactly when the decision is made.
    if (spent !== undefined && link !== undefined)
      links.set(spent, Object.freeze({ ...link, usedAt: at.now }));
    return { ok: true, confirmation: changed };
  };

  /** Stores one new record with its `created` entry; throws (storing nothing) when it cannot. */
  const add = (confirmation: Confirmation): void => {
    if (slots.has(confirmation.id)) throw new Error(`a confirmation with id ${confirmation.id} exists`);
    const key = confirmation.idempotency?.key;
    if (key !== undefined && keyed.has(key))
      throw new Error('a confirmation with that idempotency key exists');
    const record = ownShell(confirmation);
    while (slots.size >= maxRecords) {
      const oldest = finished[finishedHead++];
      if (oldest === undefined) {
        finishedHead--;
        throw new Error(`the memory store is full: ${maxRecords} confirmations are still open`);
      }
      if (oldest.alive) drop(oldest);
    }
    const slot: Slot = {
      record,
      createdMs: Date.parse(record.createdAt),
      expiresMs: Date.parse(record.expiresAt),
      order: ++createdCount,
      alive: true,
    };
    const last = created.at(-1);
    audit.commit(
      confirmationDraft({
        action: 'created',
        confirmation: record,
        by: record.actor,
        at: slot.createdMs,
        viaLink: false,
      }),
    );
    if (last !== undefined && slot.createdMs < last.createdMs) inTimeOrder = false;
    slots.set(record.id, slot);
    if (key !== undefined) keyed.set(key, slot);
    const same = byDigest.get(record.digest) ?? new Set<Slot>();
    byDigest.set(record.digest, same.add(slot));
    if (record.ref !== undefined) byRef.set(record.ref, (byRef.get(record.ref) ?? new Set<Slot>()).add(slot));
    created.push(slot);
    hold(slot, record.status);
  };

  /** How many records `add` could still store, dropping finished ones to make room. */
  const room = (): number => {
    let droppable = 0;
    for (let i = finishedHead; i < finished.length; i++) if (finished[i]?.alive) droppable++;
    return maxRecords - slots.size + droppable;
  };

  return inProcess({
    ...limits,
    audit,
    ...memoryEscalations(pending, audit),
    ...memoryPasskeys(audit),
    // Runs live in this object: every registry sharing the store shares its runs.
    ...memoryRuns(),

    async create(confirmation) {
      add(confirmation);
    },

    async createBundle(confirmations, spends = []) {
      // Every check before the first insert: all of them are stored, or none.
      const ids = new Set(confirmations.map((confirmation) => confirmation.id));
      if (ids.size !== confirmations.length) throw new Error('a bundle holds one id twice');
      const keys = new Set<string>();
      for (const { id, idempotency } of confirmations) {
        if (slots.has(id)) throw new Error(`a confirmation with id ${id} exists`);
        if (idempotency === undefined) continue;
        if (keyed.has(idempotency.key) || keys.has(idempotency.key))
          throw new Error('a confirmation with that idempotency key exists');
        keys.add(idempotency.key);
      }
      if (confirmations.length > room())
        throw new Error(`the memory store is full: ${maxRecords} confirmations are still open`);
      // The counts and the steps in one synchronous step: a refused count stores nothing.
      const over = spendAll(spends);
      if (over !== undefined) return { ok: false, code: 'limit-reached', ...over };
      for (const confirmation of confirmations) add(confirmation);
      return { ok: true };
    },

    async get(id) {
      const slot = slots.get(id);
      return slot && out(slot.record);
    },

    async findAlike({ tool, digest, ref, now }) {
      const newestOf = (candidates: Iterable<Slot>, same: (record: Confirmation) => boolean) => {
        let newest: Slot | undefined;
        for (const slot of candidates) {
          const { record } = slot;
          if (record.status !== 'pending' || record.tool !== tool || !same(record)) continue;
          if (slot.expiresMs <= now || (newest !== undefined && slot.order < newest.order)) continue;
          newest = slot;
        }
        return newest?.record.id;
      };
      const payload = newestOf(byDigest.get(digest) ?? [], (record) => record.digest === digest);
      if (payload !== undefined) return { id: payload, by: 'payload' };
      if (ref === undefined) return undefined;
      const byReference = newestOf(byRef.get(ref) ?? [], (record) => record.ref === ref);
      return byReference === undefined ? undefined : { id: byReference, by: 'ref' };
    },

    async findKeyed(key) {
      const slot = keyed.get(key);
      return slot && out(slot.record);
    },

    async list(query: ConfirmationQuery = {}) {
      const limit = clampLimit(query.limit);
      const { status, tool, expiresAfter } = query;
      const start = listStart(query);
      const startOrder = start === undefined ? 0 : Number(start.order);
      // Pending ones entered that set in creation order: read only them.
      const from = status === 'pending' && inTimeOrder ? [...pending] : created;
      const matches: Slot[] = [];
      const matching = (slot: Slot) =>
        slot.alive &&
        (status === undefined || slot.record.status === status) &&
        (tool === undefined || slot.record.tool === tool) &&
        (expiresAfter === undefined || slot.expiresMs > expiresAfter);
      if (inTimeOrder) {
        // Oldest first, so the cursor's place is a binary search; read back from it to one past the page.
        let i = start === undefined ? from.length - 1 : lastAfter(from, start, startOrder);
        for (; i >= 0 && matches.length <= limit; i--) {
          const slot = from[i] as Slot;
          if (matching(slot)) matches.push(slot);
        }
      } else {
        for (const slot of from)
          if (matching(slot) && (start === undefined || isAfter(slot, start, startOrder))) matches.push(slot);
        matches.sort(newestFirst);
        matches.length = Math.min(matches.length, limit + 1);
      }
      return pageOf(
        matches,
        limit,
        (slot) => out(slot.record),
        (slot) => ({ createdAt: slot.createdMs, order: String(slot.order) }),
      );
    },

    async claim(id, at) {
      return move(id, at.deliverAt === undefined ? TRANSITIONS.claim : TRANSITIONS.hold, at, 'confirmed');
    },

    async dueScheduled({ now, limit }) {
      return [...scheduled]
        .filter(([, deliverAt]) => deliverAt <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([slot]) => out(slot.record));
    },

    async deliverDue(id, at) {
      const slot = slots.get(id);
      const deliverAt = slot === undefined ? undefined : scheduled.get(slot);
      if (slot !== undefined && deliverAt !== undefined && deliverAt > at.now)
        return { ok: false, reason: 'wrong-status', confirmation: out(slot.record) };
      return move(id, TRANSITIONS.deliverDue, at, 'delivering');
    },

    async cancel(id, at) {
      return move(id, TRANSITIONS.cancel, at, 'cancelled');
    },

    async approve(id, at) {
      return move(id, TRANSITIONS.approve, at, 'approved');
    },

    async reclaim(id, at) {
      return move(id, TRANSITIONS.reclaim, at, 'confirmed');
    },

    async finish(id, at) {
      const from = finishFrom(at.status);
      const slot = slots.get(id);
      if (slot === undefined) return { ok: false, reason: 'not-found' };
      const current = slot.record;
      if (!from.includes(current.status) || current.attempt !== at.attempt)
        return { ok: false, reason: 'wrong-status', confirmation: out(current) };
      // An earlier attempt's result or error does not describe this one: both are replaced.
      if ('result' in current || 'error' in current) {
        const { result: _result, error: _error, ...rest } = current;
        slot.record = rest as Confirmation;
      }
      const fields: Partial<Draft> = {};
      if (at.resultJson !== undefined) fields.result = frozenCopy(JSON.parse(at.resultJson) as unknown);
      if (at.error !== undefined) fields.error = at.error;
      return {
        ok: true,
        confirmation: change(slot, {
          to: at.status,
          at: { ...at, note: at.note ?? at.error },
          action: at.status,
          fields,
        }),
      };
    },

    async reject(id, at) {
      return move(id, TRANSITIONS.reject, at, 'rejected');
    },

    async markDelivered(id, at) {
      return move(id, TRANSITIONS.markDelivered, at, 'delivered');
    },

    async expire({ now, id }) {
      const from = id === undefined ? [...pending] : [slots.get(id)];
      return from
        .filter((slot) => slot?.record.status === 'pending' && slot.expiresMs <= now)
        .map((slot) => change(slot as Slot, { to: 'expired', at: { now }, action: 'expired' }));
    },

    async remindDue({ now, within }) {
      const due: Confirmation[] = [];
      for (const slot of pending) {
        if (slot.reminded || slot.expiresMs <= now || slot.expiresMs > now + within) continue;
        slot.reminded = true;
        due.push(out(slot.record));
      }
      return due;
    },

    async recoverStale({ now, olderThanMs, running = [] }) {
      const note = staleNote(olderThanMs);
      return [...delivering]
        .filter((slot) => Date.parse(slot.record.updatedAt) < now - olderThanMs)
        .filter((slot) => !running.includes(slot.record.id))
        .map((slot) =>
          change(slot, { to: 'unknown', at: { now, note }, action: 'unknown', fields: { error: note } }),
        );
    },

    async prune({ before }) {
      const due = finished
        .slice(finishedHead)
        .filter((s) => s.alive && Date.parse(s.record.updatedAt) < before);
      for (const slot of due) drop(slot);
      for (const [hash, link] of links) if (link.expiresAt < before) links.delete(hash);
      pruneLimits(before);
      return due.length;
    },

    async saveLink(link) {
      if (links.has(link.tokenHash)) throw new Error('an approval link with that token exists');
      if (links.size >= maxRecords) {
        const now = Date.now();
        for (const [hash, held] of links)
          if (held.expiresAt <= now || held.usedAt !== undefined) links.delete(hash);
        if (links.size >= maxRecords)
          throw new Error(`the memory store holds ${maxRecords} open approval links (its maxRecords)`);
      }
      links.set(link.tokenHash, frozenCopy({ ...link }));
    },

    async findLink(tokenHash) {
      const link = links.get(tokenHash);
      return link === undefined ? undefined : { ...link };
    },

    async useLink(tokenHash, { now }) {
      const link = links.get(tokenHash);
      if (link === undefined || link.usedAt !== undefined || link.expiresAt <= now) return false;
      links.set(tokenHash, Object.freeze({ ...link, usedAt: now }));
      return true;
    },
  });
}
