// The approvals console's inbox at volume: 1,000,000 confirmations of which 100,000 are pending, in
// SQLite and in PostgreSQL; `registry.confirmations.list({ status: 'pending', limit: 50 })` for the
// first page and for a page ~1,000 pages in (keyset cursors), with the query plan of the statement the
// store runs. Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/inbox.ts [--quick]` after
// `npm run build`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { probePostgres, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { median, printTable } from './measure.js';

const PAGE = 50;
const ROUNDS = 21;

/** How big the inbox is: the numbers, or a tenth of them with `--quick`. */
interface Size {
  readonly total: number;
  /** One in `every` confirmations is pending, spread through the whole list. */
  readonly every: number;
  /** How many pages in the deep page is. */
  readonly depth: number;
}

const DAY = 86_400_000;
const NOW = Date.now();
/** Row `g` (1-based): two rows to a millisecond, a month back to now, so ties need the tie-break. */
const createdAt = (g: number, total: number) =>
  NOW - 30 * DAY + Math.floor(g / 2) * Math.floor((30 * DAY) / total) * 2;
const DIGEST = 'd'.repeat(64);
const PAYLOAD = JSON.stringify({ to: 'ana@example.com', text: 'Your refund is on its way.' });
const FINISHED = ['delivered', 'rejected', 'expired', 'delivered', 'failed'] as const;

/** One row's values in the store's column order. */
function rowOf(g: number, size: Size): unknown[] {
  const created = createdAt(g, size.total);
  const pending = g % size.every === 0;
  const status = pending ? 'pending' : FINISHED[g % FINISHED.length];
  const at = new Date(created).toISOString();
  return [
    idOf(g),
    `inbox.tool${g % 20}`,
    status,
    '{"n":1}',
    PAYLOAD,
    DIGEST,
    'agent',
    null,
    created,
    pending ? NOW + 7 * DAY : created + 3_600_000,
    created,
    pending ? 0 : 1,
    null,
    null,
    `[{"at":"${at}","status":"pending","by":"agent"}]`,
  ];
}

/** Ids in the order rows are made, so the primary key grows at its end while loading. */
const idOf = (g: number) => `inbox-${String(g).padStart(8, '0')}`;

const COLUMNS =
  'id, tool, status, input, payload, digest, actor, scope, created_at, expires_at, updated_at, attempt, result, error, history';
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const since = (started: number) => `${((performance.now() - started) / 1_000).toFixed(1)} s`;

/** The statement a store ran for the last `list`, and the values it was bound with. */
interface Captured {
  sql: string;
  values: unknown;
}

/** Milliseconds of the first page and the deep page, paired round by round, through the registry. */
async function timePages(
  label: string,
  registry: ToolRegistry,
  size: Size,
  captured: { last?: Captured },
): Promise<{ firstMs: number; deepMs: number; ratio: number; plans: { first?: Captured; deep?: Captured } }> {
  const list = async (cursor?: string) => {
    const page = await registry.confirmations.list({
      status: 'pending',
      limit: PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (!page.ok) throw new Error(`${label}: list failed: ${page.error}`);
    return page;
  };
  const first = await list();
  if (first.confirmations.length !== PAGE)
    throw new Error(`${label}: first page holds ${first.confirmations.length}`);
  const plans: { first?: Captured; deep?: Captured } = {};
  if (captured.last !== undefined) plans.first = captured.last;
  let cursor = first.nextCursor;
  const started = performance.now();
  for (let page = 1; page < size.depth; page++) {
    if (cursor === undefined) throw new Error(`${label}: the list ended after ${page} pages`);
    cursor = (await list(cursor)).nextCursor;
    if (page % 250 === 0) console.log(`  ${label}: followed ${page} cursors (${since(started)})`);
  }
  if (cursor === undefined) throw new Error(`${label}: no page ${size.depth}`);
  const deepCursor = cursor;
  const deep = await list(deepCursor);
  // The deep page is where it should be: `depth` pages of pending ones, newest first.
  const expectedFirst = idOf((size.total / size.every - size.depth * PAGE) * size.every);
  if (deep.confirmations[0]?.id !== expectedFirst)
    throw new Error(`${label}: deep page starts at ${deep.confirmations[0]?.id}, not ${expectedFirst}`);
  if (captured.last !== undefined) plans.deep = captured.last;
  const samples: { first: number; deep: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sample = { first: 0, deep: 0 };
    for (const which of round % 2 === 0 ? (['first', 'deep'] as const) : (['deep', 'first'] as const)) {
      const t = performance.now();
      await list(which === 'deep' ? deepCursor : undefined);
      sample[which] = performance.now() - t;
    }
    samples.push(sample);
  }
  return {
    firstMs: median(samples.map((s) => s.first)),
    deepMs: median(samples.map((s) => s.deep)),
    ratio: median(samples.map((s) => s.deep / s.first)),
    plans,
  };
}

const registryOn = (store: ConfirmationStore) => new ToolRegistry({ confirmations: store });

/** SQLite: a temp file, rows inserted in transactions of 50,000, then the store on that file. */
async function sqliteInbox(dir: string, size: Size): Promise<{ row: string[]; plans: string[] }> {
  const path = join(dir, 'inbox.db');
  createSqliteStore({ path }).close();
  const bulk = new Database(path);
  bulk.pragma('journal_mode = WAL');
  bulk.pragma('synchronous = OFF');
  const insert = bulk.prepare(
    `INSERT INTO graded_tools_confirmations (${COLUMNS}) VALUES (${COLUMNS.split(', ')
      .map(() => '?')
      .join(', ')})`,
  );
  const chunk = bulk.transaction((from: number, to: number) => {
    for (let g = from; g <= to; g++) insert.run(rowOf(g, size));
  });
  const started = performance.now();
  for (let from = 1; from <= size.total; from += 50_000) {
    chunk(from, Math.min(size.total, from + 49_999));
    if ((from + 49_999) % 200_000 === 0 || from + 50_000 > size.total)
      console.log(`  sqlite: ${fmt(Math.min(size.total, from + 49_999))} rows (${since(started)})`);
  }
  bulk.pragma('wal_checkpoint(TRUNCATE)');
  bulk.close();

  // The store on its own connection, with each list statement's text and values recorded.
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const captured: { last?: Captured } = {};
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!sql.startsWith('SELECT *, CAST')) return statement;
    const all = statement.all.bind(statement);
    return Object.assign(statement, {
      all: (values: unknown) => {
        captured.last = { sql, values };
        return all(values as never);
      },
    });
  }) as typeof db.prepare;
  const store = createSqliteStore({ database: db });
  const result = await timePages('sqlite', registryOn(store), size, captured);
  const plan = (c: Captured | undefined) =>
    c === undefined
      ? ['(not captured)']
      : (db.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(c.values as never) as { detail: string }[]).map(
          (r) => r.detail,
        );
  const plans = [
    `first page: ${plan(result.plans.first).join('; ')}`,
    `deep page:  ${plan(result.plans.deep).join('; ')}`,
    `  (${result.plans.deep?.sql ?? ''})`,
  ];
  store.close();
  db.close();
  return {
    row: [
      'sqlite',
      fmt(size.total),
      fmt(size.total / size.every),
      fmt(size.depth),
      result.firstMs.toFixed(2),
      result.deepMs.toFixed(2),
      `${result.ratio.toFixed(2)}×`,
      '—',
    ],
    plans,
  };
}

/** PostgreSQL: a bench table filled by generate_series in SQL (trigger off while loading), then ANALYZE. */
async function postgresInbox(url: string, size: Size): Promise<{ row: string[]; plans: string[] }> {
  const table = uniqueTable('gt_bench_inbox');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const store = createPostgresStore({ pool, table });
  await store.migrate();
  const t = `"${table}"`;
  try {
    // A bulk load, not an app's traffic: nobody needs a million notifications.
    await pool.query(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
    const step = Math.floor((30 * DAY) / size.total) * 2;
    const started = performance.now();
    for (let from = 1; from <= size.total; from += 100_000) {
      const to = Math.min(size.total, from + 99_999);
      await pool.query(
        `INSERT INTO ${t} (${COLUMNS})
         SELECT 'inbox-' || lpad(g::text, 8, '0'), 'inbox.tool' || (g % 20),
                CASE WHEN g % $3 = 0 THEN 'pending'
                     ELSE (ARRAY['delivered','rejected','expired','delivered','failed'])[g % 5 + 1] END,
                '{"n":1}', $4, $5, 'agent', NULL, c, CASE WHEN g % $3 = 0 THEN $6::timestamptz ELSE c + interval '1 hour' END,
                c, CASE WHEN g % $3 = 0 THEN 0 ELSE 1 END, NULL, NULL,
                '[{"at":"' || to_char(c AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","status":"pending","by":"agent"}]'
         FROM generate_series($1::int, $2::int) AS g,
              LATERAL (SELECT $7::timestamptz + ((g / 2)::bigint * $8::bigint) * interval '1 millisecond' AS c) AS t`,
        [
          from,
          to,
          size.every,
          PAYLOAD,
          DIGEST,
          new Date(NOW + 7 * DAY).toISOString(),
          new Date(NOW - 30 * DAY).toISOString(),
          step,
        ],
      );
      console.log(`  postgres: ${fmt(to)} rows (${since(started)})`);
    }
    await pool.query(`ALTER TABLE ${t} ENABLE TRIGGER USER`);
    await pool.query(`VACUUM ANALYZE ${t}`);

    const captured: { last?: Captured } = {};
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    Object.assign(pool, {
      query: (text: string, values?: unknown[]) => {
        if (text.startsWith('SELECT *, CAST')) captured.last = { sql: text, values };
        return query(text, values);
      },
    });
    const result = await timePages('postgres', registryOn(store), size, captured);
    const explain = async (c: Captured | undefined) => {
      if (c === undefined) return ['(not captured)'];
      const { rows } = await query(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql}`, c.values as unknown[]);
      return rows.map((r: Record<string, string>) => r['QUERY PLAN'] ?? '');
    };
    const firstPlan = await explain(result.plans.first);
    const deepPlan = await explain(result.plans.deep);
    const execution = (plan: string[]) =>
      plan.find((l) => l.startsWith('Execution Time'))?.replace(/[^\d.]/g, '') ?? '?';
    return {
      row: [
        'postgres',
        fmt(size.total),
        fmt(size.total / size.every),
        fmt(size.depth),
        result.firstMs.toFixed(2),
        result.deepMs.toFixed(2),
        `${result.ratio.toFixed(2)}×`,
        `${execution(firstPlan)} / ${execution(deepPlan)}`,
      ],
      plans: [
        'first page:',
        ...firstPlan.map((l) => `  ${l}`),
        'deep page:',
        ...deepPlan.map((l) => `  ${l}`),
      ],
    };
  } finally {
    await store.close();
    await pool.query(`DROP TABLE IF EXISTS ${t}`);
    await pool.end();
  }
}

/** Runs the inbox benchmark and prints its table and the query plans. */
export async function benchInbox(options: { readonly quick?: boolean } = {}): Promise<void> {
  const size: Size =
    options.quick === true
      ? { total: 100_000, every: 10, depth: 100 }
      : { total: 1_000_000, every: 10, depth: 1_000 };
  console.log(`\n## The approvals inbox at volume${options.quick === true ? ' (quick)' : ''}\n`);
  console.log(
    `${fmt(size.total)} confirmations, ${fmt(size.total / size.every)} pending (one in ${size.every}, through the whole list);`,
  );
  console.log(
    `registry.confirmations.list({ status: 'pending', limit: ${PAGE} }): the first page, and page ${fmt(size.depth + 1)} reached by`,
  );
  console.log(
    `following nextCursor. Milliseconds per page in the server process, medians of ${ROUNDS} paired rounds.\n`,
  );
  const dir = tempDir('graded-tools-bench-inbox-');
  const rows: string[][] = [];
  const plans: string[] = [];
  try {
    const sqlite = await sqliteInbox(dir.path, size);
    rows.push(sqlite.row);
    plans.push(
      'SQLite (EXPLAIN QUERY PLAN of the statement the store ran):',
      ...sqlite.plans.map((l) => `  ${l}`),
    );
    const probe = await probePostgres();
    if (probe.url === undefined) {
      console.log(`postgres skipped: ${probe.reason}`);
    } else {
      const postgres = await postgresInbox(probe.url, size);
      rows.push(postgres.row);
      plans.push(
        'PostgreSQL (EXPLAIN (ANALYZE, BUFFERS) of the statement the store ran):',
        ...postgres.plans.map((l) => `  ${l}`),
      );
    }
  } finally {
    dir.remove();
  }
  console.log('');
  printTable(
    [
      'store',
      'rows',
      'pending',
      'pages in',
      'first page ms',
      'deep page ms',
      'deep / first',
      'server execution ms (first / deep)',
    ],
    rows,
  );
  console.log('');
  for (const line of plans) console.log(line);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchInbox({ quick: process.argv.includes('--quick') });
}
