import type BetterSqlite3 from 'better-sqlite3';

/** A statement of Node's `node:sqlite` or Bun's `bun:sqlite` (the part the store uses). */
interface BuiltinStatement {
  run(...values: unknown[]): { readonly changes: number | bigint };
  all(...values: unknown[]): unknown[];
  get(...values: unknown[]): unknown;
}

/** A `DatabaseSync` of Node's built-in `node:sqlite` (Node >= 22.5, Deno), declared by shape. */
export interface NodeSqliteDatabase {
  prepare(sql: string): BuiltinStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen?: boolean;
}

/** A `Database` of Bun's built-in `bun:sqlite`, declared by shape. */
export interface BunSqliteDatabase {
  prepare(sql: string): BuiltinStatement;
  query(sql: string): unknown;
  exec(sql: string): unknown;
  transaction(fn: (...args: never[]) => unknown): unknown;
  close(): void;
}

/**
 * A `Database` of better-sqlite3, declared by shape so the store's types need no
 * `@types/better-sqlite3` (a Bun or Deno project has none): better-sqlite3's `Database` fits.
 */
export interface BetterSqlite3Database {
  prepare(sql: string): unknown;
  pragma(source: string, options?: unknown): unknown;
  transaction(fn: (...args: never[]) => unknown): unknown;
  exec(sql: string): unknown;
  close(): unknown;
  readonly open: boolean;
}

/** A database object of any driver the SQLite store takes. */
export type SqliteDatabase = BetterSqlite3Database | NodeSqliteDatabase | BunSqliteDatabase;

/** A prepared statement; its `$1, $2, …` are bound from an array, the way its driver needs. */
export interface SqliteStatement {
  /** Runs it; how many rows it changed. */
  run(values: readonly unknown[]): number;
  all(values: readonly unknown[]): unknown[];
  get(values: readonly unknown[]): unknown;
  /** It returns rows (a `SELECT`, a `PRAGMA` read, a `RETURNING`). */
  readonly reader: boolean;
}

/** The one seam between the SQLite store and its driver. */
export interface SqliteDriver {
  readonly kind: 'better-sqlite3' | 'node:sqlite' | 'bun:sqlite';
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  /** `fn` as one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it throws. */
  immediate<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result;
  close(): void;
  readonly isOpen: boolean;
}

/** `$1, $2, …` are named parameters to better-sqlite3: bound from an object keyed 1, 2, …. */
function named(values: readonly unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  for (let i = 0; i < values.length; i++) bound[i + 1] = values[i];
  return bound;
}

function betterSqlite3(db: BetterSqlite3.Database): SqliteDriver {
  return {
    kind: 'better-sqlite3',
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        run: (values) => statement.run(named(values)).changes,
        all: (values) => statement.all(named(values)),
        get: (values) => statement.get(named(values)),
        reader: statement.reader,
      };
    },
    exec: (sql) => void db.exec(sql),
    immediate(fn) {
      const transaction = db.transaction(fn);
      return (...args) => transaction.immediate(...args);
    },
    close: () => db.close(),
    get isOpen() {
      return db.open;
    },
  };
}

/** Statements whose rows are read (the built-in drivers run either kind with either method). */
const READS = /^\s*(SELECT|PRAGMA\s+\w+\s*(\(|$))|\bRETURNING\b/i;
/** `$n` as `?n`, bound by position: both built-in drivers take positional values that way. */
const positional = (sql: string): string => sql.replace(/\$(\d+)/g, '?$1');
const bindable = (values: readonly unknown[]): unknown[] =>
  values.map((value) => (value === undefined ? null : value));

/** `node:sqlite` and `bun:sqlite`: the same statement API; transactions by hand. */
function builtin(
  db: NodeSqliteDatabase | BunSqliteDatabase,
  kind: 'node:sqlite' | 'bun:sqlite',
): SqliteDriver {
  let open = true;
  const exec = (sql: string) => void db.exec(sql);
  return {
    kind,
    prepare(sql) {
      const statement = db.prepare(positional(sql));
      return {
        run: (values) => Number(statement.run(...bindable(values)).changes),
        all: (values) => statement.all(...bindable(values)),
        // bun:sqlite answers null for no row; node:sqlite undefined.
        get: (values) => statement.get(...bindable(values)) ?? undefined,
        reader: READS.test(sql),
      };
    },
    exec,
    immediate(fn) {
      return (...args) => {
        exec('BEGIN IMMEDIATE');
        let result: ReturnType<typeof fn>;
        try {
          result = fn(...args);
          exec('COMMIT');
        } catch (error) {
          try {
            exec('ROLLBACK');
          } catch {
            // Already rolled back (a failed COMMIT can end the transaction itself).
          }
          throw error;
        }
        return result;
      };
    },
    close() {
      open = false;
      db.close();
    },
    get isOpen() {
      return open && (db as NodeSqliteDatabase).isOpen !== false;
    },
  };
}

/**
 * The driver seam for a database object of better-sqlite3, `node:sqlite` or `bun:sqlite`, told apart
 * by shape (none of them is imported here); anything else is a `TypeError`.
 */
export function sqliteDriverOf(database: SqliteDatabase): SqliteDriver {
  const db = database as unknown as Record<string, unknown>;
  const has = (name: string) => typeof db?.[name] === 'function';
  if (has('pragma') && has('transaction') && has('prepare'))
    return betterSqlite3(database as unknown as BetterSqlite3.Database);
  if (has('query') && has('transaction') && has('prepare') && has('exec'))
    return builtin(database as BunSqliteDatabase, 'bun:sqlite');
  if (has('prepare') && has('exec') && has('close'))
    return builtin(database as NodeSqliteDatabase, 'node:sqlite');
  throw new TypeError(
    'createSqliteStore: `database` must be a better-sqlite3 Database, a node:sqlite DatabaseSync or a bun:sqlite Database.',
  );
}
