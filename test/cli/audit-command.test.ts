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

describe('graded-tools audit on a log not covered', () => {
  /** A file whose 7 entries were never sequenced (no sweep ran), as of `agoMs` before now. */
  const unsequencedFile = async (name: string, agoMs: number) => {
    const path = join(dir.path, name);
    const store = createSqliteStore({ path });
    await fillLog(auditedRegistry(store));
    store.close();
    const db = new Database(path);
    db.exec(
      `UPDATE "graded_tools_confirmations_audit" SET seq = NULL, prev_hash = NULL, hash = NULL, at = at - ${agoMs}`,
    );
    return db;
  };

  it('verify fails, saying how many entries are not covered, when entries older than the bound are not sequenced', async () => {
    const db = await unsequencedFile('uncovered.db', 60 * 60_000);
    db.exec(`DELETE FROM "graded_tools_confirmations_audit" WHERE action = 'confirmed'`);
    db.close();
    const verified = await run(['audit', 'verify', '--store', 'sqlite:uncovered.db']);
    expect(verified.code).toBe(1);
    expect(verified.out).toContain('6 entries not covered');
    expect(verified.out).not.toMatch(/^ok/);
  });

  it('verify passes entries committed within the bound, and says they are not covered yet', async () => {
    (await unsequencedFile('young.db', 0)).close();
    const verified = await run(['audit', 'verify', '--store', 'sqlite:young.db']);
    expect(verified).toMatchObject({ code: 0, out: expect.stringContaining('7 entries not covered yet') });
  });

  it('export reads a file it may not write, and says what it could not cover', async () => {
    (await unsequencedFile('readonly.db', 60 * 60_000)).close();
    const exported = await run(['audit', 'export', '--store', 'sqlite:readonly.db']);
    expect(exported.code).toBe(0);
    expect(exported.out).toBe('');
    expect(exported.error).toContain('7 entries not covered');
  });
});
