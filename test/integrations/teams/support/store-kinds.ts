// The stores the Teams scenarios run on: each gives two instances of one store, as two app instances
// behind a load balancer would share it.
import { join } from 'node:path';
import { createMemoryStore } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { storeTables, uniqueTable } from '../../../helpers/postgres.js';
import { tempDir } from '../../../helpers/temp-dir.js';

export interface SharedStore {
  readonly a: ConfirmationStore;
  readonly b: ConfirmationStore;
  close(): Promise<void>;
}

export type StoreKind = () => Promise<SharedStore>;

export const memoryKind: StoreKind = async () => {
  const store = createMemoryStore();
  return { a: store, b: store, close: async () => {} };
};

export const sqliteKind: StoreKind = async () => {
  const dir = tempDir('graded-tools-teams-');
  const path = join(dir.path, 'confirmations.db');
  const a = createSqliteStore({ path });
  const b = createSqliteStore({ path });
  return {
    a,
    b,
    close: async () => {
      a.close();
      b.close();
      dir.remove();
    },
  };
};

export function postgresKind(url: string): StoreKind {
  return async () => {
    const table = uniqueTable('gt_teams');
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const a = createPostgresStore({ pool, table });
    await a.migrate();
    const b = createPostgresStore({ pool, table });
    return {
      a,
      b,
      close: async () => {
        await a.close?.();
        await b.close?.();
        await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
        await pool.end();
      },
    };
  };
}
