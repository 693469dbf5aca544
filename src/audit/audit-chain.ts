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
 * A store's audit log: one hash chain per store. `append` gives the draft the next `seq` and the last
 * entry's hash as `prevHash` in one atomic step, so any number of writers — in any number of processes —
 * leave one chain without gaps or forks (each store says how in its own doc comment).
 */
export interface AuditChain {
  /** Appends one entry; resolves with it as stored. */
  append(draft: AuditDraft): Promise<AuditEntry>;
  /** Entries in `seq` order, as stored (a verifier checks them; nothing here does). */
  read(query: AuditPageQuery): Promise<AuditEntry[]>;
  /** The entry with the highest `seq`, or `undefined` for an empty log. */
  last(): Promise<AuditEntry | undefined>;
}
