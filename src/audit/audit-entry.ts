import { writeCanonical } from '../util/canonical-json.js';
import { digestOf } from '../util/sha256.js';

/**
 * What an audit entry is about: a confirmation's change (a link spent is part of it), a rule that
 * refused a call, a passkey registered or removed (`registered`, `removed`) or refused (`refused`).
 */
export type AuditKind = 'confirmation' | 'rule' | 'passkey';

/** Plain JSON an entry's `detail` may hold: ids, statuses, counts, a rule's name — never a payload. */
export type AuditDetail = Readonly<Record<string, string | number | boolean>>;

/** An entry before the store gives it its place in the chain. */
export interface AuditDraft {
  /** When it happened (epoch ms from the registry's clock). */
  readonly at: number;
  readonly kind: AuditKind;
  readonly confirmationId?: string;
  /** The tool's internal name. */
  readonly tool: string;
  /** The id of who did it; absent for the system's own steps. */
  readonly by?: string;
  /** `created`, `approved`, `confirmed`, `delivered` … for a confirmation; `deny`, `limit`, `error` for a rule. */
  readonly action: string;
  readonly detail?: AuditDetail;
}

/**
 * One entry of the audit log: its place (`seq`, from 1, without gaps), the SHA-256 of the entry
 * before it (`prevHash`; 64 zeros for the first) and its own `hash` — the SHA-256 of the canonical
 * JSON of every other field, `prevHash` and `seq` included.
 */
export interface AuditEntry extends AuditDraft {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}

/** The `prevHash` of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a hash covers, with absent optional ones left out (not `null`). */
function hashedFields(entry: Omit<AuditEntry, 'hash'>): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    action: entry.action,
    at: entry.at,
    kind: entry.kind,
    prevHash: entry.prevHash,
    seq: entry.seq,
    tool: entry.tool,
  };
  if (entry.by !== undefined) fields.by = entry.by;
  if (entry.confirmationId !== undefined) fields.confirmationId = entry.confirmationId;
  if (entry.detail !== undefined) fields.detail = entry.detail;
  return fields;
}

/** The SHA-256 (hex) an entry must carry as `hash`. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return digestOf(writeCanonical(hashedFields(entry)));
}

/**
 * The canonical JSON of a draft's entry around the two values only the store knows, so a database can
 * hash it inside its one append statement: `head + prevHash + '","seq":' + seq + tail`. Keys sort as
 * `… kind, prevHash, seq, tool`, so those two sit between every other field and `tool`.
 */
export function hashedTextAround(draft: AuditDraft): { readonly head: string; readonly tail: string } {
  const whole = writeCanonical(hashedFields({ ...draft, prevHash: '', seq: 0 }));
  const at = whole.lastIndexOf(',"prevHash":""');
  return { head: `${whole.slice(0, at)},"prevHash":"`, tail: whole.slice(whole.indexOf(',"tool":', at)) };
}
