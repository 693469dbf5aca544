import type BetterSqlite3 from 'better-sqlite3';
import {
  type BunSqliteDatabase,
  type NodeSqliteDatabase,
  type SqliteDriver,
  sqliteDriverOf,
} from './sqlite-driver.js';

/** Opens a SQLite file: read-only for a reader (which must then exist). */
export type SqliteOpener = (path: string, options?: { readonly readOnly?: boolean }) => SqliteDriver;

// A built-in module, never bundled: named through a constant so that neither TypeScript's Node 20
// types nor a bundler for another runtime tries to resolve it.
const BUN_SQLITE = 'bun:sqlite';
const NODE_SQLITE = 'node:sqlite';

type BunDatabase = new (path: string, options?: { readonly?: boolean }) => BunSqliteDatabase;
type NodeDatabase = new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;

/**
 * How a file is opened on this runtime: `bun:sqlite` on Bun; otherwise better-sqlite3 if it is
 * installed and loads here (its native addon is built for one Node ABI, and Deno refuses it);
 * otherwise `node:sqlite` (Node >= 22.5, Deno). A missing driver is an error only when a file is to
 * be opened.
 */
async function findOpener(): Promise<SqliteOpener | { readonly missing: unknown }> {
  if (typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined') {
    const bun = (await import(BUN_SQLITE)) as { Database: BunDatabase };
    return (path, options) =>
      sqliteDriverOf(options?.readOnly ? new bun.Database(path, { readonly: true }) : new bun.Database(path));
  }
  let missing: unknown;
  try {
    const loaded = (await import('better-sqlite3')) as { default?: typeof BetterSqlite3 };
    const Better = (loaded.default ?? loaded) as typeof BetterSqlite3;
    new Better(':memory:').close();
    return (path, options) =>
      sqliteDriverOf(
        options?.readOnly ? new Better(path, { readonly: true, fileMustExist: true }) : new Better(path),
      );
  } catch (error) {
    missing = error;
  }
  try {
    const node = (await import(NODE_SQLITE)) as { DatabaseSync: NodeDatabase };
    return (path, options) =>
      sqliteDriverOf(
        options?.readOnly ? new node.DatabaseSync(path, { readOnly: true }) : new node.DatabaseSync(path),
      );
  } catch {
    return { missing };
  }
}

let found: Promise<SqliteOpener | { readonly missing: unknown }> | undefined;

/** This runtime's way to open a SQLite file, found once; rejects when it has no driver. */
export async function sqliteOpener(): Promise<SqliteOpener> {
  found ??= findOpener();
  const opener = await found;
  if (typeof opener === 'function') return opener;
  throw new Error(
    'graded-tools needs a SQLite driver: npm install better-sqlite3@12 (an optional peer dependency), or run on Node >= 22.5 (node:sqlite), Deno, or Bun (bun:sqlite)',
    { cause: opener.missing },
  );
}
