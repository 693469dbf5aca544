// What the audit log costs a decision, now that each entry commits with its change: the statements
// and round trips each step issues, counted at the driver (the entry adds a statement inside the
// change's own transaction on SQLite, and none at all on PostgreSQL, where it is part of the change's
// one statement); how fast the sequencer chains committed entries; and that sequencing is off the
// decision path — 8 concurrent confirmers with a sequencer running beside them against none.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/audit.ts [--quick]` after `npm run build`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { ConfirmRequired, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { probePostgres, storeTables, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { median, printTable, verdict } from './measure.js';
import { registryOn } from './send-tool.js';

/** Statements run at the driver since the last `take()`: SQL ones, and SQLite's `PRAGMA` toggles apart. */
const counted = { sql: 0, pragma: 0, texts: [] as string[], keepTexts: false };
function countStatement(text: string): void {
  if (/^\s*PRAGMA/i.test(text)) counted.pragma++;
  else counted.sql++;
  if (counted.keepTexts) counted.texts.push(text);
}
function take(): { sql: number; texts: string[] } {
  const out = { sql: counted.sql, texts: counted.texts };
  counted.sql = 0;
  counted.pragma = 0;
  counted.texts = [];
  return out;
}

/** Counts every run of every better-sqlite3 statement in this process (the store's included). */
function countSqliteStatements(): void {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  if (proto.__gtCounted) return;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      countStatement(this.source);
      return original.apply(this, args);
    };
  }
  proto.__gtCounted = true;
}

/** A pool whose every client query (the pool's own `query` goes through one) is counted. */
function countedPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [q] = args;
      countStatement(typeof q === 'string' ? q : String((q as { text?: string }).text ?? ''));
      return original(...args);
    };
  });
  return pool;
}

async function invoke(registry: ToolRegistry, n: number): Promise<ConfirmRequired> {
  const asked = (await registry.invoke('bench.send', { n }, { actor: 'agent' })) as ConfirmRequired;
  if (!asked.requiresConfirm) throw new Error(`invoke failed: ${JSON.stringify(asked)}`);
  return asked;
}
async function confirm(registry: ToolRegistry, asked: ConfirmRequired): Promise<void> {
  const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead', digest: asked.digest });
  if (!sent.ok) throw new Error(`confirm failed: ${sent.error}`);
}

/** Round trips per second at `lanes` concurrent confirmers, `perLane` each. */
async function lanesOf(registry: ToolRegistry, lanes: number, perLane: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = 0; i < perLane; i++) await confirm(registry, await invoke(registry, lane * perLane + i));
    }),
  );
  return ((lanes * perLane) / (performance.now() - started)) * 1_000;
}

/** What one statement writes, for the printed sequence: `UPDATE confirmation + INSERT audit` and so on. */
function described(text: string): string {
  const writes = [...text.matchAll(/\b(INSERT INTO|UPDATE|SELECT \* FROM)\s+("[^"]+")/g)].map(
    ([, verb, table]) =>
      `${(verb ?? '').split(' ')[0]} ${/_audit"$/.test(table ?? '') ? 'audit' : /_links"$/.test(table ?? '') ? 'link' : 'confirmation'}`,
  );
  return writes.length === 0 ? (text.trim().split(/\s+/)[0] ?? '?') : writes.join(' + ');
}

const f1 = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const fr = (n: number) => Math.round(n).toLocaleString('en-US');

interface Db {
  readonly label: string;
  readonly store: ConfirmationStore;
  close(): Promise<void>;
}

async function sqliteDb(dir: string): Promise<Db> {
  const store = createSqliteStore({ path: join(dir, 'audit.db') });
  return { label: 'sqlite', store, close: async () => store.close() };
}

async function postgresDb(url: string): Promise<Db> {
  const table = uniqueTable('gt_bench_audit');
  const pool = countedPool(url);
  const store = createPostgresStore({ pool, table });
  await store.migrate();
  return {
    label: 'postgres',
    store,
    async close() {
      await store.close();
      await pool.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
      await pool.end();
    },
  };
}

/** Runs the audit benchmark (tables printed as it goes). */
export async function benchAudit(options: { readonly quick?: boolean } = {}): Promise<void> {
  const quick = options.quick === true;
  countSqliteStatements();
  const dir = tempDir('graded-tools-bench-audit-');
  const probe = await probePostgres();
  console.log(`\n## Audit log${quick ? ' (quick)' : ''}\n`);
  console.log(
    'invoke → confirm (digest) → deliver; every change commits with its audit entry. Statements counted at\n' +
      'the driver (better-sqlite3 statement runs; pg client queries); the sequencer chains entries apart.\n',
  );
  const dbs: Db[] = [await sqliteDb(dir.path)];
  if (probe.url === undefined) console.log(`postgres skipped: ${probe.reason}\n`);
  else dbs.push(await postgresDb(probe.url));

  const statementRows: string[][] = [];
  const sequencerRows: string[][] = [];
  const pathRows: string[][] = [];
  const texts: string[] = [];
  try {
    for (const db of dbs) {
      const registry = registryOn(db.store);
      const chain = db.store.audit;
      if (chain === undefined) throw new Error('the store keeps no audit log');
      // Statements per round trip, sequential.
      const count = quick ? 20 : 50;
      await chain.sequence();
      take();
      for (let n = 0; n < count; n++) await confirm(registry, await invoke(registry, n));
      const { sql } = take();
      const perTrip = sql / count;
      // A round trip is 3 changes (created, confirmed, delivered) and the read before the claim: on
      // SQLite each change is BEGIN, its write, its entry, COMMIT; on PostgreSQL one statement.
      const expected = db.label === 'sqlite' ? 3 * 4 + 1 : 3 + 1;
      statementRows.push([db.label, f1(perTrip), String(expected), '3', verdict(perTrip <= expected)]);

      // The sequencer: entries chained per second, in batches.
      const backlog = quick ? 2_000 : 6_000;
      for (let n = 0; n < backlog / 3; n++) await confirm(registry, await invoke(registry, n));
      const started = performance.now();
      const sequenced = await chain.sequence();
      const ms = performance.now() - started;
      sequencerRows.push([db.label, fr(sequenced), ms.toFixed(0), fr((sequenced / ms) * 1_000)]);

      // Off the decision path: 8 confirmers, with a sequencer running every 20 ms beside them, and without.
      const perLane = quick ? 15 : 40;
      const rounds = quick ? 3 : 7;
      await lanesOf(registry, 8, perLane);
      const ratios: number[] = [];
      const rates = { beside: [] as number[], alone: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const sample = { beside: 0, alone: 0 };
        for (const name of round % 2 === 0
          ? (['alone', 'beside'] as const)
          : (['beside', 'alone'] as const)) {
          await chain.sequence();
          if (name === 'alone') sample.alone = await lanesOf(registry, 8, perLane);
          else {
            let running = true;
            const sequencer = (async () => {
              while (running) {
                await chain.sequence();
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            })();
            sample.beside = await lanesOf(registry, 8, perLane);
            running = false;
            await sequencer;
          }
        }
        rates.beside.push(sample.beside);
        rates.alone.push(sample.alone);
        ratios.push(sample.beside / sample.alone);
      }
      const ratio = median(ratios);
      pathRows.push([
        db.label,
        fr(median(rates.alone)),
        fr(median(rates.beside)),
        `${ratio.toFixed(2)}×`,
        verdict(ratio >= 0.8),
      ]);

      // The statements themselves, for one round trip.
      await chain.sequence();
      counted.keepTexts = true;
      take();
      await confirm(registry, await invoke(registry, 1));
      counted.keepTexts = false;
      texts.push(
        `${db.label}: ${take()
          .texts.filter((s) => !/^\s*PRAGMA/i.test(s))
          .map(described)
          .join(' · ')}`,
      );
    }
  } finally {
    for (const db of dbs) await db.close();
    dir.remove();
  }

  console.log('Statements per round trip (sequential; with its audit entries)\n');
  printTable(
    ['store', 'statements', 'at most', 'commits (bare three writes: 3)', 'one commit per change, no more'],
    statementRows,
  );
  console.log('\nThe sequencer: a backlog of committed entries chained (one call, batches of 1,000)\n');
  printTable(['store', 'entries', 'ms', 'entries/s'], sequencerRows);
  console.log(
    '\nOff the decision path: 8 confirmers, alone and with a sequencer every 20 ms beside them (paired per round)\n',
  );
  printTable(['store', 'alone /s', 'with sequencer /s', 'with ÷ alone', '≥ 0.8'], pathRows);
  console.log(
    '\nOne round trip, statements in order (SQLite: each change and its entry in one transaction):',
  );
  for (const line of texts) console.log(`  ${line}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchAudit({ quick: process.argv.includes('--quick') });
}
