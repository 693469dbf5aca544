import type { AuditDraft } from '../audit/audit-entry.js';
import type { PasskeyCredentialInfo } from '../passkeys/passkey-types.js';

/**
 * A challenge the registry made for a passkey ceremony: its single-use `nonce` (base64url, the key),
 * whom it is for, the hash of what it binds (hex; `''` for a registration) and when it stops counting.
 */
export interface PasskeyChallengeRecord {
  readonly nonce: string;
  readonly approver: string;
  readonly binding: string;
  readonly purpose: 'register' | 'approve';
  /** Epoch ms. */
  readonly expiresAt: number;
}

/**
 * Approvers' passkeys (`registry.passkeys`): their credentials, the challenges the registry made, the
 * counters. A registration and a removal each commit with their audit entry (one write); a challenge
 * is taken once (delete-returning); a counter moves only forward (compare-and-set).
 */
export interface PasskeyStore {
  /** Stores a new credential and appends `audit` in the same write; false (nothing written) when its id is kept already. */
  savePasskey(credential: PasskeyCredentialInfo, audit: AuditDraft): Promise<boolean>;
  /** The approver's credentials, oldest first. */
  listPasskeys(approver: string): Promise<readonly PasskeyCredentialInfo[]>;
  findPasskey(id: string): Promise<PasskeyCredentialInfo | undefined>;
  /** Deletes the approver's credential `id` and appends `audit` in the same write; false when there was none. */
  removePasskey(key: { readonly id: string; readonly approver: string }, audit: AuditDraft): Promise<boolean>;
  savePasskeyChallenge(challenge: PasskeyChallengeRecord): Promise<void>;
  /**
   * Takes the challenge of this nonce — deleted as it is read, so a second take finds none; one past
   * `expiresAt` at `now` is deleted and not answered.
   */
  takePasskeyChallenge(nonce: string, now: number): Promise<PasskeyChallengeRecord | undefined>;
  /**
   * Moves the counter of credential `id` from `from` to `to` only if it is still `from` (and `to` >
   * `from`, or both are 0: an authenticator that does not count); false otherwise.
   */
  advancePasskeyCounter(id: string, change: { readonly from: number; readonly to: number }): Promise<boolean>;
}
