import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AuditEntry } from 'graded-tools';
import { createSqliteStore } from 'graded-tools/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { auditedRegistry, fillLog, headKeys } from '../audit/audit-scenarios.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir();
afterAll(() => dir.remove());

async function run(args: string[]) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await main(args, {
    cwd: dir.path,
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

describe('graded-tools audit', () => {
  const path = join(dir.path, 'cli.db');

  it('verify: 0 for an unbroken log, 1 naming the first bad entry, 2 for a bad command', async () => {
    const store = createSqliteStore({ path });
    const registry = auditedRegistry(store);
    await fillLog(registry);
    const { privateKey, publicKey } = headKeys();
    writeFileSync(join(dir.path, 'head.json'), JSON.stringify(await registry.audit.signHead(privateKey)));
    writeFileSync(join(dir.path, 'key.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    store.close();

    expect(await run(['audit', 'verify', '--store', 'sqlite:cli.db'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('ok: 7 entries'),
    });
    const signed = ['--signed-head', 'head.json', '--public-key', 'key.pem'];
    expect((await run(['audit', 'verify', '--store', 'sqlite:cli.db', ...signed])).code).toBe(0);

    const exported = await run(['audit', 'export', '--store', 'sqlite:cli.db']);
    expect(exported.code).toBe(0);
    expect(exported.out.split('\n').map((line) => (JSON.parse(line) as AuditEntry).seq)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);

    const db = new Database(path);
    db.exec('DELETE FROM "graded_tools_confirmations_audit" WHERE seq = 7');
    db.close();
    expect((await run(['audit', 'verify', '--store', `sqlite:${path}`])).code).toBe(0);
    expect(await run(['audit', 'verify', '--store', `sqlite:${path}`, ...signed])).toMatchObject({
      code: 1,
      out: expect.stringContaining('broken at 7 (deleted)'),
    });

    expect((await run(['audit', 'verify'])).code).toBe(2);
    expect((await run(['audit', 'check', '--store', 'sqlite:cli.db'])).code).toBe(2);
    expect((await run(['audit', 'verify', '--store', 'sqlite:missing.db'])).code).toBe(2);
    expect((await run(['audit', 'verify', '--store', 'mysql:x'])).code).toBe(2);
    expect(
      (await run(['audit', 'verify', '--store', 'sqlite:cli.db', '--signed-head', 'head.json'])).code,
    ).toBe(2);
  });
});
