import type { PasskeyVerifier } from '../passkeys/passkey-verifier.js';
import { describeThrown } from '../util/describe-thrown.js';
import type { AuditChain } from './audit-chain.js';
import { GENESIS_HASH } from './audit-entry.js';
import { type AuditKey, isAuditHeadSigned, type SignedAuditHead, signAuditHead } from './signed-head.js';
import { ApprovalsCheck } from './verify-approvals.js';
import { type AuditVerification, ChainCheck } from './verify-chain.js';

/** Entries read per page by `verify` and `export`. */
const PAGE = 500;

/**
 * The bound, in milliseconds, within which every store sequences what commits, with nothing called by
 * the app: SQLite chains each entry in the transaction that commits it, D1 in the write that commits
 * it, the memory store at every read, and a PostgreSQL store once a second from a timer of its own.
 * `verify` fails (`uncovered`) when an entry committed longer ago than this is still in no chain; the
 * margin over PostgreSQL's second allows for a slow sequencing and for clocks of different hosts.
 *
 * @example
 * ```ts
 * import { AUDIT_SEQUENCE_BOUND_MS } from 'graded-tools';
 *
 * console.log(`an entry is chained within ${AUDIT_SEQUENCE_BOUND_MS / 1000} s of its commit`);
 * ```
 */
export const AUDIT_SEQUENCE_BOUND_MS = 10_000;

/** How an `AuditLog` reads its chain. */
export interface AuditLogOptions {
  readonly now?: () => number;
  /**
   * A reader's log (the CLI's): it never sequences, so it needs no write access; what is not
   * sequenced is counted, never written.
   */
  readonly readOnly?: boolean;
  /** The registry's passkey verifier: `verify({ approvals: true })` checks passkey approvals with it. */
  readonly passkeys?: PasskeyVerifier | undefined;
}

/** `verify`'s options: a head signed earlier, and the public key to check its signature with. */
export interface AuditVerifyOptions {
  readonly signedHead?: SignedAuditHead;
  readonly publicKey?: AuditKey;
  /**
   * Also check every passkey approval offline, from the log alone (needs the registry's `passkeys`):
   * each is signed by a key registered earlier in the log to that approver, over that decision. The
   * answer's `approvals` names each entry that fails (`reason: 'approvals'`).
   */
  readonly approvals?: boolean;
}

/** `export`'s range: entries with `at` at or after `since` and before `until` (Date, ISO text or epoch ms). */
export interface AuditExportRange {
  readonly since?: Date | string | number | undefined;
  readonly until?: Date | string | number | undefined;
}

function epochOf(value: Date | string | number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`audit.export: \`${name}\` is not a time.`);
  return ms;
}

/**
 * The registry's tamper-evident audit log (`registry.audit`): every change of every confirmation and
 * every rule that refused a call, one hash chain per store with a store-wide `seq`. Each entry commits
 * with the change it records (a change whose entry cannot be written is not made: `AUDIT_FAILED`);
 * `sequence()` — run by `verify`, `export`, `signHead` and the registry's `sweep` — then chains the
 * committed entries in batches, off the decision path.
 *
 * What `verify()` alone catches: an entry edited, deleted or moved anywhere before the newest one.
 * What it does **not** catch without a signed head: the newest entries deleted (the chain just ends
 * sooner), and someone with write access rewriting the chain from some entry to the end with fresh
 * hashes (SHA-256 needs no key). Sign the head now and then (`signHead`) and keep the copy elsewhere:
 * `verify({ signedHead, publicKey })` then proves every entry up to it. Every store chains what
 * commits within `AUDIT_SEQUENCE_BOUND_MS` by itself; `verify` fails (`uncovered`) on an older entry
 * no chain covers, and counts younger ones as `unsequenced`.
 *
 * @example
 * ```ts
 * import { generateKeyPairSync } from 'node:crypto';
 * import { ToolRegistry } from 'graded-tools';
 *
 * const registry = new ToolRegistry();
 * const { privateKey, publicKey } = generateKeyPairSync('ed25519');
 * const signedHead = await registry.audit.signHead(privateKey); // keep it elsewhere
 * const checked = await registry.audit.verify({ signedHead, publicKey });
 * if (!checked.ok) console.log(checked.reason, checked.brokenAt);
 * for await (const line of registry.audit.export({ since: '2025-01-01' })) process.stdout.write(line);
 * ```
 */
export class AuditLog {
  readonly #chain: AuditChain | undefined;
  readonly #now: () => number;
  readonly #readOnly: boolean;
  readonly #passkeys: PasskeyVerifier | undefined;

  constructor(chain: AuditChain | undefined, options: AuditLogOptions = {}) {
    this.#chain = chain;
    this.#now = options.now ?? Date.now;
    this.#readOnly = options.readOnly === true;
    this.#passkeys = options.passkeys;
  }

  /** Sequences what is committed, unless this log only reads; a failure is left for `pending` to count. */
  async #sequenceQuietly(): Promise<void> {
    if (!this.#readOnly) await this.#chain?.sequence().catch(() => 0);
  }

  /**
   * How many committed entries no chain covers: `late` ones committed longer ago than
   * `AUDIT_SEQUENCE_BOUND_MS` (the log fails on them), `all` of them.
   */
  async uncovered(): Promise<{ readonly all: number; readonly late: number }> {
    const chain = this.#chain;
    if (chain === undefined) return { all: 0, late: 0 };
    const all = await chain.pending();
    const late = all === 0 ? 0 : await chain.pending(this.#now() - AUDIT_SEQUENCE_BOUND_MS);
    return { all, late };
  }

  /** Reads the whole log, page by page, and says whether it is one unbroken chain (and up to where). */
  async verify(options: AuditVerifyOptions = {}): Promise<AuditVerification> {
    const chain = this.#chain;
    const unreadable = (message: string): AuditVerification => ({
      ok: false,
      entries: 0,
      brokenAt: 0,
      reason: 'unreadable',
      message,
    });
    if (chain === undefined) return unreadable('this confirmation store keeps no audit log');
    const { signedHead, publicKey } = options;
    const approvals = options.approvals === true ? this.#passkeys : undefined;
    if (options.approvals === true && approvals === undefined)
      return unreadable(
        "checking approvals needs the registry's `passkeys` (createPasskeys from graded-tools/passkeys)",
      );
    const approvalsCheck = approvals === undefined ? undefined : new ApprovalsCheck(approvals);
    if (signedHead !== undefined) {
      if (publicKey === undefined || !isAuditHeadSigned(signedHead, publicKey))
        return {
          ok: false,
          entries: 0,
          brokenAt: signedHead.seq,
          reason: 'signature',
          message: 'the signed head does not verify with this public key',
        };
    }
    // What cannot be sequenced here (a read-only file) is counted below, not hidden.
    await this.#sequenceQuietly();
    const check = new ChainCheck();
    if (signedHead !== undefined) check.watch(signedHead.seq);
    let uncovered: { all: number; late: number };
    try {
      for (let afterSeq = 0; ; ) {
        const page = await chain.read({ afterSeq, limit: PAGE });
        const intact = check.check(page);
        await approvalsCheck?.add(page);
        if (!intact || page.length < PAGE) break;
        afterSeq = (page.at(-1) as { seq: number }).seq;
      }
      uncovered = await this.uncovered();
    } catch (error) {
      return unreadable(describeThrown(error).slice(0, 500));
    }
    const verdict = check.end(signedHead);
    if (!verdict.ok) return verdict;
    if (uncovered.late > 0)
      return {
        ok: false,
        entries: verdict.entries,
        brokenAt: verdict.head.seq + 1,
        reason: 'uncovered',
        message:
          `${uncovered.all} entries not covered: ${uncovered.late} of them committed more than ` +
          `${AUDIT_SEQUENCE_BOUND_MS / 1000} s ago and never sequenced (an edit or a deletion of them would not show)`,
      };
    if (approvalsCheck !== undefined) {
      const checked = approvalsCheck.result;
      const first = checked.problems[0];
      if (first !== undefined)
        return {
          ok: false,
          entries: verdict.entries,
          brokenAt: first.seq,
          reason: 'approvals',
          message: checked.problems
            .slice(0, 20)
            .map((problem) => `#${problem.seq} ${problem.confirmationId}: ${problem.reason}`)
            .join('; '),
          approvals: checked,
        };
      return { ...verdict, unsequenced: uncovered.all, approvals: checked };
    }
    return { ...verdict, unsequenced: uncovered.all };
  }

  /**
   * Chains every entry committed so far (each its `seq` and hashes); resolves with how many. The
   * registry's `sweep` calls it, and so do `verify`, `export` and `signHead`; call it on a schedule of
   * your own to keep the time an entry waits uncovered short.
   */
  async sequence(): Promise<number> {
    return (await this.#chain?.sequence()) ?? 0;
  }

  /**
   * The log as JSON Lines (one entry per string, newline-terminated), oldest first, read a page at a
   * time as the consumer pulls — a log of any size streams in constant memory.
   */
  async *export(range: AuditExportRange = {}): AsyncIterable<string> {
    const chain = this.#chain;
    if (chain === undefined) return;
    const since = epochOf(range.since, 'since');
    const until = epochOf(range.until, 'until');
    if (!this.#readOnly) await chain.sequence();
    for (let afterSeq = 0; ; ) {
      const page = await chain.read({ afterSeq, limit: PAGE, since, until });
      for (const entry of page) yield `${JSON.stringify(entry)}\n`;
      if (page.length < PAGE) return;
      afterSeq = (page.at(-1) as { seq: number }).seq;
    }
  }

  /**
   * Sequences what is committed, then signs the newest entry's `seq` and `hash` with an Ed25519 private
   * key the app keeps. Rejects when the log cannot be sequenced or read, or the key is not Ed25519.
   */
  async signHead(privateKey: AuditKey): Promise<SignedAuditHead> {
    await this.#chain?.sequence();
    const last = await this.#chain?.last();
    const head = last === undefined ? { seq: 0, hash: GENESIS_HASH } : { seq: last.seq, hash: last.hash };
    return signAuditHead(head, privateKey, this.#now());
  }

  /** True when `signed` carries a valid signature by the private half of `publicKey`. */
  verifyHead(signed: SignedAuditHead, publicKey: AuditKey): boolean {
    return isAuditHeadSigned(signed, publicKey);
  }
}

const logs = new WeakMap<object, AuditLog>();

/** The one `AuditLog` over a store's chain (`registry.audit`): registries sharing a store share it. */
export function auditLogOf(store: { readonly audit?: AuditChain | undefined }): AuditLog {
  let log = logs.get(store);
  if (log === undefined) {
    log = new AuditLog(store.audit);
    logs.set(store, log);
  }
  return log;
}
