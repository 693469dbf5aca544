import type { AuditChain } from '../../audit/audit-chain.js';
import type { AuditDetail, AuditDraft, AuditEntry, AuditKind } from '../../audit/audit-entry.js';
import { type BoundSql, CHANGED, type SqlDialect, type SqlStatement } from './dialect.js';

/** How a database keeps its audit table: the DDL differs, the statements do not. */
export type AuditFlavor = 'sqlite' | 'postgres';

/** The audit table beside a confirmation table (`…_audit`, in the same schema). */
export function auditTableOf(table: string): string {
  const parts = table.split('.');
  const bare = (parts.pop() ?? table).replace(/^"|"$/g, '');
  return [...parts, `"${bare.slice(0, 63 - '_audit'.length)}_audit"`].join('.');
}

/** The audit table's own unquoted name (for its index and for telling its errors apart). */
function bareName(audit: string): string {
  return (audit.split('.').pop() ?? audit).replace(/^"|"$/g, '');
}

/** The columns an entry is committed with; the sequencer adds `seq`, `prev_hash` and `hash`. */
const DRAFT_COLUMNS = 'at, kind, confirmation_id, tool, by_id, action, detail';
const ENTRY_COLUMNS = `seq, ${DRAFT_COLUMNS}, prev_hash, hash`;

/**
 * The audit table and its index of entries not yet sequenced, each statement safe to run again. `id`
 * is the commit's own key; `seq`, `prev_hash` and `hash` stay empty until the sequencer fills them.
 * A table an older version made (`seq` its key, every entry hashed at its insert) is rebuilt in place
 * first, its entries kept as sequenced ones.
 */
export function auditSchemaStatements(
  table: string,
  flavor: AuditFlavor,
  /** The audit table's columns now (none: it does not exist yet), for SQLite's rebuild. */
  sqliteColumns: readonly string[] = [],
): string[] {
  const audit = auditTableOf(table);
  const bare = bareName(audit);
  const createAs = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
      id ${flavor === 'sqlite' ? 'INTEGER PRIMARY KEY' : 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'},
      seq bigint UNIQUE,
      at bigint NOT NULL,
      kind text NOT NULL,
      confirmation_id text,
      tool text NOT NULL,
      by_id text,
      action text NOT NULL,
      detail text,
      prev_hash text,
      hash text
    )`;
  // `seq`'s own unique index finds the entries not sequenced yet (its NULLs): no second index to write.
  const index = `DROP INDEX IF EXISTS ${audit.replace(/"[^"]*"$/, `"${bare.slice(0, 50)}_unsequenced"`)}`;
  if (flavor === 'sqlite') {
    const rebuild =
      sqliteColumns.length > 0 && !sqliteColumns.includes('id')
        ? [
            'SAVEPOINT graded_tools_audit',
            `DROP TABLE IF EXISTS "${bare}__rebuilt"`,
            createAs(`"${bare}__rebuilt"`),
            `INSERT INTO "${bare}__rebuilt" (id, ${ENTRY_COLUMNS}) SELECT seq, ${ENTRY_COLUMNS} FROM ${audit} ORDER BY seq`,
            `DROP TABLE ${audit}`,
            `ALTER TABLE "${bare}__rebuilt" RENAME TO "${bare}"`,
            'RELEASE graded_tools_audit',
          ]
        : [];
    return [...rebuild, createAs(audit), index];
  }
  return [
    // An older table: `id` added (filled for the rows there), the key moved to it, `seq` kept unique.
    `DO $do$ BEGIN
  IF to_regclass('${audit}') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_attribute
      WHERE attrelid = to_regclass('${audit}') AND attname = 'id' AND NOT attisdropped) THEN
    ALTER TABLE ${audit} DROP CONSTRAINT IF EXISTS "${bare}_pkey";
    ALTER TABLE ${audit} ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
    ALTER TABLE ${audit} ALTER COLUMN seq DROP NOT NULL, ALTER COLUMN prev_hash DROP NOT NULL,
      ALTER COLUMN hash DROP NOT NULL;
    ALTER TABLE ${audit} ADD CONSTRAINT "${bare.slice(0, 55)}_seq_key" UNIQUE (seq);
  END IF;
END $do$`,
    `DROP FUNCTION IF EXISTS ${audit.replace(/"$/, '_append"')}(bigint, text, text, text, text, text, text, text, text)`,
    createAs(audit),
    index,
  ];
}

/** A row of the audit table as the drivers hand it back. */
export interface AuditRow {
  readonly id?: number | string;
  readonly seq: number | string | null;
  readonly at: number | string;
  readonly kind: string;
  readonly confirmation_id: string | null;
  readonly tool: string;
  readonly by_id: string | null;
  readonly action: string;
  readonly detail: string | null;
  readonly prev_hash: string | null;
  readonly hash: string | null;
}

/** A stored row as the draft it was committed as: what the sequencer hashes, exactly as stored. */
export function draftOf(row: AuditRow): AuditDraft {
  return {
    at: Number(row.at),
    kind: row.kind as AuditKind,
    ...(row.confirmation_id === null ? {} : { confirmationId: row.confirmation_id }),
    tool: row.tool,
    ...(row.by_id === null ? {} : { by: row.by_id }),
    action: row.action,
    ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as AuditDetail }),
  };
}

function entryOf(row: AuditRow): AuditEntry {
  return { ...draftOf(row), seq: Number(row.seq), prevHash: row.prev_hash ?? '', hash: row.hash ?? '' };
}

/** A draft's values in `DRAFT_COLUMNS` order. */
function draftValues(draft: AuditDraft): unknown[] {
  return [
    draft.at,
    draft.kind,
    draft.confirmationId ?? null,
    draft.tool,
    draft.by ?? null,
    draft.action,
    draft.detail === undefined ? null : JSON.stringify(draft.detail),
  ];
}

/** Sequences what is committed: the part of the chain each database does its own way. */
export type AuditSequencer = () => Promise<number>;

/** How a store gets its entries chained within `AUDIT_SEQUENCE_BOUND_MS` with nothing called by the app. */
export interface AuditCoverage {
  /** Called as an entry is about to commit (a SQLite or PostgreSQL store starts its sequencing timer). */
  readonly onRecord?: () => void;
  /** Sequence as soon as an entry committed alone (`append`) has (D1: no timer runs across requests). */
  readonly sequenceAfterAppend?: boolean;
}

/**
 * A SQL store's audit log. An entry is committed by `recordOf` inside the change it records (see
 * `SqlDialect.together`) or alone by `append`; `sequence` (the database's own sequencer) chains them.
 * Reads see sequenced entries only, by the unique `seq`.
 */
export function sqlAuditChain(
  dialect: SqlDialect,
  sequence: AuditSequencer,
  coverage: AuditCoverage = {},
): AuditChain & {
  /** The insert that commits `draft` with a change (its condition is the change's). */
  recordOf(draft: AuditDraft): BoundSql;
} {
  const audit = auditTableOf(dialect.table);
  // Never relaxed: it commits with its change, whose own statement says whether to wait for the disk.
  const recordSql = `INSERT INTO ${audit} (${DRAFT_COLUMNS}) SELECT CAST($1 AS bigint), $2, $3, $4, $5, $6, $7 WHERE ${CHANGED}`;
  const lazy = (make: () => SqlStatement): (() => SqlStatement) => {
    let statement: SqlStatement | undefined;
    return () => {
      statement ??= make();
      return statement;
    };
  };
  const insert = lazy(() =>
    dialect.prepare(
      `INSERT INTO ${audit} (${DRAFT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, ${dialect.relaxed('$7')})`,
      false,
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
        `SELECT ${ENTRY_COLUMNS} FROM ${audit} WHERE ${where.join(' AND ')} ORDER BY seq LIMIT $2`,
        false,
      );
      reads.set(key, statement);
    }
    return statement;
  };
  const lastEntry = lazy(() =>
    dialect.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM ${audit} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1`,
      false,
    ),
  );
  const countPending = lazy(() =>
    dialect.prepare(`SELECT count(*) AS pending FROM ${audit} WHERE seq IS NULL AND at < $1`, false),
  );
  const rowsOf = (rows: readonly unknown[]): AuditEntry[] => (rows as readonly AuditRow[]).map(entryOf);

  return {
    recordOf: (draft) => {
      coverage.onRecord?.();
      return { sql: recordSql, values: draftValues(draft) };
    },
    async append(draft) {
      coverage.onRecord?.();
      await insert()(draftValues(draft));
      // Committed: a failure to chain it leaves it pending for the next write or sweep.
      if (coverage.sequenceAfterAppend) await sequence().catch(() => 0);
    },
    sequence,
    async pending(before = Number.MAX_SAFE_INTEGER) {
      const [row] = (await countPending()([before])).rows as readonly unknown[] as readonly {
        pending: unknown;
      }[];
      return Number(row?.pending ?? 0);
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

/** The columns the sequencers read of an entry not yet sequenced. */
export const UNSEQUENCED_COLUMNS = `id, ${ENTRY_COLUMNS}`;
/** Entries one sequencing transaction chains at most. */
export const SEQUENCE_BATCH = 1_000;
