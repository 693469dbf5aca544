// The SQL stores against bare-driver copies of their work, at 1 and 8 concurrent confirmers.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/sql.ts [--quick]` after `npm run build`.
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Confirmation } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { probePostgres, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { median, printTable, timeOnce, verdict } from './measure.js';
import { registryOn, roundTrip } from './send-tool.js';

/** The issue's targets: round trips against the bare driver doing the same, and only the three writes. */
const TARGET_SAME = 0.95;
const TARGET_THREE = 0.8;
const CONCURRENCY = [1, 8] as const;

const DIGEST = 'a'.repeat(64);
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
let serial = 0;

/** One round trip's work, `n` identifying it. */
export type Trip = (n: number) => Promise<void>;

/** What each database supplies: the four contenders' single round trip. */
export interface Contenders {
  readonly registry: Trip;
  readonly store: Trip;
  readonly bareSame: Trip;
  readonly bareThree: Trip;
}

function confirmationFor(n: number): Confirmation {
  const id = `bench-${process.pid}-${serial++}-${n}`;
  const at = new Date(T0).toISOString();
  return {
    id,
    tool: 'bench.send',
    input: { n },
    payload: { n, to: 'ana@example.com', text: 'Your refund is on its way.' },
    digest: DIGEST,
    actor: 'agent',
    createdAt: at,
    expiresAt: new Date(T0 + 3_600_000).toISOString(),
    updatedAt: at,
    status: 'pending',
    attempt: 0,
    history: [{ at, status: 'pending', by: 'agent' }],
  };
}

/** The registry round trip: invoke → confirm (digest) → delivered. */
function registryTrip(store: ConfirmationStore): Trip {
  const registry = registryOn(store);
  return (n) => roundTrip(registry, n);
}

/** The store calls a registry round trip makes: create, the read before the claim, claim, finish. */
export function storeTrip(store: ConfirmationStore): Trip {
  return async (n) => {
    const c = confirmationFor(n);
    await store.create(c);
    if ((await store.get(c.id))?.status !== 'pending') throw new Error('not pending');
    const claimed = await store.claim(c.id, { now: T0 + 1, by: 'lead' });
    if (!claimed.ok) throw new Error('claim lost');
    const done = await store.finish(c.id, {
      now: T0 + 2,
      attempt: claimed.confirmation.attempt,
      status: 'delivered',
      resultJson: JSON.stringify({ accepted: c.id }),
    });
    if (!done.ok) throw new Error('finish lost');
  };
}

/** An app's own row for `c`, as a bare driver would write it (values in the store's column order). */
function bareValues(c: Confirmation, time: (ms: number) => unknown): unknown[] {
  return [
    c.id,
    c.tool,
    c.status,
    JSON.stringify(c.input),
    JSON.stringify(c.payload),
    c.digest,
    c.actor ?? null,
    c.scope ?? null,
    time(Date.parse(c.createdAt)),
    time(Date.parse(c.expiresAt)),
    time(Date.parse(c.updatedAt)),
    c.attempt,
    null,
    null,
    JSON.stringify(c.history),
  ];
}
const entry = (now: number, status: string) =>
  JSON.stringify({ at: new Date(now).toISOString(), status, by: 'lead' });
const COLUMNS =
  'id, tool, status, input, payload, digest, actor, scope, created_at, expires_at, updated_at, attempt, result, error, history';

/** SQLite: the store on one file, the bare copies on another, each with the store's durability. */
export function sqliteContenders(
  dir: string,
  synchronous: 'decisions' | 'normal',
): { contenders: Contenders; close(): void } {
  const store = createSqliteStore({ path: join(dir, `store-${synchronous}.db`), synchronous });
  const registryStore = createSqliteStore({ path: join(dir, `registry-${synchronous}.db`), synchronous });
  // The same table, made by the store itself; then the store's own pragmas on a plain connection.
  createSqliteStore({ path: join(dir, `bare-${synchronous}.db`) }).close();
  const db = new Database(join(dir, `bare-${synchronous}.db`));
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const full = db.prepare('PRAGMA synchronous = FULL');
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  const synced = <T>(write: () => T): T => {
    if (synchronous === 'normal') return write();
    full.run();
    try {
      return write();
    } finally {
      normal.run();
    }
  };
  const t = 'graded_tools_confirmations';
  const append = (p: string) =>
    `history = substr(history, 1, length(history) - 1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${p} || ']'`;
  const named = (values: unknown[]) => Object.fromEntries(values.map((v, i) => [i + 1, v]));

  // A copy of the store's own statements, as it issues them: each write with its audit entry, in one
  // `BEGIN IMMEDIATE` transaction; every change conditional on the revision read.
  const sameInsert = db.prepare(
    `INSERT INTO ${t} (${COLUMNS}) VALUES (${COLUMNS.split(', ')
      .map((_, i) => `$${i + 1}`)
      .join(', ')})`,
  );
  const sameSelect = db.prepare(`SELECT * FROM ${t} WHERE id = $1`);
  const sameUpdate = db.prepare(
    `UPDATE ${t} SET status = $3, updated_at = $4, attempt = $5, history = $6, approvals = $7, deliver_at = $8,` +
      ' result = $9, error = $10, escalated = $11, revision = $12 WHERE id = $1 AND revision = $2',
  );
  const sameAudit = db.prepare(
    `INSERT INTO ${t}_audit (at, kind, confirmation_id, tool, by_id, action, detail) SELECT CAST($1 AS bigint), $2, $3, $4, $5, $6, $7 WHERE 1 = 1`,
  );
  const audited = (
    write: () => number,
    record: [number, string, string, string | null, string, string],
  ): number =>
    db
      .transaction(() => {
        const changed = write();
        if (changed === 1) {
          const [at, id, tool, by, action, detail] = record;
          sameAudit.run(named([at, 'confirmation', id, tool, by, action, detail]));
        }
        return changed;
      })
      .immediate();
  // Only the three writes, as an app would write them by hand.
  const insert = db.prepare(
    `INSERT INTO ${t} (${COLUMNS}) VALUES (${COLUMNS.split(', ')
      .map(() => '?')
      .join(', ')})`,
  );
  const claim = db.prepare(
    `UPDATE ${t} SET status = 'delivering', updated_at = ?, ${append('?')}, attempt = attempt + 1 WHERE id = ? AND status = 'pending' AND expires_at > ?`,
  );
  const finish = db.prepare(
    `UPDATE ${t} SET status = 'delivered', updated_at = ?, result = ?, ${append('?')} WHERE id = ? AND attempt = 1 AND status = 'delivering'`,
  );

  const contenders: Contenders = {
    registry: registryTrip(registryStore),
    store: storeTrip(store),
    bareSame: async (n) => {
      const c = confirmationFor(n);
      audited(
        () => sameInsert.run(named(bareValues(c, (ms) => ms))).changes,
        [T0, c.id, c.tool, 'agent', 'created', `{"digest":"${DIGEST}"}`],
      );
      const row = sameSelect.get(named([c.id])) as { status: string; history: string } | undefined;
      if (row?.status !== 'pending') throw new Error('not pending');
      const claimed = synced(() =>
        audited(
          () =>
            sameUpdate.run(
              named([
                c.id,
                0,
                'delivering',
                T0 + 1,
                1,
                entry(T0 + 1, 'delivering'),
                null,
                null,
                null,
                null,
                null,
                1,
              ]),
            ).changes,
          [
            T0 + 1,
            c.id,
            c.tool,
            'lead',
            'confirmed',
            `{"digest":"${DIGEST}","status":"delivering","attempt":1}`,
          ],
        ),
      );
      if (claimed !== 1) throw new Error('claim lost');
      const result = JSON.stringify({ accepted: c.id });
      audited(
        () =>
          sameUpdate.run(
            named([
              c.id,
              1,
              'delivered',
              T0 + 2,
              1,
              entry(T0 + 2, 'delivered'),
              null,
              null,
              result,
              null,
              null,
              2,
            ]),
          ).changes,
        [T0 + 2, c.id, c.tool, null, 'delivered', `{"digest":"${DIGEST}","attempt":1}`],
      );
    },
    bareThree: async (n) => {
      const c = confirmationFor(n);
      insert.run(...bareValues(c, (ms) => ms));
      const claimed = synced(() => claim.run(T0 + 1, entry(T0 + 1, 'delivering'), c.id, T0 + 1));
      if (claimed.changes !== 1) throw new Error('claim lost');
      finish.run(T0 + 2, JSON.stringify({ accepted: c.id }), entry(T0 + 2, 'delivered'), c.id);
    },
  };
  return {
    contenders,
    close() {
      store.close();
      registryStore.close();
      db.close();
    },
  };
}

/**
 * PostgreSQL: the store and the bare copies on tables of the same schema (the NOTIFY trigger included;
 * `triggerCost` measures that apart), one pool each.
 */
export async function postgresContenders(
  url: string,
): Promise<{ contenders: Contenders; close(): Promise<void> }> {
  const tables = [uniqueTable('gt_bench_sql'), uniqueTable('gt_bench_sql_reg'), uniqueTable('gt_bench_bare')];
  const [storeTable, registryTable, bareTable] = tables as [string, string, string];
  const poolConfig = { max: 10 };
  const store = createPostgresStore({ connectionString: url, table: storeTable, poolConfig });
  const registryStore = createPostgresStore({ connectionString: url, table: registryTable, poolConfig });
  const maker = createPostgresStore({ connectionString: url, table: bareTable });
  await Promise.all([store.migrate(), registryStore.migrate(), maker.migrate()]);
  await maker.close();
  const pool = new pg.Pool({ connectionString: url, ...poolConfig });
  const t = `"${bareTable}"`;
  const relaxed = " || left(set_config('synchronous_commit', 'off', true), 0)";
  const append = (p: string) =>
    `history = left(history, -1) || CASE WHEN history = '[]' THEN '' ELSE ',' END || ${p} || ']'`;
  const iso = (ms: number) => new Date(ms).toISOString();

  const sameInsert = `INSERT INTO ${t} (${COLUMNS}) VALUES (${COLUMNS.split(', ')
    .map((c, i) => `$${i + 1}${c === 'history' ? relaxed : ''}`)
    .join(', ')})`;
  const sameSelect = `SELECT * FROM ${t} WHERE id = $1`;
  // A copy of the store's own statements: each write and its audit entry as one statement.
  const withAudit = (write: string, offset: number) =>
    `WITH changed AS (${write} RETURNING 1), record_0 AS (INSERT INTO "${bareTable}_audit" (at, kind, confirmation_id, tool, by_id, action, detail)` +
    ` SELECT CAST($${offset + 1} AS bigint), $${offset + 2}, $${offset + 3}, $${offset + 4}, $${offset + 5}, $${offset + 6}, $${offset + 7}` +
    ' WHERE EXISTS (SELECT 1 FROM changed)) SELECT count(*)::int AS changed FROM changed';
  const sameUpdate = (history: string) =>
    `UPDATE ${t} SET status = $3, updated_at = $4, attempt = $5, history = ${history}, approvals = $7, deliver_at = $8,` +
    ' result = $9, error = $10, escalated = $11, revision = $12 WHERE id = $1 AND revision = $2';
  const sameCreate = withAudit(sameInsert, 15);
  const sameClaim = withAudit(sameUpdate('$6'), 12);
  const sameFinish = withAudit(sameUpdate(`$6${relaxed}`), 12);
  const record = (at: number, c: Confirmation, by: string | null, action: string, detail: string) => [
    at,
    'confirmation',
    c.id,
    c.tool,
    by,
    action,
    detail,
  ];
  const claim = `UPDATE ${t} SET status = 'delivering', updated_at = $2, ${append('$3')}, attempt = attempt + 1 WHERE id = $1 AND status = 'pending' AND expires_at > $2`;
  const finish = `UPDATE ${t} SET status = 'delivered', updated_at = $2, result = $3, ${append('$4')}${relaxed} WHERE id = $1 AND attempt = 1 AND status = 'delivering'`;

  const contenders: Contenders = {
    registry: registryTrip(registryStore),
    store: storeTrip(store),
    bareSame: async (n) => {
      const c = confirmationFor(n);
      await pool.query(sameCreate, [
        ...bareValues(c, iso),
        ...record(T0, c, 'agent', 'created', `{"digest":"${DIGEST}"}`),
      ]);
      const { rows } = await pool.query(sameSelect, [c.id]);
      if (rows[0]?.status !== 'pending') throw new Error('not pending');
      const claimed = await pool.query(sameClaim, [
        ...[
          c.id,
          0,
          'delivering',
          iso(T0 + 1),
          1,
          entry(T0 + 1, 'delivering'),
          null,
          null,
          null,
          null,
          null,
          1,
        ],
        ...record(T0 + 1, c, 'lead', 'confirmed', `{"digest":"${DIGEST}","status":"delivering","attempt":1}`),
      ]);
      if (claimed.rows[0]?.changed !== 1) throw new Error('claim lost');
      const result = JSON.stringify({ accepted: c.id });
      await pool.query(sameFinish, [
        ...[
          c.id,
          1,
          'delivered',
          iso(T0 + 2),
          1,
          entry(T0 + 2, 'delivered'),
          null,
          null,
          result,
          null,
          null,
          2,
        ],
        ...record(T0 + 2, c, null, 'delivered', `{"digest":"${DIGEST}","attempt":1}`),
      ]);
    },
    bareThree: async (n) => {
      const c = confirmationFor(n);
      await pool.query(sameInsert, bareValues(c, iso));
      const claimed = await pool.query(claim, [c.id, iso(T0 + 1), entry(T0 + 1, 'delivering')]);
      if (claimed.rowCount !== 1) throw new Error('claim lost');
      await pool.query(finish, [
        c.id,
        iso(T0 + 2),
        JSON.stringify({ accepted: c.id }),
        entry(T0 + 2, 'delivered'),
      ]);
    },
  };
  return {
    contenders,
    async close() {
      await store.close();
      await registryStore.close();
      for (const table of tables) await pool.query(`DROP TABLE IF EXISTS "${table}"`);
      await pool.end();
    },
  };
}

/**
 * What the `NOTIFY` trigger `migrate()` adds (for `watch` across processes) costs a round trip: the
 * store's own round trip on two tables of the same schema, one with the trigger and one without,
 * interleaved, the ratio paired within each round. (PostgreSQL serialises the commits of notifying
 * transactions on one lock held until each is flushed, so the cost shows most with several
 * confirmers; the trigger skips the claim, the one commit of the four that waits for the flush.)
 */
export async function triggerCost(url: string, quick: boolean): Promise<string[][]> {
  const tables = [uniqueTable('gt_bench_notify'), uniqueTable('gt_bench_silent')] as const;
  const poolConfig = { max: 10 };
  const notifying = createPostgresStore({ connectionString: url, table: tables[0], poolConfig });
  const silent = createPostgresStore({ connectionString: url, table: tables[1], poolConfig });
  await notifying.migrate();
  await silent.migrate();
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP TRIGGER IF EXISTS "${tables[1]}_notify" ON "${tables[1]}"`);
  const { rows: left } = await admin.query(
    'SELECT tgrelid::regclass::text AS t FROM pg_trigger WHERE tgrelid = ANY($1::regclass[]) AND NOT tgisinternal',
    [tables.map((t) => `"${t}"`)],
  );
  if (left.length !== 1 || left[0].t !== tables[0])
    throw new Error(`trigger setup wrong: ${JSON.stringify(left)}`);
  // Someone listening, as in production: a notification nobody hears is dropped earlier.
  const unwatch = notifying.watch(() => {});
  const trips = { notifying: storeTrip(notifying), silent: storeTrip(silent) };
  const rows: string[][] = [];
  try {
    for (const lanes of CONCURRENCY) {
      const perLane = Math.max(1, Math.round((quick ? 100 : 300) / lanes));
      const batch = async (trip: Trip) => {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: lanes }, async (_, lane) => {
            for (let i = 0; i < perLane; i++) await trip(lane * perLane + i);
          }),
        );
        return ((lanes * perLane) / (performance.now() - started)) * 1_000;
      };
      await batch(trips.notifying);
      await batch(trips.silent);
      const samples: { notifying: number; silent: number }[] = [];
      for (let round = 0; round < (quick ? 3 : 9); round++) {
        const sample = { notifying: 0, silent: 0 };
        for (const name of round % 2 === 0
          ? (['notifying', 'silent'] as const)
          : (['silent', 'notifying'] as const))
          sample[name] = await batch(trips[name]);
        samples.push(sample);
      }
      const ratio = median(samples.map((x) => x.notifying / x.silent));
      rows.push([
        String(lanes),
        fmt(median(samples.map((x) => x.notifying))),
        fmt(median(samples.map((x) => x.silent))),
        `${ratio.toFixed(2)}×`,
        `${((1 / ratio - 1) * 100).toFixed(1)}%`,
      ]);
    }
  } finally {
    unwatch();
    await notifying.close();
    await silent.close();
    for (const table of tables) await admin.query(`DROP TABLE IF EXISTS "${table}"`);
    await admin.end();
  }
  return rows;
}

/** fdatasync()s per second of a 4 KiB write in `dir`: no durable commit there can beat it. */
function fsyncFloor(dir: string, ms = 1_000): number {
  const fd = openSync(join(dir, 'fsync-probe'), 'w');
  const block = Buffer.alloc(4_096, 1);
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    writeSync(fd, block, 0, block.length, 0);
    fdatasyncSync(fd);
    count++;
  }
  closeSync(fd);
  return (count / (performance.now() - started)) * 1_000;
}

type Rates = Record<keyof Contenders, number>;

/**
 * Round trips per second of each contender at `lanes` concurrent confirmers, and each ratio taken
 * within one round (the four run back to back, in turn-about order) before the median: on a shared
 * machine whose disk speed drifts, a paired ratio is steadier than a ratio of two medians.
 */
export async function measure(contenders: Contenders, lanes: number, perLane: number, rounds: number) {
  const names = Object.keys(contenders) as (keyof Contenders)[];
  const batch = async (trip: Trip) => {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = 0; i < perLane; i++) await trip(lane * perLane + i);
      }),
    );
    return ((lanes * perLane) / (performance.now() - started)) * 1_000;
  };
  for (const name of names) await batch(contenders[name]);
  const samples: Rates[] = [];
  for (let round = 0; round < rounds; round++) {
    const sample = {} as Rates;
    for (const name of round % 2 === 0 ? names : [...names].reverse())
      sample[name] = await batch(contenders[name]);
    samples.push(sample);
  }
  const rate = (name: keyof Contenders) => median(samples.map((s) => s[name]));
  const paired = (name: keyof Contenders, base: keyof Contenders) =>
    median(samples.map((s) => s[name] / s[base]));
  return {
    rates: {
      registry: rate('registry'),
      store: rate('store'),
      bareSame: rate('bareSame'),
      bareThree: rate('bareThree'),
    },
    ratio: (who: 'store' | 'registry', base: 'bareSame' | 'bareThree') => paired(who, base),
  };
}

/** The longest the event loop went without a turn while `work` ran (a 1 ms interval's worst lag). */
async function longestStall(work: () => Promise<unknown>): Promise<{ stallMs: number; totalMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const totalMs = performance.now() - started;
  clearInterval(timer);
  worst = Math.max(worst, performance.now() - last);
  return { stallMs: worst, totalMs };
}

/** Rows written straight in by the database itself: `count` finished, one in 100 still pending. */
const seedSql = (table: string, count: number, time: (ms: number) => string) =>
  `INSERT INTO ${table} (id, tool, status, input, payload, digest, created_at, expires_at, updated_at, history)
   SELECT 'seed' || g, 'tool.' || (g % 100), CASE WHEN g % 100 = 0 THEN 'pending' ELSE 'delivered' END,
          '{}', '{"to":"ana@example.com"}', 'd', ${time(T0)}, ${time(T0)}, ${time(T0)}, '[]'
   FROM generate_series(1, ${count}) AS g`;

/** `prune` of a big backlog and `list({ tool })` on it, per store. */
async function pruneAndList(dir: string, count: number): Promise<string[][]> {
  const rows: string[][] = [];
  const sqlitePath = join(dir, 'prune.db');
  const sqlite = createSqliteStore({ path: sqlitePath });
  const db = new Database(sqlitePath);
  // SQLite has no generate_series by default: a recursive CTE counts instead.
  db.exec(
    seedSql('graded_tools_confirmations', count, (ms) => String(ms)).replace(
      'FROM generate_series(1, ' + count + ') AS g',
      `FROM (WITH RECURSIVE c(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM c WHERE g < ${count}) SELECT g FROM c)`,
    ),
  );
  // Fold the seed's WAL into the file now, or the store's first commit would pay that checkpoint.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const listMs = await timeOnce(() => sqlite.list({ tool: 'tool.7' }), 7);
  const pruned = { n: 0 };
  const prune = await longestStall(async () => {
    pruned.n = await sqlite.prune({ before: T0 + 1 });
  });
  sqlite.close();
  rows.push([
    'sqlite',
    fmt(count),
    fmt(pruned.n),
    fmt(prune.totalMs),
    prune.stallMs.toFixed(1),
    '—',
    listMs.toFixed(1),
  ]);

  const probe = await probePostgres();
  if (probe.url !== undefined) {
    const table = uniqueTable('gt_bench_prune');
    const store = createPostgresStore({ connectionString: probe.url, table });
    await store.migrate();
    const admin = new pg.Pool({ connectionString: probe.url, max: 1 });
    await admin.query(seedSql(`"${table}"`, count, (ms) => `'${new Date(ms).toISOString()}'::timestamptz`));
    await admin.query(`ANALYZE "${table}"`);
    const listedMs = await timeOnce(() => store.list({ tool: 'tool.7' }), 7);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 5);
    const prune = await longestStall(async () => {
      pruned.n = await store.prune({ before: T0 + 1 });
    });
    clearInterval(sampler);
    rows.push([
      'postgres',
      fmt(count),
      fmt(pruned.n),
      fmt(prune.totalMs),
      prune.stallMs.toFixed(1),
      `+${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB`,
      listedMs.toFixed(1),
    ]);
    await admin.query(`DROP TABLE IF EXISTS "${table}"`);
    await admin.end();
    await store.close();
  }
  // The same watch over an idle second: on a shared machine the process is descheduled now and then,
  // and that lag is in every stall above too.
  const idle = await longestStall(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
  rows.push(['idle (control)', '—', '—', fmt(idle.totalMs), idle.stallMs.toFixed(1), '—', '—']);
  return rows;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Runs the SQL store benchmark and prints its tables. */
export async function benchSql(options: { readonly quick?: boolean } = {}): Promise<void> {
  const quick = options.quick === true;
  const dir = tempDir('graded-tools-bench-sql-');
  const rows: string[][] = [];
  try {
    const floor = fsyncFloor(dir.path, quick ? 300 : 1_000);
    console.log(`\n## SQL stores against the bare driver${quick ? ' (quick)' : ''}\n`);
    console.log(
      "Default durability ('decisions': the claim waits for the disk). store = create → get → claim → finish through the store;",
    );
    console.log(
      'registry = invoke → confirm (digest) → delivered. bare same = a bare-driver copy of the statements the store issues',
    );
    console.log(
      '(each write with its audit entry in one transaction); bare three = only create, claim, finish, with no audit',
    );
    console.log(
      'entry: the audit insert is a write the bare path lacks, kept inside the same commit. Round trips/s, medians of interleaved rounds.\n',
    );
    console.log(`fsync floor in the temp dir: ${fmt(floor)} fdatasync/s\n`);

    const run = async (label: string, contenders: Contenders) => {
      for (const lanes of CONCURRENCY) {
        const perLane = Math.max(1, Math.round((quick ? 100 : 300) / lanes));
        const { rates, ratio } = await measure(contenders, lanes, perLane, quick ? 3 : 9);
        for (const who of ['store', 'registry'] as const) {
          const same = ratio(who, 'bareSame');
          const three = ratio(who, 'bareThree');
          rows.push([
            label,
            String(lanes),
            who,
            fmt(rates[who]),
            fmt(rates.bareSame),
            fmt(rates.bareThree),
            `${same.toFixed(2)}× (${verdict(same >= TARGET_SAME)})`,
            `${three.toFixed(2)}× (${verdict(three >= TARGET_THREE)})`,
          ]);
        }
      }
    };

    for (const synchronous of ['decisions', 'normal'] as const) {
      const sqlite = sqliteContenders(dir.path, synchronous);
      try {
        await run(synchronous === 'decisions' ? 'sqlite' : 'sqlite (normal: no fsync)', sqlite.contenders);
      } finally {
        sqlite.close();
      }
    }
    const probe = await probePostgres();
    if (probe.url === undefined) {
      console.log(`postgres skipped: ${probe.reason}`);
    } else {
      const postgres = await postgresContenders(probe.url);
      try {
        await run('postgres', postgres.contenders);
      } finally {
        await postgres.close();
      }
    }
    const headers = [
      'store',
      'confirmers',
      'round trip',
      'round trips/s',
      'bare same/s',
      'bare three/s',
      `vs same (≥ ${TARGET_SAME})`,
      `vs three writes (≥ ${TARGET_THREE})`,
    ];
    printTable(headers, rows);

    if (probe.url !== undefined) {
      console.log(
        "\nThe NOTIFY trigger (watch across processes) on a PostgreSQL round trip: the store's create → get → claim → finish,",
      );
      console.log('on a table with the trigger (and a listener) against one without; paired medians.\n');
      printTable(
        ['confirmers', 'with trigger/s', 'without/s', 'with / without', 'extra time per round trip'],
        await triggerCost(probe.url, quick),
      );
    }

    const backlog = quick ? 50_000 : 200_000;
    console.log(
      `\nprune of ${fmt(backlog)} rows (99% finished) and list({ tool }) over them: the event loop's longest wait.\n`,
    );
    printTable(
      [
        'store',
        'rows',
        'pruned',
        'prune ms',
        'longest stall ms',
        'heap peak',
        'list({ tool }) ms (median of 7)',
      ],
      await pruneAndList(dir.path, backlog),
    );
  } finally {
    dir.remove();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchSql({ quick: process.argv.includes('--quick') });
}
