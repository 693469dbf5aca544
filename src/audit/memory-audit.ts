import { type AuditChain, AuditWriteError } from './audit-chain.js';
import { type AuditDraft, type AuditEntry, entryHash, GENESIS_HASH } from './audit-entry.js';

/** The memory store's chain: `commit` is called synchronously inside the change it records. */
export interface MemoryAuditChain extends AuditChain {
  /**
   * Keeps `draft` as committed (unsequenced); synchronous, so it happens with its change or not at all.
   * Throws `AuditWriteError` when the log holds `maxEntries`: the change is then not made.
   */
  commit(draft: AuditDraft): void;
}

/**
 * The memory store's audit log: arrays in one process. A change and its entry happen in the same
 * synchronous step; hashing waits for `sequence` (or any read), so a decision pays only a push. Gone
 * when the process ends, like the memory store. It never drops an entry: once it holds `maxEntries`,
 * every change is refused (`AUDIT_FAILED`) rather than made unrecorded.
 */
export function memoryAuditChain(maxEntries: number): MemoryAuditChain {
  const entries: AuditEntry[] = [];
  let unsequenced: AuditDraft[] = [];
  const room = () => {
    if (entries.length + unsequenced.length >= maxEntries)
      throw new AuditWriteError(
        `the memory store's audit log is full (${maxEntries} entries, its maxAuditEntries)`,
      );
  };
  const sequenceNow = (): number => {
    const drafts = unsequenced;
    if (drafts.length === 0) return 0;
    unsequenced = [];
    let previous = entries.at(-1);
    for (const draft of drafts) {
      const unhashed = { ...draft, seq: (previous?.seq ?? 0) + 1, prevHash: previous?.hash ?? GENESIS_HASH };
      previous = Object.freeze({ ...unhashed, hash: entryHash(unhashed) });
      entries.push(previous);
    }
    return drafts.length;
  };
  return {
    commit(draft) {
      room();
      unsequenced.push(Object.freeze(draft));
    },
    async append(draft) {
      room();
      unsequenced.push(Object.freeze({ ...draft }));
    },
    async sequence() {
      return sequenceNow();
    },
    async pending(before) {
      return before === undefined
        ? unsequenced.length
        : unsequenced.reduce((n, draft) => (draft.at < before ? n + 1 : n), 0);
    },
    async read({ afterSeq, limit, since, until }) {
      sequenceNow();
      const page: AuditEntry[] = [];
      for (let i = Math.max(0, afterSeq); i < entries.length && page.length < limit; i++) {
        const entry = entries[i] as AuditEntry;
        if ((since === undefined || entry.at >= since) && (until === undefined || entry.at < until))
          page.push(entry);
      }
      return page;
    },
    async last() {
      sequenceNow();
      return entries.at(-1);
    },
  };
}
