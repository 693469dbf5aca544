import { type D1Database, d1Dialect, d1Sequencer, marksSchema } from './sql/d1-dialect.js';
import { schemaStatements } from './sql/schema.js';
import { auditSchemaStatements, auditTableOf, sqlAuditChain } from './sql/sql-audit.js';
import { createSqlStore } from './sql/sql-store.js';
import { DEFAULT_TABLE, quoteTableName } from './sql/table-name.js';
import type { StoreCapability, StoreWith } from './store.js';

export type { D1Database, D1PreparedStatement, D1Result } from './sql/d1-dialect.js';

/** Options for `createD1Store`. */
export interface D1StoreOptions {
  /** The D1 binding (`env.DB`). */
  readonly database: D1Database;
  /** The table (default `graded_tools_confirmations`); created with its siblings if missing. */
  readonly table?: string;
}

/**
 * A `ConfirmationStore` on Cloudflare D1: every capability but `watch` (D1 tells no one about
 * changes), with its schema step.
 */
export interface D1ConfirmationStore extends StoreWith<Exclude<StoreCapability, 'watch'>> {
  /** The quoted table name in use. */
  readonly table: string;
  /**
   * Creates the tables and indexes if missing, in one batch. The store also runs it once by itself
   * before its first statement; call it at deploy time to keep that out of a request.
   */
  migrate(): Promise<void>;
}

/**
 * A confirmation store on Cloudflare D1, for Workers. Each status change is one conditional
 * `UPDATE … WHERE id = ? AND revision = ?` in one `batch` (one transaction) with its audit entry, a
 * link it spends and the limit counts it moves, so of any number of isolates confirming the same id,
 * exactly one claims it, and no change is without its entry. The audit log is chained by conditional
 * batches that fail as a whole when another isolate got there first.
 *
 * @example
 * ```ts
 * import { ToolRegistry } from 'graded-tools';
 * import { type D1Database, createD1Store } from 'graded-tools/d1';
 *
 * export default {
 *   async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
 *     const registry = new ToolRegistry({ confirmations: createD1Store({ database: env.DB }) });
 *     const listed = await registry.confirmations.list({ status: 'pending' });
 *     return Response.json({ url: request.url, pending: listed.ok ? listed.confirmations.length : 0 });
 *   },
 * };
 * ```
 */
export function createD1Store(options: D1StoreOptions): D1ConfirmationStore {
  const database = options?.database as Partial<D1Database> | undefined;
  if (typeof database?.prepare !== 'function' || typeof database.batch !== 'function') {
    throw new TypeError('createD1Store: pass { database } (a D1 binding such as env.DB).');
  }
  const db = database as D1Database;
  const tableName = options.table ?? DEFAULT_TABLE;
  const table = quoteTableName(tableName, false);
  let made: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    made ??= migrate().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
  // No timer runs across requests on Workers: each write chains the entries pending before it resolves.
  const sequence = d1Sequencer(db, auditTableOf(table), ready);
  // Writes of one store at once share one chaining pass (and one more for those that committed while
  // it ran), instead of each racing the others for the head and reading again.
  let chaining: Promise<unknown> | undefined;
  let again = false;
  const chainPending = (): Promise<unknown> => {
    if (chaining !== undefined) {
      again = true;
      return chaining;
    }
    chaining = (async () => {
      try {
        do {
          again = false;
          await sequence();
        } while (again);
      } finally {
        chaining = undefined;
      }
    })();
    return chaining;
  };
  const dialect = d1Dialect({ db, table, tableName, ready, chainAfterRecords: chainPending });
  async function migrate(): Promise<void> {
    const statements = [
      ...schemaStatements(dialect),
      ...auditSchemaStatements(table, 'sqlite'),
      marksSchema(table),
    ];
    await db.batch(statements.map((sql) => db.prepare(sql)));
  }
  const store = createSqlStore(dialect, sqlAuditChain(dialect, sequence, { sequenceAfterAppend: true }));
  return {
    ...store,
    table,
    async migrate() {
      await migrate();
      made ??= Promise.resolve();
    },
  };
}
