import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';
import { entryHash, GENESIS_HASH } from '../../audit/audit-entry.js';
import {
  type AuditRow,
  type AuditSequencer,
  draftOf,
  SEQUENCE_BATCH,
  UNSEQUENCED_COLUMNS,
} from './sql-audit.js';

/** The chain's links for `rows` (in the order given) after `head`: each entry's seq, prev_hash and hash. */
function chained(
  head: { seq: number; hash: string },
  rows: readonly AuditRow[],
): { id: string; seq: number; prevHash: string; hash: string }[] {
  let previous = head;
  return rows.map((row) => {
    const seq = previous.seq + 1;
    const hash = entryHash({ ...draftOf(row), seq, prevHash: previous.hash });
    const link = { id: String(row.id), seq, prevHash: previous.hash, hash };
    previous = { seq, hash };
    return link;
  });
}

const headOf = (row: { seq: unknown; hash: unknown } | undefined) =>
  row === undefined ? { seq: 0, hash: GENESIS_HASH } : { seq: Number(row.seq), hash: String(row.hash) };

/**
 * SQLite's sequencer: one `BEGIN IMMEDIATE` transaction per batch — the database's write lock makes
 * it the only sequencer, and it runs synchronously, so nothing of this process runs in between. Entries
 * are chained in `id` order, which is commit order (one writer at a time).
 */
export function sqliteSequencer(db: BetterSqlite3.Database, audit: string): AuditSequencer {
  let batch: ((limit: number) => number) | undefined;
  const prepare = () => {
    const head = db.prepare(`SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`);
    const unsequenced = db.prepare(
      `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT ?`,
    );
    const link = db.prepare(
      `UPDATE ${audit} SET seq = ?, prev_hash = ?, hash = ? WHERE id = ? AND seq IS NULL`,
    );
    const transaction = db.transaction((limit: number) => {
      const rows = unsequenced.all(limit) as AuditRow[];
      const last = head.get() as { seq: unknown; hash: unknown } | undefined;
      for (const { id, seq, prevHash, hash } of chained(headOf(last), rows))
        link.run(seq, prevHash, hash, Number(id));
      return rows.length;
    });
    return (limit: number): number => transaction.immediate(limit);
  };
  return async () => {
    batch ??= prepare();
    let total = 0;
    for (;;) {
      const done = batch(SEQUENCE_BATCH);
      total += done;
      if (done < SEQUENCE_BATCH) return total;
    }
  };
}

/**
 * PostgreSQL's sequencer: a transaction per batch under a transaction-scoped advisory lock (one key
 * per audit table), so one instance sequences at a time — the sequencer alone waits for it, never a
 * decision. An entry whose transaction commits later than a later `id`'s is simply chained later.
 */
export function postgresSequencer(pool: Pool, audit: string): AuditSequencer {
  const lockKey = `graded-tools-audit-sequencer:${audit}`;
  const one = async (): Promise<number> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
      const head = await client.query(
        `SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      );
      const { rows } = await client.query<AuditRow>(
        `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT $1`,
        [SEQUENCE_BATCH],
      );
      const links = chained(headOf(head.rows[0]), rows);
      if (links.length > 0)
        await client.query(
          `UPDATE ${audit} AS a SET seq = v.seq, prev_hash = v.prev_hash, hash = v.hash` +
            ' FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS v(id, seq, prev_hash, hash)' +
            ' WHERE a.id = v.id AND a.seq IS NULL',
          [
            links.map((l) => l.id),
            links.map((l) => l.seq),
            links.map((l) => l.prevHash),
            links.map((l) => l.hash),
          ],
        );
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  return async () => {
    let total = 0;
    for (;;) {
      const done = await one();
      total += done;
      if (done < SEQUENCE_BATCH) return total;
    }
  };
}
