import {
  type FrozenResult,
  IN_PROCESS,
  type InProcessAccess,
  type InProcessStore,
  takeVoucher,
} from './in-process-store.js';
import { fromIso } from './iso-time.js';
import { setOwn } from './own-property.js';
import { recordShell } from './record-shell.js';
import type {
  ConfirmationQuery,
  ConfirmationStore,
  FinishChange,
  StoreChange,
  TransitionOutcome,
} from './store.js';
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
   * The most confirmations kept (default 100,000). When full, the oldest finished ones are dropped;
   * when every one is still open, `create` fails (`STORE_FAILED`) rather than growing without bound.
   */
  readonly maxRecords?: number;
}

/** Freezes plain data that nobody else holds (what `JSON.parse` just returned) in place. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A frozen deep copy of plain data (records hold only JSON values and strings). */
function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setOwn(copy, key, frozenCopy((value as Record<string, unknown>)[key]));
  }
  return Object.freeze(copy) as T;
}

/**
 * A store in process memory: the default, with no dependencies. Atomic within one process (every
 * change happens synchronously), gone when the process ends — for development, tests and single-process
 * apps that accept losing open confirmations on restart. Use `graded-tools/sqlite` or
 * `graded-tools/postgres` to survive restarts or share confirmations between instances.
 *
 * @example
 * ```ts
 * import { createMemoryStore, ToolRegistry } from 'graded-tools';
 * const registry = new ToolRegistry({ confirmations: createMemoryStore({ maxRecords: 10_000 }) });
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ConfirmationStore {
  const maxRecords = options.maxRecords ?? 100_000;
  if (!Number.isInteger(maxRecords) || maxRecords < 1) {
    throw new RangeError('createMemoryStore: `maxRecords` must be a positive integer.');
  }
  // Insertion order is creation order: the oldest come first when making room.
  const records = new Map<string, Confirmation>();
  // Records created without the registry's voucher: their digest is checked again at every confirm.
  const unvouched = new Set<string>();
  const forget = (id: string) => {
    records.delete(id);
    unvouched.delete(id);
  };
  const finished = new Set<ConfirmationStatus>(FINISHED_STATUSES);

  /**
   * The next version of `current`, frozen and stored: status `to`, one more history entry, and the
   * given attempt, result and error (absent when `undefined`). Only the shell and the history are
   * new: the payload, input and result are frozen already and shared between versions, so no version
   * handed out can be changed and none costs a deep copy.
   */
  const change = (
    current: Confirmation,
    to: ConfirmationStatus,
    at: StoreChange,
    attempt: number,
    result: unknown,
    error: string | undefined,
    replacesOutcome = false,
  ): Confirmation => {
    const entry = Object.freeze(historyEntry(at, to));
    const history = Object.freeze([...current.history, entry]);
    let next: Confirmation;
    if (unvouched.has(current.id)) {
      // Built by another caller: keep whatever fields it has, in its order.
      const draft: Draft = { ...current };
      draft.status = to;
      draft.updatedAt = entry.at;
      if (attempt !== current.attempt) draft.attempt = attempt;
      draft.history = history;
      if (replacesOutcome) {
        if ('result' in draft) delete draft.result;
        if ('error' in draft) delete draft.error;
        if (result !== undefined) draft.result = result;
        if (error !== undefined) draft.error = error;
      } else if (error !== current.error) {
        draft.error = error as string;
      }
      next = Object.freeze(draft);
    } else {
      // The registry's own record: its fields are known, and writing them out is many times quicker
      // than spreading a frozen object. Same fields, same order as the spread would give.
      const draft = recordShell(current, entry.at, to, attempt, history);
      if (result !== undefined) draft.result = result;
      if (error !== undefined) draft.error = error;
      next = Object.freeze(draft);
    }
    records.set(next.id, next);
    return next;
  };

  const move = (id: string, transition: Transition, at: StoreChange): TransitionOutcome => {
    const current = records.get(id);
    if (current === undefined) return { ok: false, reason: 'not-found' };
    if (!transition.from.includes(current.status))
      return { ok: false, reason: 'wrong-status', confirmation: current };
    if (transition.refusedWhenExpired && fromIso(current.expiresAt) <= at.now)
      return { ok: false, reason: 'expired', confirmation: current };
    const attempt = transition.startsAttempt ? current.attempt + 1 : current.attempt;
    const next = change(current, transition.to, at, attempt, current.result, current.error);
    return { ok: true, confirmation: next };
  };

  const makeRoom = () => {
    for (const [id, record] of records) {
      if (records.size < maxRecords) return;
      if (finished.has(record.status)) forget(id);
    }
    if (records.size >= maxRecords) {
      throw new Error(`the memory store is full: ${maxRecords} confirmations are still open`);
    }
  };

  const create = (confirmation: Confirmation): void => {
    // The registry's own record is deep-frozen already: kept as it is. Anything else is copied.
    const vouched = takeVoucher(confirmation);
    if (records.has(confirmation.id)) throw new Error(`a confirmation with id ${confirmation.id} exists`);
    if (records.size >= maxRecords) makeRoom();
    const record = vouched ? confirmation : frozenCopy(confirmation);
    records.set(record.id, record);
    if (!vouched) unvouched.add(record.id);
  };

  const claim = (id: string, at: StoreChange): TransitionOutcome => move(id, TRANSITIONS.claim, at);

  const finish = (id: string, at: FinishChange, given?: FrozenResult): TransitionOutcome => {
    const from = finishFrom(at.status);
    const current = records.get(id);
    if (current === undefined) return { ok: false, reason: 'not-found' };
    if (!from.includes(current.status) || current.attempt !== at.attempt)
      return { ok: false, reason: 'wrong-status', confirmation: current };
    // An earlier attempt's result or error does not describe this one: both are replaced.
    const result =
      given !== undefined
        ? given.value
        : at.resultJson === undefined
          ? undefined
          : deepFreeze(JSON.parse(at.resultJson) as unknown);
    const step = { now: at.now, by: at.by, note: at.note ?? at.error };
    return {
      ok: true,
      confirmation: change(current, at.status, step, current.attempt, result, at.error, true),
    };
  };

  const methods: InProcessAccess['methods'] = {
    async create(confirmation) {
      create(confirmation);
    },
    async claim(id, at) {
      return claim(id, at);
    },
    async finish(id, at) {
      return finish(id, at);
    },
  };

  const store: InProcessStore = {
    create: methods.create,

    async get(id) {
      return records.get(id);
    },

    // Only for the very object this store holds under that id: one a wrapper made up is re-digested.
    [IN_PROCESS]: Object.freeze({
      hasVerifiedDigest: (record: Confirmation) =>
        records.get(record.id) === record && !unvouched.has(record.id),
      methods,
      create,
      claim,
      finish,
    }),

    async list(query: ConfirmationQuery = {}) {
      const limit = clampLimit(query.limit);
      const matches: Confirmation[] = [];
      for (const record of records.values()) {
        if (query.status !== undefined && record.status !== query.status) continue;
        if (query.tool !== undefined && record.tool !== query.tool) continue;
        if (query.expiresAfter !== undefined && Date.parse(record.expiresAt) <= query.expiresAfter) continue;
        matches.push(record);
      }
      // Newest first; among equal times, the later created first (sort is stable over the reversed list).
      matches.reverse();
      matches.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      return matches.slice(0, limit);
    },

    claim: methods.claim,

    async reclaim(id, at) {
      return move(id, TRANSITIONS.reclaim, at);
    },

    finish: methods.finish,

    async reject(id, at) {
      return move(id, TRANSITIONS.reject, at);
    },

    async markDelivered(id, at) {
      return move(id, TRANSITIONS.markDelivered, at);
    },

    async expire({ now, id }) {
      const changed: Confirmation[] = [];
      const candidates = id === undefined ? [...records.values()] : [records.get(id)];
      for (const record of candidates) {
        if (record === undefined || record.status !== 'pending' || Date.parse(record.expiresAt) > now)
          continue;
        changed.push(change(record, 'expired', { now }, record.attempt, record.result, record.error));
      }
      return changed;
    },

    async recoverStale({ now, olderThanMs }) {
      const changed: Confirmation[] = [];
      const note = staleNote(olderThanMs);
      for (const record of [...records.values()]) {
        if (record.status !== 'delivering' || Date.parse(record.updatedAt) >= now - olderThanMs) continue;
        changed.push(change(record, 'unknown', { now, note }, record.attempt, record.result, note));
      }
      return changed;
    },

    async prune({ before }) {
      let deleted = 0;
      for (const [id, record] of records) {
        if (finished.has(record.status) && Date.parse(record.updatedAt) < before) {
          forget(id);
          deleted++;
        }
      }
      return deleted;
    },
  };
  return store;
}
