import type { AuditDraft, AuditEntry } from './audit-entry.js';

/** One page of the log, oldest first: entries after `afterSeq`, at most `limit`, optionally within a time range. */
export interface AuditPageQuery {
  readonly afterSeq: number;
  readonly limit: number;
  /** Only entries with `at` at or after this (epoch ms). */
  readonly since?: number | undefined;
  /** Only entries with `at` before this (epoch ms). */
  readonly until?: number | undefined;
}

/**
 * A store's audit log: one hash chain per store, kept the way Certificate Transparency logs keep theirs.
 * An entry commits **with the change it records** — in the same transaction or conditional write, never
 * after it — and carries no place in the chain yet. `sequence` later gives the committed entries their
 * `seq`, `prevHash` and `hash` in batches, under one sequencer at a time, off the decision path: writers
 * never wait for each other to hash. Only sequenced entries are read, verified and signed; `pending`
 * counts the rest.
 */
export interface AuditChain {
  /** Commits one entry on its own: for a step that changes nothing else (a rule refusing a call). */
  append(draft: AuditDraft): Promise<void>;
  /**
   * Sequences every entry committed so far, in commit order: each gets the next `seq` and the hash of
   * the one before. Any number of instances may call it at once; one at a time sequences. Resolves with
   * how many it sequenced.
   */
  sequence(): Promise<number>;
  /**
   * How many committed entries are not sequenced yet (not covered by `verify` or a signed head); with
   * `before` (epoch ms), only those whose `at` is earlier.
   */
  pending(before?: number): Promise<number>;
  /** Sequenced entries in `seq` order, as stored (a verifier checks them; nothing here does). */
  read(query: AuditPageQuery): Promise<AuditEntry[]>;
  /** The sequenced entry with the highest `seq`, or `undefined` for an empty log. */
  last(): Promise<AuditEntry | undefined>;
}

/**
 * What a store throws when the audit entry of a change could not be written: the change was not made
 * either (it commits with its entry or not at all). The registry answers `AUDIT_FAILED`. A custom store
 * throws it too, so its callers can tell this from other store failures.
 */
export class AuditWriteError extends Error {
  readonly code = 'AUDIT_FAILED';
  constructor(cause: unknown) {
    super(`the audit entry could not be written, so the change was not made: ${messageOf(cause)}`, { cause });
    this.name = 'AuditWriteError';
  }
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** Whether `error` is a store's `AuditWriteError` (by its code, across copies of this module). */
export function isAuditWriteError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'AUDIT_FAILED';
}
