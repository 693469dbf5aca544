import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../support/ensure-built.js';

// The SDK is an optional peer: `graded-tools` never names it, and `graded-tools/dbos` loads it only
// when it sends without an injected client. Checked on the built files, in fresh Node processes.
const dist = join(ROOT, 'dist');

/** Runs `body` in a fresh Node process after importing `entry`, and prints whether any @dbos-inc module is loaded. */
function loadsDbos(entry: string, body = ''): { before: boolean; after: boolean; out?: unknown } {
  const script = `
    import { createRequire } from 'node:module';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/@dbos-inc/'));
    const mod = await import(${JSON.stringify(join(dist, `${entry}.mjs`))});
    const before = loaded();
    let out;
    ${body}
    console.log(JSON.stringify({ before, after: loaded(), out }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
  );
}

const NOTICE = `{ id: 'c_1.decided.rejected', kind: 'decided', locale: 'en',
  confirmation: { id: 'c_1', tool: 'message.send', title: 'Send', createdAt: '2026-12-02T00:00:00Z',
    expiresAt: '2026-12-02T00:30:00Z', status: 'rejected', ref: 'wf-1' } }`;

describe('graded-tools/dbos as built', () => {
  beforeAll(() => {
    ensureBuilt();
    if (!existsSync(join(dist, 'dbos.mjs'))) throw new Error('dist/dbos.mjs is missing: run `npx tsdown`');
  });

  it('the root entry and its chunks never name the DBOS SDK', () => {
    const names = readdirSync(dist).filter((f) => f.endsWith('.mjs') && !f.startsWith('dbos'));
    const naming = names.filter((f) => readFileSync(join(dist, f), 'utf8').includes('@dbos-inc/'));
    expect(naming).toEqual([]);
    expect(loadsDbos('index')).toMatchObject({ before: false, after: false });
  });

  it('graded-tools/dbos loads the SDK only once it sends without a client', () => {
    const withClient = loadsDbos(
      'dbos',
      `const sent = [];
       out = await mod.dbosNotifier({ client: { send: async (...args) => { sent.push(args); } } }).send(${NOTICE}, {});
       out = { ...out, sent };`,
    );
    expect(withClient).toEqual({
      before: false,
      after: false,
      out: {
        ok: true,
        sent: [
          [
            'wf-1',
            { confirmationId: 'c_1', status: 'rejected' },
            'graded-tools.decision',
            'c_1.decided.rejected',
          ],
        ],
      },
    });
    // Without a client it imports the SDK and uses DBOS.send, which refuses: DBOS was never launched here.
    const withRuntime = loadsDbos(
      'dbos',
      `out = await mod.dbosNotifier({ retries: 0 }).send(${NOTICE}, {});`,
    );
    expect(withRuntime).toMatchObject({ before: false, after: true, out: { ok: false } });
  });
});
