import { entryHash, GENESIS_HASH } from '../../audit/audit-entry.js';
import { type AuditRow, type AuditSequencer, draftOf, SEQUENCE_BATCH } from './sql-audit.js';

/** One entry's place in the chain: what a sequencer writes to its row. */
export interface AuditLink {
  readonly id: string;
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}

/** The chain's links for `rows` (in the order given) after `head`: each entry's seq, prev_hash and hash. */
export function chained(head: { seq: number; hash: string }, rows: readonly AuditRow[]): AuditLink[] {
  let previous = head;
  return rows.map((row) => {
    const seq = previous.seq + 1;
    const hash = entryHash({ ...draftOf(row), seq, prevHash: previous.hash });
    const link = { id: String(row.id), seq, prevHash: previous.hash, hash };
    previous = { seq, hash };
    return link;
  });
}

/** The head a chain continues from: the newest sequenced row, or the genesis of an empty log. */
export const headOf = (row: { seq: unknown; hash: unknown } | null | undefined) =>
  row === undefined || row === null
    ? { seq: 0, hash: GENESIS_HASH }
    : { seq: Number(row.seq), hash: String(row.hash) };

/**
 * One batch of a dialect's sequencer: chains at most `limit` entries not yet sequenced, in commit
 * order, and says how many — or `undefined` when another sequencer moved the head meanwhile.
 */
export type SequenceBatch = (limit: number) => Promise<number | undefined>;

/** How often a batch may find the head moved before the sequencer gives up. */
const CONFLICTS = 20;

/**
 * The one sequencing loop every dialect shares: batches until one chains fewer than a full batch,
 * reading again when another sequencer moved the head between a batch's read and its write.
 */
export function sequencerOf(batch: SequenceBatch): AuditSequencer {
  return async () => {
    let total = 0;
    for (let conflicts = 0; ; ) {
      const done = await batch(SEQUENCE_BATCH);
      if (done === undefined) {
        if (++conflicts > CONFLICTS)
          throw new Error('graded-tools: could not sequence the audit log (too many concurrent sequencers)');
        continue;
      }
      total += done;
      if (done < SEQUENCE_BATCH) return total;
    }
  };
}
