import { type AuditEntry, entryHash, GENESIS_HASH } from './audit-entry.js';
import type { ApprovalsVerification } from './verify-approvals.js';

/** Where a chain reached: the last entry's `seq` and `hash` (0 and 64 zeros for an empty log). */
export interface AuditHead {
  readonly seq: number;
  readonly hash: string;
}

/** Why a log does not verify. */
export type AuditBreak =
  /** An entry's fields no longer hash to its `hash`, or it was rewritten with a new hash (`brokenAt` names it). */
  | 'edited'
  /** Entries are missing: `brokenAt` is the first missing `seq` (newest ones: only against a signed head). */
  | 'deleted'
  /** An intact entry sits at another `seq` than the one it was written at. */
  | 'reordered'
  /** The signed head's signature does not hold for the public key. */
  | 'signature'
  /**
   * Entries committed longer ago than `AUDIT_SEQUENCE_BOUND_MS` are in no chain (never sequenced):
   * nothing covers them, so an edit or a deletion of them would not show (`message` says how many).
   */
  | 'uncovered'
  /** The log could not be read (`message` says why), or this store keeps none. */
  | 'unreadable'
  /** `verify({ approvals: true })`: a passkey approval does not prove itself (`approvals` names each). */
  | 'approvals';

/** What `registry.audit.verify()` answers. */
export type AuditVerification =
  | {
      readonly ok: true;
      readonly entries: number;
      readonly head: AuditHead;
      /**
       * Entries committed within the last `AUDIT_SEQUENCE_BOUND_MS` and not sequenced yet: in the log,
       * but neither this verification nor a signed head covers them yet. 0 when every entry is covered.
       * (One older than the bound and not sequenced makes the log fail as `uncovered`.)
       */
      readonly unsequenced: number;
      /** With `approvals: true`: how many passkey approvals were checked (none failed). */
      readonly approvals?: ApprovalsVerification;
    }
  | {
      readonly ok: false;
      /** Entries checked before the break. */
      readonly entries: number;
      /** The `seq` of the first bad entry (the first missing one for `deleted`). */
      readonly brokenAt: number;
      readonly reason: AuditBreak;
      readonly message: string;
      /** With `approvals: true` and reason `'approvals'`: each decision entry whose passkey approval fails. */
      readonly approvals?: ApprovalsVerification;
    };

type Broken = Extract<AuditVerification, { ok: false }>;

/**
 * Checks a chain page by page, oldest first: each `seq` follows the one before, each entry hashes to its
 * `hash`, each `prevHash` is the previous entry's `hash`. Feed it pages with `check`, then `end`.
 *
 * An entry rewritten *with* a recomputed hash is noticed by the next entry's `prevHash` and named as the
 * rewritten one. A row moved to another `seq` is told apart from an edited one when it hashes correctly
 * at the `seq` of another row of the same page.
 */
export class ChainCheck {
  #previous: AuditHead = { seq: 0, hash: GENESIS_HASH };
  #entries = 0;
  #broken: Broken | undefined;

  /** Checks the next page; false once broken (read no further). */
  check(page: readonly AuditEntry[]): boolean {
    if (this.#broken !== undefined) return false;
    for (const entry of page) {
      this.#broken = this.#breakAt(entry, page);
      if (this.#broken !== undefined) return false;
      this.#previous = { seq: entry.seq, hash: entry.hash };
      this.#entries++;
    }
    return true;
  }

  /** The verdict, against `signed` (a head proven by its signature) when given. */
  end(signed?: AuditHead): AuditVerification {
    if (this.#broken !== undefined) return this.#broken;
    const head = this.#previous;
    if (signed !== undefined) {
      if (head.seq < signed.seq)
        return this.#fail(
          head.seq + 1,
          'deleted',
          `the log ends at ${head.seq}; the signed head is at ${signed.seq}`,
        );
      // Only the head entry itself is compared: every entry before it is proven by the chain up to it.
      if (this.#hashAt.get(signed.seq) !== signed.hash)
        return this.#fail(signed.seq, 'edited', `entry ${signed.seq} is not the one whose hash was signed`);
    }
    return { ok: true, entries: this.#entries, head, unsequenced: 0 };
  }

  /** Hashes at the seqs a signed head asks about, remembered while they pass by. */
  readonly #hashAt = new Map<number, string>();

  /** Remembers the hash at `seq` for `end` (call before `check`); at 0, the empty log's, is the genesis. */
  watch(seq: number): void {
    this.#hashAt.set(seq, seq === 0 ? GENESIS_HASH : '');
  }

  #breakAt(entry: AuditEntry, page: readonly AuditEntry[]): Broken | undefined {
    const previous = this.#previous;
    const expected = previous.seq + 1;
    if (entry.seq > expected)
      return this.#fail(expected, 'deleted', `entries ${expected}…${entry.seq - 1} are missing`);
    if (entryHash(entry) !== entry.hash) {
      const moved = page.some(
        (other) => other.seq !== entry.seq && entryHash({ ...entry, seq: other.seq }) === entry.hash,
      );
      return moved
        ? this.#fail(entry.seq, 'reordered', `entry ${entry.seq} was written at another position`)
        : this.#fail(entry.seq, 'edited', `entry ${entry.seq} does not match its hash`);
    }
    if (entry.prevHash !== previous.hash)
      // It hashes, but does not follow the one before: that one was rewritten with a new hash.
      return previous.seq === 0
        ? this.#fail(entry.seq, 'edited', `entry ${entry.seq} does not start the chain`)
        : this.#fail(
            previous.seq,
            'edited',
            `entry ${previous.seq} was rewritten (the next entry does not follow it)`,
          );
    if (this.#hashAt.has(entry.seq)) this.#hashAt.set(entry.seq, entry.hash);
    return undefined;
  }

  #fail(brokenAt: number, reason: Broken['reason'], message: string): Broken {
    return { ok: false, entries: this.#entries, brokenAt, reason, message };
  }
}
