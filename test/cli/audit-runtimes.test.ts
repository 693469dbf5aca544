// `graded-tools audit` on a SQLite file needs no better-sqlite3: the built CLI under Bun (bun:sqlite)
// and under Node 24 with better-sqlite3 unresolvable (node:sqlite) verifies and exports the file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedRegistry, fillLog } from '../audit/audit-scenarios.js';
import { binaryOrReason } from '../runtimes/runtime-binary.js';
import { ensureBuilt, ROOT } from '../support/ensure-built.js';

const bun = binaryOrReason('bun', 'audit CLI on Bun');
const node24 = binaryOrReason('node24', 'audit CLI on Node 24 without better-sqlite3');

let dir = '';
beforeAll(async () => {
  ensureBuilt();
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, '.tmp', 'audit-runtimes-'));
  const store = createSqliteStore({ path: join(dir, 'log.db') });
  await fillLog(auditedRegistry(store));
  store.close();
  // Fails resolution exactly as Node does for a package that is not installed (import and require).
  writeFileSync(
    join(dir, 'no-better-sqlite3.mjs'),
    `import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'better-sqlite3') {
      const error = new Error("Cannot find module 'better-sqlite3'");
      error.code = 'MODULE_NOT_FOUND';
      throw error;
    }
    return next(specifier, context);
  },
});
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = () => join(ROOT, 'dist', 'cli.mjs');
const expectReads = (run: (...args: string[]) => ReturnType<typeof spawnSync>) => {
  const verified = run('audit', 'verify', '--store', 'sqlite:log.db');
  expect(String(verified.stderr)).toBe('');
  expect(verified.status).toBe(0);
  expect(String(verified.stdout)).toContain('ok: 7 entries');
  const exported = run('audit', 'export', '--store', 'sqlite:log.db');
  expect(exported.status).toBe(0);
  expect(String(exported.stdout).trim().split('\n')).toHaveLength(7);
};

if (bun !== undefined)
  describe('audit CLI on Bun', () => {
    it('verifies and exports a SQLite file with bun:sqlite', () => {
      expectReads((...args) => spawnSync(bun, [cli(), ...args], { cwd: dir, encoding: 'utf8' }));
    });
  });

if (node24 !== undefined)
  describe('audit CLI on Node 24 without better-sqlite3', () => {
    it('verifies and exports a SQLite file with node:sqlite', () => {
      const hook = pathToFileURL(join(dir, 'no-better-sqlite3.mjs')).href;
      expectReads((...args) =>
        spawnSync(node24, ['--no-warnings', '--import', hook, cli(), ...args], {
          cwd: dir,
          encoding: 'utf8',
        }),
      );
    });
  });
