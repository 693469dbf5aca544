import type { Pool } from 'pg';
import { entryHash, GENESIS_HASH } from '../../audit/audit-entry.js';
import type { D1Database } from './d1-dialect.js';
import {
  type AuditRow,
  type AuditSequencer,
  draftOf,
  SEQUENCE_BATCH,
  UNSEQUENCED_COLUMNS,
} from './sql-audit.js';
import type { SqliteDriver } from './sqlite-driver.js';

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
export function sqliteSequencer(db: SqliteDriver, audit: string): AuditSequencer {
  let batch: ((limit: number) => number) | undefined;
  const prepare = () => {
    const head = db.prepare(`SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`);
    const unsequenced = db.prepare(
      `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT $1`,
    );
    const link = db.prepare(
      `UPDATE ${audit} SET seq = $1, prev_hash = $2, hash = $3 WHERE id = $4 AND seq IS NULL`,
    );
    return db.immediate((limit: number): number => {
      const rows = unsequenced.all([limit]) as AuditRow[];
      const last = head.get([]) as { seq: unknown; hash: unknown } | undefined;
      for (const { id, seq, prevHash, hash } of chained(headOf(last), rows))
        link.run([seq, prevHash, hash, Number(id)]);
      return rows.length;
    });
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

/** How often D1's sequencer reads again after another isolate moved the head, before giving up. */
const D1_CONFLICTS = 20;

/**
 * D1's sequencer, safe with any number of isolates at once: read the head and the entries not yet
 * sequenced (one batch, one snapshot), chain them here, then write the links in one batch whose first
 * statement fails the whole batch when the head moved since the read (`json()` of non-JSON raises) —
 * another isolate sequenced meanwhile, so read again. Entries are chained in `id` order, which is
 * commit order (D1 has one writer).
 */
export function d1Sequencer(db: D1Database, audit: string, ready: () => Promise<void>): AuditSequencer {
  const head = `SELECT seq, hash FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`;
  const unsequenced = `SELECT ${UNSEQUENCED_COLUMNS} FROM ${audit} WHERE seq IS NULL ORDER BY id LIMIT ?1`;
  const guard =
    `SELECT CASE WHEN coalesce((SELECT max(seq) FROM ${audit}), 0) = ?1 THEN 1` +
    ` ELSE json('graded-tools: the audit head moved') END`;
  const link =
    `UPDATE ${audit} SET seq = json_extract(v.value, '$[1]'), prev_hash = json_extract(v.value, '$[2]'),` +
    ` hash = json_extract(v.value, '$[3]') FROM json_each(?1) AS v` +
    ` WHERE ${audit}.id = json_extract(v.value, '$[0]') AND ${audit}.seq IS NULL`;
  /** One batch: how many entries it chained, or `undefined` when another isolate moved the head. */
  const one = async (): Promise<number | undefined> => {
    const [last, pending] = await db.batch<AuditRow>([
      db.prepare(head),
      db.prepare(unsequenced).bind(SEQUENCE_BATCH),
    ]);
    const rows = pending?.results ?? [];
    if (rows.length === 0) return 0;
    const start = headOf(last?.results[0]);
    const links = chained(start, rows).map((l) => [Number(l.id), l.seq, l.prevHash, l.hash]);
    try {
      await db.batch([db.prepare(guard).bind(start.seq), db.prepare(link).bind(JSON.stringify(links))]);
      return rows.length;
    } catch (error) {
      if (/malformed JSON/i.test(String((error as Error)?.message))) return undefined;
      throw error;
    }
  };
  return async () => {
    await ready();
    let total = 0;
    for (let conflicts = 0; ; ) {
      const done = await one();
      if (done === undefined) {
        if (++conflicts > D1_CONFLICTS)
          throw new Error('graded-tools: could not sequence the audit log (too many concurrent sequencers)');
        continue;
      }
      total += done;
      if (done < SEQUENCE_BATCH) return total;
    }
  };
}
