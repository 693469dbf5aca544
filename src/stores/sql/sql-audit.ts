import type { AuditChain } from '../../audit/audit-chain.js';
import {
  type AuditDetail,
  type AuditEntry,
  type AuditKind,
  GENESIS_HASH,
  hashedTextAround,
} from '../../audit/audit-entry.js';
import { digestOf } from '../../confirm/digest.js';
import type { SqlDialect, SqlStatement } from './dialect.js';

/** How a database appends: SQLite in one `INSERT … SELECT`, PostgreSQL through a function that locks first. */
export type AuditFlavor = 'sqlite' | 'postgres';

/** The name of the SQLite function the SQLite store registers on its connection: SHA-256 as hex. */
export const SQLITE_SHA256 = 'graded_tools_sha256';

/** The audit table beside a confirmation table (`…_audit`, in the same schema). */
export function auditTableOf(table: string): string {
  return siblingOf(table, '_audit');
}

function siblingOf(table: string, suffix: string): string {
  const parts = table.split('.');
  const bare = (parts.pop() ?? table).replace(/^"|"$/g, '');
  return [...parts, `"${bare.slice(0, 63 - suffix.length)}${suffix}"`].join('.');
}

const COLUMNS = 'seq, at, kind, confirmation_id, tool, by_id, action, detail, prev_hash, hash';

/** The audit table (and, on PostgreSQL, its append function), each statement safe to run again. */
export function auditSchemaStatements(table: string, flavor: AuditFlavor): string[] {
  const audit = auditTableOf(table);
  const created = `CREATE TABLE IF NOT EXISTS ${audit} (
      seq ${flavor === 'sqlite' ? 'INTEGER' : 'bigint'} PRIMARY KEY NOT NULL,
      at bigint NOT NULL,
      kind text NOT NULL,
      confirmation_id text,
      tool text NOT NULL,
      by_id text,
      action text NOT NULL,
      detail text,
      prev_hash text NOT NULL,
      hash text NOT NULL
    )`;
  if (flavor === 'sqlite') return [created];
  return [
    created,
    `CREATE OR REPLACE FUNCTION ${appendFunctionOf(table)}(p_at bigint, p_kind text, p_confirmation_id text,
      p_tool text, p_by text, p_action text, p_detail text, p_head text, p_tail text)
    RETURNS TABLE (out_seq bigint, out_prev text, out_hash text) LANGUAGE plpgsql VOLATILE AS $audit$
    DECLARE last_seq bigint; last_hash text;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('graded-tools-audit:' || ${literal(audit)}));
      SELECT a.seq, a.hash INTO last_seq, last_hash FROM ${audit} a ORDER BY a.seq DESC LIMIT 1;
      IF NOT FOUND THEN last_seq := 0; last_hash := '${GENESIS_HASH}'; END IF;
      RETURN QUERY INSERT INTO ${audit} AS a (${COLUMNS})
        VALUES (last_seq + 1, p_at, p_kind, p_confirmation_id, p_tool, p_by, p_action, p_detail, last_hash,
          encode(sha256(convert_to(p_head || last_hash || '","seq":' || (last_seq + 1) || p_tail, 'UTF8')), 'hex'))
        RETURNING a.seq, a.prev_hash, a.hash;
    END
    $audit$`,
  ];
}

/** The append function beside the table (`…_audit_append`), quoted like it. */
function appendFunctionOf(table: string): string {
  return siblingOf(table, '_audit_append');
}

/** A quoted name as an SQL string literal (names are checked identifiers: no `'` in them). */
const literal = (name: string): string => `'${name}'`;

interface AuditRow {
  readonly seq: number | string;
  readonly at: number | string;
  readonly kind: string;
  readonly confirmation_id: string | null;
  readonly tool: string;
  readonly by_id: string | null;
  readonly action: string;
  readonly detail: string | null;
  readonly prev_hash: string;
  readonly hash: string;
}

function entryOf(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: Number(row.at),
    kind: row.kind as AuditKind,
    ...(row.confirmation_id === null ? {} : { confirmationId: row.confirmation_id }),
    tool: row.tool,
    ...(row.by_id === null ? {} : { by: row.by_id }),
    action: row.action,
    ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as AuditDetail }),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * The audit log of a SQL store, appended by one statement that reads the last entry and writes the
 * next, its hash computed by the database from the draft's canonical text around `prevHash` and `seq`:
 *
 * - SQLite: one `INSERT … SELECT` — a writing statement takes the database's write lock before it reads,
 *   so no other connection or process appends between its read of the last entry and its insert.
 * - PostgreSQL: one `SELECT` of a PL/pgSQL function that takes `pg_advisory_xact_lock` (a key derived
 *   from the table) and only then reads the last entry, in a statement of its own and so a snapshot
 *   taken after the lock (read committed, the default): the lock is held to the commit, so appends
 *   are serial. In one statement a lock would not help — its snapshot would predate the lock.
 *
 * Either way `seq` is the primary key: an append that somehow read a stale last entry fails; the chain
 * never forks. Statements are prepared on first use, so a read-only verifier needs neither the SQLite
 * function nor write access.
 */
export function sqlAuditChain(dialect: SqlDialect, flavor: AuditFlavor): AuditChain {
  const audit = auditTableOf(dialect.table);
  const lazy = (make: () => SqlStatement): (() => SqlStatement) => {
    let statement: SqlStatement | undefined;
    return () => {
      statement ??= make();
      return statement;
    };
  };
  const last = `(SELECT %s FROM ${audit} ORDER BY seq DESC LIMIT 1)`;
  const append = lazy(() =>
    flavor === 'sqlite'
      ? dialect.prepare(
          `INSERT INTO ${audit} (${COLUMNS}) SELECT p.seq + 1, $1, $2, $3, $4, $5, $6, $7, p.hash,` +
            ` ${SQLITE_SHA256}($8 || p.hash || '","seq":' || (p.seq + 1) || $9)` +
            ` FROM (SELECT coalesce(${last.replace('%s', 'seq')}, 0) AS seq,` +
            ` coalesce(${last.replace('%s', 'hash')}, '${GENESIS_HASH}') AS hash) AS p` +
            ` RETURNING ${COLUMNS}`,
          true,
        )
      : dialect.prepare(
          `SELECT out_seq AS seq, out_prev AS prev_hash, out_hash AS hash FROM ${appendFunctionOf(dialect.table)}($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          true,
        ),
  );
  const reads = new Map<string, SqlStatement>();
  const readPage = (since: boolean, until: boolean): SqlStatement => {
    const key = `${since}:${until}`;
    let statement = reads.get(key);
    if (statement === undefined) {
      const where = [
        'seq > $1',
        ...(since ? ['at >= $3'] : []),
        ...(until ? [`at < $${since ? 4 : 3}`] : []),
      ];
      statement = dialect.prepare(
        `SELECT ${COLUMNS} FROM ${audit} WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $2`,
        false,
      );
      reads.set(key, statement);
    }
    return statement;
  };
  const lastEntry = lazy(() =>
    dialect.prepare(`SELECT ${COLUMNS} FROM ${audit} ORDER BY seq DESC LIMIT 1`, false),
  );
  const rowsOf = (rows: readonly unknown[]): AuditEntry[] => (rows as readonly AuditRow[]).map(entryOf);

  return {
    async append(draft) {
      const { head, tail } = hashedTextAround(draft);
      const detail = draft.detail === undefined ? null : JSON.stringify(draft.detail);
      const { rows } = await append()([
        draft.at,
        draft.kind,
        draft.confirmationId ?? null,
        draft.tool,
        draft.by ?? null,
        draft.action,
        detail,
        head,
        tail,
      ]);
      const [row] = rows as readonly unknown[] as readonly Pick<AuditRow, 'seq' | 'prev_hash' | 'hash'>[];
      if (row === undefined) throw new Error('the audit append wrote no entry');
      return { ...draft, seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash };
    },
    async read({ afterSeq, limit, since, until }) {
      const values: unknown[] = [afterSeq, limit];
      if (since !== undefined) values.push(since);
      if (until !== undefined) values.push(until);
      return rowsOf((await readPage(since !== undefined, until !== undefined)(values)).rows);
    },
    async last() {
      return rowsOf((await lastEntry()([])).rows)[0];
    },
  };
}

/**
 * The SQLite store's audit log: registers `graded_tools_sha256` (deterministic) on the connection, for
 * the append statement to hash with.
 */
export function sqliteAuditChain(
  db: { function(name: string, options: { deterministic: boolean }, fn: (text: unknown) => string): unknown },
  dialect: SqlDialect,
): AuditChain {
  db.function(SQLITE_SHA256, { deterministic: true }, (text) => digestOf(String(text)));
  return sqlAuditChain(dialect, 'sqlite');
}
