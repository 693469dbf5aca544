import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { describeLinkScenarios } from './link-scenarios.js';
import { describeConsoleScenarios, type TestStore } from './scenarios.js';

const dir = tempDir('graded-tools-console-');
afterAll(() => dir.remove());
let files = 0;

const openStore = async (): Promise<TestStore> => {
  const path = join(dir.path, `console-${++files}.db`);
  const table = 'console_e2e';
  const store = createSqliteStore({ path, table });
  return {
    store,
    async tamperPayload(id, payload) {
      const other = new Database(path);
      other.prepare(`UPDATE ${table} SET payload = ? WHERE id = ?`).run(JSON.stringify(payload), id);
      other.close();
    },
    async close() {
      store.close();
    },
  };
};

describeConsoleScenarios('SQLite file', openStore);
describeLinkScenarios('SQLite file', openStore);
