import type { ConfirmationQuery, ConfirmationStore, StoreChange, TransitionOutcome } from './store.js';
import { FINISHED_STATUSES } from './store.js';
import {
  clampLimit,
  finishFrom,
  historyEntry,
  staleNote,
  TRANSITIONS,
  type Transition,
} from './transitions.js';
import type { Confirmation, ConfirmationStatus, Draft } from './types.js';

/** Options for `createMemoryStore`. */
export interface MemoryStoreOptions {
  /**
   * The most confirmations kept (default 100,000). When full, the finished ones that finished first
   * are dropped; when every one is still open, `create` fails (`STORE_FAILED`) rather than growing.
   */
  readonly maxRecords?: number;
}

/** One record and what the sweeps compare, parsed once. `alive` is false once it is dropped. */
interface Slot {
  record: Confirmation;
  readonly expiresMs: number;
  alive: boolean;
}

/** A frozen deep copy of plain data: records hold only JSON values and strings. */
function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // Defined, not assigned: an own "__proto__" key stays data.
    Object.defineProperty(copy, key, {
      value: frozenCopy(child),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return Object.freeze(copy) as T;
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
export function createMemoryStore(options: MemoryStoreOptions = {}): ConfirmationStore {
  const maxRecords = options?.maxRecords ?? 100_000;
  if (!Number.isInteger(maxRecords) || maxRecords < 1) {
    throw new RangeError('createMemoryStore: `maxRecords` must be a positive integer.');
  }
  const slots = new Map<string, Slot>();
  // By `createdAt`, then creation order: `list` reads it from the end and stops at its limit. Dropped
  // slots are skipped, and compacted away once they are half of it.
  let created: Slot[] = [];
  // The slots each sweep reads, in the order they entered that status: the sweeps and eviction touch only theirs.
  const pending = new Set<Slot>();
  const delivering = new Set<Slot>();
  const finished = new Set<Slot>();
  const isFinished = new Set<ConfirmationStatus>(FINISHED_STATUSES);
  const indexOf = (status: ConfirmationStatus) =>
    status === 'pending'
      ? pending
      : status === 'delivering'
        ? delivering
        : isFinished.has(status)
          ? finished
          : undefined;

  const drop = (slot: Slot) => {
    slot.alive = false;
    indexOf(slot.record.status)?.delete(slot);
    slots.delete(slot.record.id);
    if (created.length > 2 * slots.size + 1_024) created = created.filter((s) => s.alive);
  };

  /** The next version of a record, frozen: only the shell and the history are new; the rest is shared. */
  const change = (
    slot: Slot,
    to: ConfirmationStatus,
    at: StoreChange,
    fields: Partial<Draft> = {},
    current = slot.record,
  ) => {
    const entry = Object.freeze(historyEntry(at, to));
    const next: Draft = { ...current, ...fields, status: to, updatedAt: entry.at };
    next.history = Object.freeze([...current.history, entry]);
    indexOf(current.status)?.delete(slot);
    slot.record = Object.freeze(next);
    indexOf(to)?.add(slot);
    return slot.record;
  };

  const move = (id: string, transition: Transition, at: StoreChange): TransitionOutcome => {
    const slot = slots.get(id);
    if (slot === undefined) return { ok: false, reason: 'not-found' };
    const current = slot.record;
    if (!transition.from.includes(current.status))
      return { ok: false, reason: 'wrong-status', confirmation: current };
    if (transition.refusedWhenExpired && slot.expiresMs <= at.now)
      return { ok: false, reason: 'expired', confirmation: current };
    const fields = transition.startsAttempt ? { attempt: current.attempt + 1 } : {};
    return { ok: true, confirmation: change(slot, transition.to, at, fields) };
  };

  const sweep = (
    from: Set<Slot>,
    due: (slot: Slot) => boolean,
    to: ConfirmationStatus,
    at: StoreChange,
    error?: string,
  ) => {
    const changed: Confirmation[] = [];
    for (const slot of [...from]) {
      if (due(slot)) changed.push(change(slot, to, at, error === undefined ? {} : { error }));
    }
    return changed;
  };

  return {
    async create(confirmation) {
      if (slots.has(confirmation.id)) throw new Error(`a confirmation with id ${confirmation.id} exists`);
      const record = frozenCopy(confirmation);
      if (slots.size >= maxRecords) {
        const oldest = finished.values().next();
        if (oldest.done)
          throw new Error(`the memory store is full: ${maxRecords} confirmations are still open`);
        drop(oldest.value);
      }
      const slot: Slot = { record, expiresMs: Date.parse(record.expiresAt), alive: true };
      slots.set(record.id, slot);
      let at = created.length;
      // A clock only moves forward, so this is nearly always the end; anything else is searched for.
      if (at > 0 && record.createdAt < (created[at - 1] as Slot).record.createdAt) {
        let low = 0;
        while (low < at) {
          const middle = (low + at) >>> 1;
          if ((created[middle] as Slot).record.createdAt <= record.createdAt) low = middle + 1;
          else at = middle;
        }
      }
      created.splice(at, 0, slot);
      indexOf(record.status)?.add(slot);
    },

    async get(id) {
      return slots.get(id)?.record;
    },

    async list(query: ConfirmationQuery = {}) {
      const limit = clampLimit(query.limit);
      const matches: Confirmation[] = [];
      // Newest first; among equal times the later created first.
      for (let i = created.length - 1; i >= 0; i--) {
        const slot = created[i] as Slot;
        if (!slot.alive) continue;
        const record = slot.record;
        if (query.status !== undefined && record.status !== query.status) continue;
        if (query.tool !== undefined && record.tool !== query.tool) continue;
        if (query.expiresAfter !== undefined && slot.expiresMs <= query.expiresAfter) continue;
        matches.push(record);
        if (matches.length === limit) break;
      }
      return matches;
    },

    async claim(id, at) {
      return move(id, TRANSITIONS.claim, at);
    },

    async reclaim(id, at) {
      return move(id, TRANSITIONS.reclaim, at);
    },

    async finish(id, at) {
      const from = finishFrom(at.status);
      const slot = slots.get(id);
      if (slot === undefined) return { ok: false, reason: 'not-found' };
      const current = slot.record;
      if (!from.includes(current.status) || current.attempt !== at.attempt)
        return { ok: false, reason: 'wrong-status', confirmation: current };
      // An earlier attempt's result or error does not describe this one: both are replaced.
      const { result: _result, error: _error, ...rest } = current;
      const fields: Partial<Draft> = {};
      if (at.resultJson !== undefined) fields.result = frozenCopy(JSON.parse(at.resultJson) as unknown);
      if (at.error !== undefined) fields.error = at.error;
      const step = { now: at.now, by: at.by, note: at.note ?? at.error };
      return { ok: true, confirmation: change(slot, at.status, step, fields, rest as Confirmation) };
    },

    async reject(id, at) {
      return move(id, TRANSITIONS.reject, at);
    },

    async markDelivered(id, at) {
      return move(id, TRANSITIONS.markDelivered, at);
    },

    async expire({ now, id }) {
      const only = id === undefined ? undefined : slots.get(id);
      const from = id === undefined ? pending : new Set(only?.record.status === 'pending' ? [only] : []);
      return sweep(from, (slot) => slot.expiresMs <= now, 'expired', { now });
    },

    async recoverStale({ now, olderThanMs }) {
      const note = staleNote(olderThanMs);
      const due = (slot: Slot) => Date.parse(slot.record.updatedAt) < now - olderThanMs;
      return sweep(delivering, due, 'unknown', { now, note }, note);
    },

    async prune({ before }) {
      let deleted = 0;
      for (const slot of [...finished]) {
        if (Date.parse(slot.record.updatedAt) < before) {
          drop(slot);
          deleted++;
        }
      }
      return deleted;
    },
  };
}
