import type { ApprovalLinkRecord, LinkApprover, LinkStore } from '../store.js';
import type { SqlDialect } from './dialect.js';
import { pruneInBatches } from './prune-batches.js';
import { linksTableOf } from './table-name.js';

/** A row of the links table, as the drivers hand it back. */
interface LinkRow {
  readonly token_hash: string;
  readonly confirmation_id: string;
  readonly digest: string;
  readonly approver: string;
  readonly created_at: unknown;
  readonly expires_at: unknown;
  readonly used_at: unknown;
}

/**
 * The store's one-time approval links over a `SqlDialect`: an insert, a lookup by token hash, and a
 * use that is one conditional `UPDATE … WHERE used_at IS NULL AND expires_at > now`, so exactly one
 * caller in any number of processes gets it. The use is a decision: its commit reaches the disk.
 */
export function sqlLinks(dialect: SqlDialect): LinkStore & {
  /** Deletes links that expired before `before` (epoch ms), in batches. */
  pruneLinks(before: number): Promise<void>;
} {
  const links = linksTableOf(dialect.table);
  const insert = dialect.prepare(
    `INSERT INTO ${links} (token_hash, confirmation_id, digest, approver, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    false,
  );
  const select = dialect.prepare(`SELECT * FROM ${links} WHERE token_hash = $1`, false);
  const use = dialect.prepare(
    `UPDATE ${links} SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    true,
  );
  const prune = dialect.prepare(
    `DELETE FROM ${links} WHERE token_hash IN (SELECT token_hash FROM ${links} WHERE expires_at < $1 LIMIT $2)`,
    false,
  );
  const ms = (stored: unknown): number => Date.parse(dialect.isoOf(stored));
  const fromRow = (row: LinkRow): ApprovalLinkRecord => ({
    tokenHash: row.token_hash,
    confirmationId: row.confirmation_id,
    digest: row.digest,
    approver: JSON.parse(row.approver) as LinkApprover,
    createdAt: ms(row.created_at),
    expiresAt: ms(row.expires_at),
    ...(row.used_at === null || row.used_at === undefined ? {} : { usedAt: ms(row.used_at) }),
  });
  return {
    async saveLink(link) {
      await insert([
        link.tokenHash,
        link.confirmationId,
        link.digest,
        JSON.stringify(link.approver),
        dialect.time(link.createdAt),
        dialect.time(link.expiresAt),
      ]);
    },
    async findLink(tokenHash) {
      const [row] = (await select([tokenHash])).rows as unknown as LinkRow[];
      return row === undefined ? undefined : fromRow(row);
    },
    async useLink(tokenHash, { now }) {
      return (await use([tokenHash, dialect.time(now)])).changed === 1;
    },
    async pruneLinks(before) {
      await pruneInBatches(prune, dialect.time(before));
    },
  };
}
