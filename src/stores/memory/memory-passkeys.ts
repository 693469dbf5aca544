import type { MemoryAuditChain } from '../../audit/memory-audit.js';
import type { PasskeyCredentialInfo } from '../../passkeys/passkey-types.js';
import type { PasskeyChallengeRecord, PasskeyStore } from '../store.js';

/** Challenges kept at most: past this, expired ones leave first, then the oldest. */
const MAX_CHALLENGES = 10_000;

/**
 * The memory store's passkeys: credentials by id, challenges by nonce. A registration or removal and
 * its audit entry happen in one synchronous step (the entry first: a full log refuses the change).
 */
export function memoryPasskeys(audit: MemoryAuditChain): PasskeyStore {
  const credentials = new Map<string, PasskeyCredentialInfo>();
  const challenges = new Map<string, PasskeyChallengeRecord>();
  return {
    async savePasskey(credential, draft) {
      if (credentials.has(credential.id)) return false;
      audit.commit(draft);
      credentials.set(
        credential.id,
        Object.freeze({ ...credential, transports: [...credential.transports] }),
      );
      return true;
    },
    async listPasskeys(approver) {
      return [...credentials.values()].filter((credential) => credential.approver === approver);
    },
    async findPasskey(id) {
      return credentials.get(id);
    },
    async removePasskey({ id, approver }, draft) {
      if (credentials.get(id)?.approver !== approver) return false;
      audit.commit(draft);
      credentials.delete(id);
      return true;
    },
    async savePasskeyChallenge(challenge) {
      if (challenges.size >= MAX_CHALLENGES) {
        const now = Date.now();
        for (const [nonce, kept] of challenges) if (kept.expiresAt <= now) challenges.delete(nonce);
        if (challenges.size >= MAX_CHALLENGES) challenges.delete(challenges.keys().next().value as string);
      }
      challenges.set(challenge.nonce, Object.freeze({ ...challenge }));
    },
    async takePasskeyChallenge(nonce, now) {
      const kept = challenges.get(nonce);
      challenges.delete(nonce);
      return kept === undefined || kept.expiresAt <= now ? undefined : kept;
    },
    async advancePasskeyCounter(id, { from, to }) {
      const kept = credentials.get(id);
      if (kept === undefined || kept.counter !== from || !(to > from || (to === 0 && from === 0)))
        return false;
      credentials.set(id, Object.freeze({ ...kept, counter: to }));
      return true;
    },
  };
}
