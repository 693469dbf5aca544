// What rules cost: on the model's exit (three rules that all evaluate, none refusing) against the same
// tool without rules, and a limit check on SQLite and PostgreSQL against the bare driver's upsert.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/rules.ts [--quick]` after `npm run build`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type Rule, type RuleCall, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { probePostgres, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { comparePaired, formatRate, median, printTable, verdict } from './measure.js';
import { searchArgs, searchInput, searchRun, searchSchema } from './search-tool.js';

/** The target: three CEL rules cost at most this many times the tool without rules. */
const TARGET_RULES = 1.2;
/** "One round trip": a limited call's spend within this many times the bare driver's one upsert. */
const TARGET_ONE_TRIP = 1.2;
const DAY = 86_400_000;

const celRules: Rule[] = [
  { name: 'no-secret', when: 'input.query == "secret"', deny: 'That is not searchable.' },
  { name: 'many-hits', when: 'input.limit > 40', deny: 'Ask for fewer hits.', mode: 'shadow' },
  { name: 'suspended', when: 'scope == "suspended" || input.locale == "xx"', deny: 'Suspended.' },
];
const fnRules: Rule[] = [
  { name: 'no-secret', when: (c: RuleCall) => c.input.query === 'secret', deny: 'That is not searchable.' },
  {
    name: 'many-hits',
    when: (c: RuleCall) => (c.input.limit as number) > 40,
    deny: 'Ask for fewer hits.',
    mode: 'shadow',
  },
  {
    name: 'suspended',
    when: (c: RuleCall) => c.scope === 'suspended' || c.input.locale === 'xx',
    deny: 'Suspended.',
  },
];
const limitRule: Rule = { name: 'daily', limit: { calls: 1e9, per: 'day', by: 'actor' } };

const searchTool = (name: string, rules?: Rule[]) => ({
  name,
  description: 'Search.',
  sideEffect: 'read' as const,
  inputSchema: searchSchema,
  run: searchRun,
  ...(rules === undefined ? {} : { rules }),
});

const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** The model exit: invokeReadOnly of the search tool with three rules against the same without. */
async function benchModelExit(quick: boolean): Promise<string[]> {
  const registry = new ToolRegistry()
    .register(searchTool('kb.plain'))
    .register(searchTool('kb.cel', celRules))
    .register(searchTool('kb.fn', fnRules));
  for (const wire of ['kb__plain', 'kb__cel', 'kb__fn']) {
    const result = await registry.invokeReadOnly(wire, searchArgs);
    if (!result.ok) throw new Error(`${wire} does not run: ${JSON.stringify(result)}`);
  }
  const { rates, timeRatios } = await comparePaired(
    {
      plain: () => registry.invokeReadOnly('kb__plain', searchArgs),
      cel: () => registry.invokeReadOnly('kb__cel', searchArgs),
      fn: () => registry.invokeReadOnly('kb__fn', searchArgs),
    },
    { batch: quick ? 1_000 : 2_000, rounds: quick ? 11 : 41 },
  );
  const cel = timeRatios('cel', 'plain');
  const fn = timeRatios('fn', 'plain');
  return [
    '## Rules on the model exit: invokeReadOnly, three rules that all evaluate and none refuses (paired rounds; median, spread)',
    `  no rules                   ${formatRate(rates.plain)}`,
    `  three CEL rules            ${formatRate(rates.cel)}`,
    `  three function rules       ${formatRate(rates.fn)}`,
    `  CEL: ${median(cel).toFixed(2)}x the time without rules (${spread(cel)}; target <= ${TARGET_RULES}x: ${verdict(median(cel) <= TARGET_RULES)})`,
    `  functions: ${median(fn).toFixed(2)}x the time without rules (${spread(fn)})`,
  ];
}

/** The four contenders of a limit check on one database. */
interface LimitContenders {
  /** `registry.invoke` of the read tool without rules. */
  readonly plain: () => Promise<unknown>;
  /** `registry.invoke` of the same tool with one limit rule. */
  readonly limited: () => Promise<unknown>;
  /** The store's `spendLimit` alone. */
  readonly spend: () => Promise<unknown>;
  /** The bare driver running the store's upsert. */
  readonly bare: () => Promise<unknown>;
}

/** The store's conditional upsert (src/stores/sql/sql-limits.ts), for the limits table `limits`. */
const spendSql = (limits: string) =>
  `INSERT INTO ${limits} AS counter (limit_key, window_start, window_end, used) VALUES ($1, $2, $3, $4)` +
  ' ON CONFLICT (limit_key, window_start) DO UPDATE SET used = counter.used + excluded.used' +
  ' WHERE counter.used + excluded.used <= $5 RETURNING used';

function invokers(store: ConfirmationStore): Pick<LimitContenders, 'plain' | 'limited' | 'spend'> {
  const registry = new ToolRegistry({ confirmations: store })
    .register(searchTool('bench.plain'))
    .register(searchTool('bench.limited', [limitRule]));
  const ok = async (name: string) => {
    const result = await registry.invoke(name, searchInput, { actor: 'agent' });
    if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  };
  const window = () => Math.floor(Date.now() / DAY) * DAY;
  return {
    plain: () => ok('bench.plain'),
    limited: () => ok('bench.limited'),
    spend: async () => {
      const start = window();
      const key = 'bench.spend';
      const spent = await store.spendLimit?.({
        key,
        windowStart: start,
        windowEnd: start + DAY,
        amount: 1,
        max: 1e9,
      });
      if (spent?.ok !== true) throw new Error('spend refused');
    },
  };
}

/** SQLite: the store on one file, the bare upsert on another with the store's durability for a decision. */
function sqliteLimit(dir: string): { contenders: LimitContenders; close(): void } {
  const store = createSqliteStore({ path: join(dir, 'rules-store.db') });
  // The same tables, made by the store itself; then its pragmas on a plain connection.
  createSqliteStore({ path: join(dir, 'rules-bare.db') }).close();
  const db = new Database(join(dir, 'rules-bare.db'));
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const full = db.prepare('PRAGMA synchronous = FULL');
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  const upsert = db.prepare(spendSql('"graded_tools_confirmations_limits"'));
  const key = JSON.stringify(['bench.limited', 'daily', 'actor', 'agent', 'day']);
  return {
    contenders: {
      ...invokers(store),
      bare: async () => {
        const start = Math.floor(Date.now() / DAY) * DAY;
        full.run();
        try {
          if (upsert.get({ 1: key, 2: start, 3: start + DAY, 4: 1, 5: 1e9 }) === undefined)
            throw new Error('refused');
        } finally {
          normal.run();
        }
      },
    },
    close() {
      store.close();
      db.close();
    },
  };
}

/** PostgreSQL: the store on one table, the bare upsert on another of the same schema. */
async function postgresLimit(url: string): Promise<{ contenders: LimitContenders; close(): Promise<void> }> {
  const tables = [uniqueTable('gt_bench_rules'), uniqueTable('gt_bench_rules_bare')] as const;
  const store = createPostgresStore({ connectionString: url, table: tables[0] });
  const maker = createPostgresStore({ connectionString: url, table: tables[1] });
  await store.migrate();
  await maker.migrate();
  await maker.close();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const upsert = spendSql(`"${tables[1]}_limits"`);
  const key = JSON.stringify(['bench.limited', 'daily', 'actor', 'agent', 'day']);
  return {
    contenders: {
      ...invokers(store),
      bare: async () => {
        const start = Math.floor(Date.now() / DAY) * DAY;
        const iso = (ms: number) => new Date(ms).toISOString();
        const { rows } = await pool.query(upsert, [key, iso(start), iso(start + DAY), 1, 1e9]);
        if (rows.length !== 1) throw new Error('refused');
      },
    },
    async close() {
      await store.close();
      for (const t of tables)
        await pool.query(`DROP TABLE IF EXISTS "${t}", "${t}_notices", "${t}_links", "${t}_limits"`);
      await pool.end();
    },
  };
}

async function limitRow(label: string, contenders: LimitContenders, quick: boolean): Promise<string[]> {
  const { rates, timeRatios } = await comparePaired(
    { ...contenders },
    { batch: quick ? 50 : 200, rounds: quick ? 3 : 7 },
  );
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const added = median(timeRatios('limited', 'plain'));
  const oneTrip = median(timeRatios('limited', 'bare'));
  const spendOnly = median(timeRatios('spend', 'bare'));
  return [
    label,
    fmt(rates.plain),
    fmt(rates.limited),
    fmt(rates.spend),
    fmt(rates.bare),
    `${added.toFixed(1)}×`,
    `${oneTrip.toFixed(2)}× (${verdict(oneTrip <= TARGET_ONE_TRIP)})`,
    `${spendOnly.toFixed(2)}×`,
  ];
}

/** The limit check on each database, printed as one table. */
async function benchLimits(quick: boolean): Promise<void> {
  console.log(
    `\n## A limit check (one limit rule, { calls: 1e9, per: 'day', by: 'actor' }) against the bare driver\n`,
  );
  console.log(
    'registry.invoke of a read tool, one at a time; spendLimit = the store call alone; bare upsert = the',
  );
  console.log(
    "store's statement on the bare driver with the same durability. Calls/s, medians; ratios are times, paired per round.\n",
  );
  const rows: string[][] = [];
  const dir = tempDir('graded-tools-bench-rules-');
  try {
    const sqlite = sqliteLimit(dir.path);
    try {
      rows.push(await limitRow('sqlite', sqlite.contenders, quick));
    } finally {
      sqlite.close();
    }
  } finally {
    dir.remove();
  }
  const probe = await probePostgres();
  if (probe.url === undefined) {
    console.log(`postgres skipped: ${probe.reason}`);
  } else {
    const postgres = await postgresLimit(probe.url);
    try {
      rows.push(await limitRow('postgres', postgres.contenders, quick));
    } finally {
      await postgres.close();
    }
  }
  printTable(
    [
      'store',
      'no rules/s',
      'with limit/s',
      'spendLimit/s',
      'bare upsert/s',
      'with ÷ without',
      `with limit ÷ bare upsert (≤ ${TARGET_ONE_TRIP})`,
      'spendLimit ÷ bare upsert',
    ],
    rows,
  );
}

/** The rules benchmark: prints its lines and table. */
export async function benchRules(options: { readonly quick?: boolean } = {}): Promise<void> {
  const quick = options.quick === true;
  console.log('');
  for (const line of await benchModelExit(quick)) console.log(line);
  await benchLimits(quick);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchRules({ quick: process.argv.includes('--quick') });
}
