// The D1 store against a real local D1 (wrangler's getPlatformProxy: miniflare and workerd underneath).
// wrangler needs Node >= 22: on an older Node this file runs itself again under the pinned Node 24
// (scripts/runtimes.mjs) as a child vitest and checks that child's report, case by case.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolRegistry } from 'graded-tools';
import { createD1Store, type D1Database, type D1PreparedStatement } from 'graded-tools/d1';
import { pendingConfirmation, storeContract } from 'graded-tools/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { quietEnv, runtimeBinary } from '../../scripts/runtimes.mjs';
import { isAuditWriteError } from '../../src/audit/audit-chain.js';
import { binaryOrReason } from '../runtimes/runtime-binary.js';

const root = join(import.meta.dirname, '..', '..');
const nodeMajor = Number(process.versions.node.split('.')[0]);
const wrangler = runtimeBinary('wrangler');
const node24 = runtimeBinary('node24');
/** A fresh table per suite: every `open` of the contract gets its own, in one local database. */
const uniqueTable = () => `gt_d1_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

if (wrangler === undefined) {
  // In CI a failing test, elsewhere a skip with its reason printed.
  binaryOrReason('wrangler', 'D1 store (wrangler local D1)');
} else if (nodeMajor >= 22) {
  await inProcess(wrangler);
} else {
  viaNode24();
}

/** The contract and the races, against `env.DB` of a local D1 in a throwaway folder under .tmp/. */
async function inProcess(wranglerBin: string): Promise<void> {
  const dir = join(root, '.tmp', `d1-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'wrangler.json');
  writeFileSync(
    config,
    JSON.stringify({
      name: 'graded-tools-d1-test',
      compatibility_date: '2025-01-01',
      d1_databases: [{ binding: 'DB', database_name: 'test', database_id: 'local-test' }],
    }),
  );
  Object.assign(process.env, quietEnv);
  // Every statement is a round trip to workerd: the contract's volume cases (2,200 writes) take minutes.
  vi.setConfig({ testTimeout: 300_000 });
  const cli = join(dirname(dirname(wranglerBin)), 'wrangler-dist', 'cli.js');
  const { getPlatformProxy } = (await import(pathToFileURL(cli).href)) as {
    getPlatformProxy: (options: object) => Promise<{ env: { DB: D1Database }; dispose(): Promise<void> }>;
  };
  const proxy = await getPlatformProxy({ configPath: config, persist: { path: join(dir, 'state') } });
  const database = proxy.env.DB;
  afterAll(async () => {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  storeContract('Cloudflare D1 (wrangler local)', async () => {
    const table = uniqueTable();
    return {
      store: createD1Store({ database, table }),
      another: () => createD1Store({ database, table }),
    };
  });

  describe('createD1Store', () => {
    it('makes its tables by itself before the first statement, and migrate() again changes nothing', async () => {
      const store = createD1Store({ database, table: uniqueTable() });
      const original = pendingConfirmation();
      await store.create(original);
      await store.migrate();
      expect(await store.get(original.id)).toEqual(original);
    });

    it('of two stores (two isolates) confirming one id at once, exactly one claims; the audit chain verifies', async () => {
      const table = uniqueTable();
      const here = createD1Store({ database, table });
      const there = createD1Store({ database, table });
      await here.migrate();
      const T = Date.parse('2030-01-01T00:00:00.000Z');
      for (let round = 0; round < 10; round++) {
        const original = pendingConfirmation({}, T);
        await here.create(original);
        // Both read it first, so each plans its claim from the same pending row.
        await there.get(original.id);
        const outcomes = await Promise.all([
          here.claim(original.id, { now: T + 1, by: 'lead-1' }),
          there.claim(original.id, { now: T + 1, by: 'lead-2' }),
        ]);
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
        const read = await here.get(original.id);
        expect(read?.history.map((h) => h.status)).toEqual(['pending', 'delivering']);
      }
      // Each write chained its entry itself (no timers on Workers): nothing is left to sequence.
      expect(await here.audit.pending()).toBe(0);
      const counts = await Promise.all([here.audit.sequence(), there.audit.sequence()]);
      expect(counts[0] + counts[1]).toBe(0);
      const verified = await new ToolRegistry({ confirmations: there }).audit.verify();
      expect(verified).toMatchObject({ ok: true, entries: 20 });
    });

    it('sequences entries committed while other isolates sequence, each once, in commit order', async () => {
      const table = uniqueTable();
      const stores = Array.from({ length: 4 }, () => createD1Store({ database, table }));
      await stores[0]?.migrate();
      const T = Date.parse('2030-01-01T00:00:00.000Z');
      await Promise.all(
        stores.map(async (store, i) => {
          for (let n = 0; n < 5; n++) {
            await store.create(pendingConfirmation({}, T + i));
            await store.audit.sequence();
          }
        }),
      );
      await Promise.all(stores.map((store) => store.audit.sequence()));
      const entries = await stores[1]?.audit.read({ afterSeq: 0, limit: 100 });
      expect(entries?.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const registry = new ToolRegistry({ confirmations: stores[2] ?? createD1Store({ database, table }) });
      expect(await registry.audit.verify()).toMatchObject({ ok: true, entries: 20 });
    });

    it('a sequencer whose head moved while it chained fails its write batch as a whole, reads again, and chains the rest', async () => {
      const table = uniqueTable();
      // Store A's database holds its first sequencing write until told to go; it records every write batch.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const writes: { sql: string; failed: boolean }[] = [];
      type Wrapped = D1PreparedStatement & { real: D1PreparedStatement; sql: string };
      const wrap = (real: D1PreparedStatement, sql: string): Wrapped => ({
        real,
        sql,
        bind: (...values: unknown[]) => wrap(real.bind(...values), sql),
        all: () => real.all(),
      });
      const slow: D1Database = {
        prepare: (sql) => wrap(database.prepare(sql), sql),
        async batch<Row>(statements: D1PreparedStatement[]) {
          const [first] = statements as Wrapped[];
          const real = (statements as Wrapped[]).map((s) => s.real);
          if (!first?.sql.includes('the audit head moved')) return database.batch<Row>(real);
          if (writes.length === 0) await held;
          try {
            const done = await database.batch<Row>(real);
            writes.push({ sql: first.sql, failed: false });
            return done;
          } catch (error) {
            writes.push({ sql: first.sql, failed: true });
            throw error;
          }
        },
      };
      const a = createD1Store({ database: slow, table });
      const b = createD1Store({ database, table });
      await b.migrate();
      // A commits an entry and, in the same write, reads the head and chains it — and waits to write
      // that; B commits two entries meanwhile and chains all three (D1 chains in the write itself).
      const creating = a.create(pendingConfirmation());
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 2; i++) await b.create(pendingConfirmation());
      release();
      await creating;
      // A's write failed as a whole (the head is not the one it read); it read again and found nothing
      // left to chain, so nothing was chained twice and the decision itself stood.
      expect(writes.map((w) => w.failed)).toEqual([true]);
      expect(await a.audit.sequence()).toBe(0);
      const entries = await b.audit.read({ afterSeq: 0, limit: 10 });
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(await new ToolRegistry({ confirmations: b }).audit.verify()).toMatchObject({
        ok: true,
        entries: 3,
      });
    });

    it('commits no audit entry, spent link or count for a change that changed nothing', async () => {
      const store = createD1Store({ database, table: uniqueTable() });
      const original = pendingConfirmation();
      await store.create(original);
      const now = Date.parse(original.createdAt);
      expect((await store.reject(original.id, { now: now + 1, by: 'lead' })).ok).toBe(true);
      // Wrong status now: refused, and the log holds the creation and the reject only.
      expect((await store.claim(original.id, { now: now + 2 })).ok).toBe(false);
      await store.audit.sequence();
      const entries = await store.audit.read({ afterSeq: 0, limit: 10 });
      expect(entries.map((e) => e.action)).toEqual(['created', 'rejected']);
    });

    it('commits a change with its audit entry or not at all: an entry that cannot be written undoes the claim', async () => {
      const table = uniqueTable();
      const store = createD1Store({ database, table });
      const original = pendingConfirmation();
      await store.create(original);
      await database.prepare(`DROP TABLE "${table}_audit"`).all();
      const claiming = store.claim(original.id, { now: Date.parse(original.createdAt) + 1 });
      await expect(claiming).rejects.toSatisfy(isAuditWriteError);
      expect((await createD1Store({ database, table }).get(original.id))?.status).toBe('pending');
    });

    it('refuses a missing or wrong database and a bad table name with a TypeError', () => {
      expect(() => createD1Store({} as never)).toThrow(TypeError);
      expect(() => createD1Store({ database: {} as never })).toThrow(TypeError);
      for (const table of ['x; DROP TABLE users', 'a"b', 'main.t', ''])
        expect(() => createD1Store({ database, table })).toThrow(TypeError);
    });
  });
}

/** Node < 22: the same file under Node 24, its JSON report read back. */
function viaNode24(): void {
  describe('D1 store (run under Node 24: wrangler needs Node >= 22)', () => {
    let report: {
      success: boolean;
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      testResults: { assertionResults: { fullName: string; status: string }[] }[];
    };
    beforeAll(() => {
      if (node24 === undefined)
        throw new Error('Node 24 is not installed: node scripts/runtimes.mjs install');
      const out = join(root, '.tmp', `d1-report-${process.pid}.json`);
      mkdirSync(dirname(out), { recursive: true });
      const child = spawnSync(
        node24,
        [
          join(root, 'node_modules', 'vitest', 'vitest.mjs'),
          'run',
          'test/stores/d1.test.ts',
          '--reporter=json',
          `--outputFile=${out}`,
        ],
        { cwd: root, encoding: 'utf8', env: { ...process.env, ...quietEnv }, timeout: 600_000 },
      );
      try {
        report = JSON.parse(readFileSync(out, 'utf8')) as typeof report;
      } catch (error) {
        throw new Error(`the Node 24 run left no report: ${child.stderr.slice(-2_000)}`, { cause: error });
      } finally {
        rmSync(out, { force: true });
      }
    }, 660_000);

    it('passes every case there: the whole store contract on a local D1, and the races', () => {
      const cases = report.testResults.flatMap((file) => file.assertionResults);
      const failed = cases.filter((c) => c.status === 'failed').map((c) => c.fullName);
      expect(failed).toEqual([]);
      expect(report.success).toBe(true);
      const contract = cases.filter(
        (c) => c.fullName.startsWith('ConfirmationStore contract') && c.fullName.includes('Cloudflare D1'),
      );
      // Every case of the contract (80 when D1 was added): none may go missing or be skipped, but a
      // case about `watch`, which D1 has not.
      expect(contract.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(80);
      const skipped = contract.filter((c) => c.status !== 'passed').map((c) => c.fullName);
      expect(skipped.every((name) => /watch/i.test(name))).toBe(true);
      expect(
        cases.filter((c) => c.fullName.includes('exactly one claims') && c.status === 'passed'),
      ).toHaveLength(1);
      console.log(
        `[d1.test] under Node 24: ${report.numPassedTests} passed, ${report.numPendingTests} skipped, ${report.numFailedTests} failed`,
      );
    });
  });
}
