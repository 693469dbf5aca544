// What the audit log costs a confirmation: the store with its audit chain (the default) against the
// same store spread without `audit` (the flow then appends nothing: `auditSink` gives no sink), at 1
// and 8 concurrent confirmers, paired round by round; the statements each step issues, counted at the
// driver; and that a send tool without `holdMs` issues exactly the plain store path's statements.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/audit.ts [--quick]` after `npm run build`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import {
  type ConfirmationStore,
  type ConfirmRequired,
  defineTool,
  type EventListener,
  type ToolRegistry,
} from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import pg from 'pg';
import { probePostgres, storeTables, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { median, printTable, verdict } from './measure.js';
import { registryOn } from './send-tool.js';
import { storeTrip } from './sql.js';

const CONCURRENCY = [1, 8] as const;

/** Statements run at the driver since the last `take()`: SQL ones, and SQLite's `PRAGMA` toggles apart. */
const counted = { sql: 0, pragma: 0, texts: [] as string[], keepTexts: false };
function countStatement(text: string): void {
  if (/^\s*PRAGMA/i.test(text)) counted.pragma++;
  else counted.sql++;
  if (counted.keepTexts) counted.texts.push(text);
}
function take(): { sql: number; pragma: number; texts: string[] } {
  const out = { sql: counted.sql, pragma: counted.pragma, texts: counted.texts };
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

/** Counts the confirmation steps the flow emits (with the chain, one audit append each). */
function stepCounter(): { onEvent: EventListener; take(): number } {
  let steps = 0;
  return {
    onEvent: (event) => {
      if (event.type === 'confirmation') steps++;
    },
    take: () => {
      const n = steps;
      steps = 0;
      return n;
    },
  };
}

const HELD = 'bench.held';
/** The registry on `store`, with `bench.send` (no `holdMs`) and `bench.held` (`holdMs`: a minute). */
function registryWithHeld(store: ConfirmationStore, onEvent: EventListener): ToolRegistry {
  return registryOn(store, 'bench.send', { onEvent }).register(
    defineTool({
      name: HELD,
      description: 'The same send, held for an undo window.',
      sideEffect: 'send',
      holdMs: 60_000,
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      prepare: (input: { n: number }) => ({ n: input.n, to: 'ana@example.com', text: 'Held.' }),
      deliver: (_payload, approval) => ({ accepted: approval.confirmationId }),
    }),
  );
}

async function invoke(registry: ToolRegistry, tool: string, n: number): Promise<ConfirmRequired> {
  const asked = (await registry.invoke(tool, { n }, { actor: 'agent' })) as ConfirmRequired;
  if (!asked.requiresConfirm) throw new Error(`invoke failed: ${JSON.stringify(asked)}`);
  return asked;
}
async function confirm(registry: ToolRegistry, asked: ConfirmRequired): Promise<void> {
  const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead', digest: asked.digest });
  if (!sent.ok && sent.code !== 'SCHEDULED') throw new Error(`confirm failed: ${sent.error}`);
}

interface Variant {
  readonly registry: ToolRegistry;
  readonly steps: ReturnType<typeof stepCounter>;
}
/** The same store twice: as it is (its audit chain), and spread without its `audit`. */
function variants(store: ConfirmationStore): { with: Variant; without: Variant } {
  const make = (s: ConfirmationStore): Variant => {
    const steps = stepCounter();
    return { registry: registryWithHeld(s, steps.onEvent), steps };
  };
  if (store.audit === undefined) throw new Error('the store has no audit chain');
  const { audit: _chain, ...withoutAudit } = store;
  return { with: make(store), without: make(withoutAudit) };
}

/** Statements per invoke and per confirm of `tool`, over `count` sequential round trips. */
async function statementsPer(v: Variant, tool: string, count: number) {
  let invokeSql = 0;
  let confirmSql = 0;
  let pragmas = 0;
  let invokeSteps = 0;
  let confirmSteps = 0;
  take();
  v.steps.take();
  for (let n = 0; n < count; n++) {
    const asked = await invoke(v.registry, tool, n);
    const i = take();
    invokeSql += i.sql;
    pragmas += i.pragma;
    invokeSteps += v.steps.take();
    await confirm(v.registry, asked);
    const c = take();
    confirmSql += c.sql;
    pragmas += c.pragma;
    confirmSteps += v.steps.take();
  }
  return {
    invoke: invokeSql / count,
    confirm: confirmSql / count,
    pragmas: pragmas / count,
    steps: (invokeSteps + confirmSteps) / count,
  };
}

/** Statements per full round trip at `lanes` concurrent confirmers (`perLane` each). */
async function statementsConcurrent(v: Variant, lanes: number, perLane: number) {
  take();
  v.steps.take();
  await lanesOf(v.registry, lanes, perLane);
  const { sql, pragma } = take();
  const trips = lanes * perLane;
  return { sql: sql / trips, pragma: pragma / trips, steps: v.steps.take() / trips };
}

async function lanesOf(registry: ToolRegistry, lanes: number, perLane: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = 0; i < perLane; i++)
        await confirm(registry, await invoke(registry, 'bench.send', lane * perLane + i));
    }),
  );
  return ((lanes * perLane) / (performance.now() - started)) * 1_000;
}

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return (s[lo] ?? 0) + ((s[Math.ceil(at)] ?? 0) - (s[lo] ?? 0)) * (at - lo);
};

/** Time per confirm with ÷ without, paired within each round (turn-about order); median and spread. */
async function timeRatio(
  v: { with: Variant; without: Variant },
  lanes: number,
  perLane: number,
  rounds: number,
) {
  await lanesOf(v.with.registry, lanes, perLane);
  await lanesOf(v.without.registry, lanes, perLane);
  const samples: { with: number; without: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const sample = { with: 0, without: 0 };
    for (const name of round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const))
      sample[name] = await lanesOf(v[name].registry, lanes, perLane);
    samples.push(sample);
  }
  const ratios = samples.map((s) => s.without / s.with);
  return {
    withRate: median(samples.map((s) => s.with)),
    withoutRate: median(samples.map((s) => s.without)),
    ratio: median(ratios),
    iqr: [quantile(ratios, 0.25), quantile(ratios, 0.75)] as const,
    range: [Math.min(...ratios), Math.max(...ratios)] as const,
  };
}

const f1 = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const fx = (n: number) => `${n.toFixed(2)}×`;
const fr = (n: number) => Math.round(n).toLocaleString('en-US');

interface Db {
  readonly label: string;
  readonly store: ConfirmationStore;
  /** The plain store path (create, get, claim, finish) on another table/file of the same kind. */
  readonly plain: ConfirmationStore;
  close(): Promise<void>;
}

async function sqliteDb(dir: string): Promise<Db> {
  const store = createSqliteStore({ path: join(dir, 'audit.db') });
  const plain = createSqliteStore({ path: join(dir, 'plain.db') });
  return {
    label: 'sqlite',
    store,
    plain,
    async close() {
      store.close();
      plain.close();
    },
  };
}

async function postgresDb(url: string): Promise<Db> {
  const tables = [uniqueTable('gt_bench_audit'), uniqueTable('gt_bench_audit_plain')] as const;
  const pool = countedPool(url);
  const store = createPostgresStore({ pool, table: tables[0] });
  const plain = createPostgresStore({ pool, table: tables[1] });
  await store.migrate();
  await plain.migrate();
  return {
    label: 'postgres',
    store,
    plain,
    async close() {
      await store.close();
      await plain.close();
      for (const t of tables) {
        await pool.query(`DROP TABLE IF EXISTS ${storeTables(t)}`);
        await pool.query(`DROP FUNCTION IF EXISTS "${t}_audit_append"`);
      }
      await pool.end();
    },
  };
}

/** Runs the audit benchmark and returns its lines (tables printed as it goes). */
export async function benchAudit(options: { readonly quick?: boolean } = {}): Promise<void> {
  const quick = options.quick === true;
  countSqliteStatements();
  const dir = tempDir('graded-tools-bench-audit-');
  const probe = await probePostgres();
  console.log(`\n## Audit log${quick ? ' (quick)' : ''}\n`);
  console.log(
    'invoke → confirm (digest) → deliver on one store: with its audit chain (default) vs the same store\n' +
      'spread without its `audit` (no sink: the flow appends nothing). Statements counted at the driver\n' +
      '(better-sqlite3 statement runs; pg client queries), per round trip; time ratios paired per round.\n',
  );
  const dbs: Db[] = [await sqliteDb(dir.path)];
  if (probe.url === undefined) console.log(`postgres skipped: ${probe.reason}\n`);
  else dbs.push(await postgresDb(probe.url));

  const statementRows: string[][] = [];
  const timeRows: string[][] = [];
  const holdRows: string[][] = [];
  const texts: string[] = [];
  try {
    for (const db of dbs) {
      const v = variants(db.store);
      // Statements, sequential: per invoke and per confirm.
      const count = quick ? 20 : 50;
      const w = await statementsPer(v.with, 'bench.send', count);
      const wo = await statementsPer(v.without, 'bench.send', count);
      const added = (w.invoke + w.confirm - (wo.invoke + wo.confirm)) / w.steps;
      statementRows.push([
        db.label,
        '1',
        `${f1(wo.invoke)} + ${f1(wo.confirm)} = ${f1(wo.invoke + wo.confirm)}`,
        `${f1(w.invoke)} + ${f1(w.confirm)} = ${f1(w.invoke + w.confirm)}`,
        f1(w.steps),
        f1(added),
        `${f1(wo.pragmas)} → ${f1(w.pragmas)}`,
        verdict(added <= 1),
      ]);
      const c8w = await statementsConcurrent(v.with, 8, quick ? 10 : 25);
      const c8wo = await statementsConcurrent(v.without, 8, quick ? 10 : 25);
      const added8 = (c8w.sql - c8wo.sql) / c8w.steps;
      statementRows.push([
        db.label,
        '8',
        f1(c8wo.sql),
        f1(c8w.sql),
        f1(c8w.steps),
        f1(added8),
        `${f1(c8wo.pragma)} → ${f1(c8w.pragma)}`,
        verdict(added8 <= 1),
      ]);

      // Time with ÷ without.
      for (const lanes of CONCURRENCY) {
        const perLane = Math.max(1, Math.round((quick ? 60 : 200) / lanes));
        const t = await timeRatio(v, lanes, perLane, quick ? 3 : 9);
        timeRows.push([
          db.label,
          String(lanes),
          fr(t.withoutRate),
          fr(t.withRate),
          fx(t.ratio),
          `${fx(t.iqr[0])}–${fx(t.iqr[1])}`,
          `${fx(t.range[0])}–${fx(t.range[1])}`,
        ]);
      }

      // holdMs: the plain store path, a tool without holdMs, and one with it.
      take();
      const plainTrip = storeTrip(db.plain);
      for (let n = 0; n < count; n++) await plainTrip(n);
      const plain = take().sql / count;
      const send = wo;
      const held = await statementsPer(v.without, HELD, count);
      const heldWith = await statementsPer(v.with, HELD, count);
      holdRows.push([
        db.label,
        f1(plain),
        `${f1(send.invoke)} + ${f1(send.confirm)} = ${f1(send.invoke + send.confirm)}`,
        `${f1(held.invoke)} + ${f1(held.confirm)} = ${f1(held.invoke + held.confirm)}`,
        `${f1(w.invoke + w.confirm)} / ${f1(heldWith.invoke + heldWith.confirm)}`,
        verdict(send.invoke + send.confirm === plain),
      ]);
      // The statements themselves, for one non-held round trip with the chain.
      counted.keepTexts = true;
      take();
      await confirm(v.with.registry, await invoke(v.with.registry, 'bench.send', 1));
      counted.keepTexts = false;
      texts.push(
        `${db.label}: ${take()
          .texts.filter((s) => !/^\s*PRAGMA/i.test(s))
          .map(
            (s) =>
              `${/_audit_append\(/.test(s) ? 'SELECT' : (s.trim().split(/\s+/)[0] ?? '?')} ${/_audit(_append)?"/.test(s) ? 'audit' : 'confirmation'}`,
          )
          .join(' · ')}`,
      );
    }
  } finally {
    for (const db of dbs) await db.close();
    dir.remove();
  }

  console.log('Statements per round trip (invoke + confirm; 8 lanes: the whole trip, averaged)\n');
  printTable(
    [
      'store',
      'confirmers',
      'without audit',
      'with audit',
      'steps',
      'added per step',
      'PRAGMA runs',
      '≤ +1 per step',
    ],
    statementRows,
  );
  console.log('\nTime per confirm, with audit ÷ without (paired per round; median, IQR, min–max)\n');
  printTable(['store', 'confirmers', 'without /s', 'with /s', 'time ratio', 'IQR', 'range'], timeRows);
  console.log('\nSend tool without `holdMs`: statements against the plain store path (no audit)\n');
  printTable(
    [
      'store',
      'store path',
      'no holdMs (inv + conf)',
      'holdMs 60 s (inv + conf)',
      'with audit: no hold / hold',
      'no extra',
    ],
    holdRows,
  );
  console.log(
    '\nPRAGMA runs: the SQLite store wraps each decision statement (the audit append is one) in\n' +
      '`synchronous = FULL` … `NORMAL`, so each append is a commit synced to disk of its own.',
  );
  console.log('\nOne round trip with audit, statements in order:');
  for (const line of texts) console.log(`  ${line}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchAudit({ quick: process.argv.includes('--quick') });
}
