import type { AuditDraft } from '../../audit/audit-entry.js';
import type { PasskeyCredentialInfo } from '../../passkeys/passkey-types.js';
import type { PasskeyChallengeRecord, PasskeyStore } from '../store.js';
import type { BoundSql, SqlDialect } from './dialect.js';
import { pruneInBatches } from './prune-batches.js';
import { passkeyChallengesTableOf, passkeysTableOf } from './table-name.js';

interface PasskeyRow {
  readonly id: string;
  readonly approver: string;
  readonly public_key: string;
  readonly counter: number | string;
  readonly transports: string;
  readonly label: string | null;
  readonly created_at: unknown;
}

interface ChallengeRow {
  readonly nonce: string;
  readonly approver: string;
  readonly binding: string;
  readonly purpose: string;
  readonly expires_at: unknown;
}

/**
 * Approvers' passkeys over a `SqlDialect`: a registration is an `INSERT … ON CONFLICT DO NOTHING` and a
 * removal a `DELETE`, each committed with its audit entry (`together`); a challenge is taken by one
 * `DELETE … RETURNING` (a second take finds none); the counter moves by one conditional `UPDATE`.
 */
export function sqlPasskeys(
  dialect: SqlDialect,
  recordOf: (draft: AuditDraft) => BoundSql,
): PasskeyStore & {
  /** Deletes challenges that expired before `before` (epoch ms), in batches. */
  prunePasskeyChallenges(before: number): Promise<void>;
} {
  const passkeys = passkeysTableOf(dialect.table);
  const challenges = passkeyChallengesTableOf(dialect.table);
  const insertSql = `INSERT INTO ${passkeys} (id, approver, public_key, counter, transports, label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`;
  const deleteSql = `DELETE FROM ${passkeys} WHERE id = $1 AND approver = $2`;
  const byApprover = dialect.prepare(
    `SELECT * FROM ${passkeys} WHERE approver = $1 ORDER BY created_at, id`,
    false,
  );
  const byId = dialect.prepare(`SELECT * FROM ${passkeys} WHERE id = $1`, false);
  const advance = dialect.prepare(`UPDATE ${passkeys} SET counter = $3 WHERE id = $1 AND counter = $2`, true);
  const saveChallenge = dialect.prepare(
    `INSERT INTO ${challenges} (nonce, approver, binding, purpose, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    false,
  );
  const take = dialect.prepare(`DELETE FROM ${challenges} WHERE nonce = $1 RETURNING *`, true);
  const prune = dialect.prepare(
    `DELETE FROM ${challenges} WHERE nonce IN (SELECT nonce FROM ${challenges} WHERE expires_at < $1 LIMIT $2)`,
    false,
  );
  const ms = (stored: unknown): number => Date.parse(dialect.isoOf(stored));
  const fromRow = (row: PasskeyRow): PasskeyCredentialInfo => ({
    id: row.id,
    approver: row.approver,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as string[],
    createdAt: new Date(ms(row.created_at)).toISOString(),
    ...(row.label === null || row.label === undefined ? {} : { label: row.label }),
  });
  return {
    async savePasskey(credential, draft) {
      const change = {
        sql: insertSql,
        values: [
          credential.id,
          credential.approver,
          credential.publicKey,
          credential.counter,
          JSON.stringify(credential.transports),
          credential.label ?? null,
          dialect.time(Date.parse(credential.createdAt)),
        ],
      };
      return (await dialect.together(change, [recordOf(draft)], true)) === 1;
    },
    async listPasskeys(approver) {
      return ((await byApprover([approver])).rows as unknown as PasskeyRow[]).map(fromRow);
    },
    async findPasskey(id) {
      const [row] = (await byId([id])).rows as unknown as PasskeyRow[];
      return row === undefined ? undefined : fromRow(row);
    },
    async removePasskey({ id, approver }, draft) {
      return (
        (await dialect.together({ sql: deleteSql, values: [id, approver] }, [recordOf(draft)], true)) === 1
      );
    },
    async savePasskeyChallenge(challenge) {
      await saveChallenge([
        challenge.nonce,
        challenge.approver,
        challenge.binding,
        challenge.purpose,
        dialect.time(challenge.expiresAt),
      ]);
    },
    async takePasskeyChallenge(nonce, now) {
      const [row] = (await take([nonce])).rows as unknown as ChallengeRow[];
      if (row === undefined) return undefined;
      const expiresAt = ms(row.expires_at);
      if (expiresAt <= now) return undefined;
      const record: PasskeyChallengeRecord = {
        nonce: row.nonce,
        approver: row.approver,
        binding: row.binding,
        purpose: row.purpose === 'register' ? 'register' : 'approve',
        expiresAt,
      };
      return record;
    },
    async advancePasskeyCounter(id, { from, to }) {
      if (!(to > from || (to === 0 && from === 0))) return false;
      return (await advance([id, from, to])).changed === 1;
    },
    async prunePasskeyChallenges(before) {
      await pruneInBatches(prune, dialect.time(before));
    },
  };
}
