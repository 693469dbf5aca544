import type { AuditChain } from './audit-chain.js';
import { type AuditEntry, entryHash, GENESIS_HASH } from './audit-entry.js';

/**
 * The memory store's audit log: an array in one process, where an append is synchronous and so
 * trivially serial. Gone when the process ends, like the memory store.
 */
export function memoryAuditChain(): AuditChain {
  const entries: AuditEntry[] = [];
  return {
    async append(draft) {
      const previous = entries.at(-1);
      const unhashed = { ...draft, seq: (previous?.seq ?? 0) + 1, prevHash: previous?.hash ?? GENESIS_HASH };
      const entry = Object.freeze({ ...unhashed, hash: entryHash(unhashed) });
      entries.push(entry);
      return entry;
    },
    async read({ afterSeq, limit, since, until }) {
      const page: AuditEntry[] = [];
      for (let i = Math.max(0, afterSeq); i < entries.length && page.length < limit; i++) {
        const entry = entries[i] as AuditEntry;
        if ((since === undefined || entry.at >= since) && (until === undefined || entry.at < until))
          page.push(entry);
      }
      return page;
    },
    async last() {
      return entries.at(-1);
    },
  };
}
