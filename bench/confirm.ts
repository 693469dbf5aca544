// invoke → confirm → deliver round trips per store, and the claim under contention.
// Run alone: `npx tsx bench/confirm.ts` (add `--quick` for a short run); the main bench calls `benchConfirm()`.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConfirmRequired, createMemoryStore, defineTool, ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import pg from 'pg';
import { startApp } from '../test/helpers/app-process.js';
import { probePostgres, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { median, printTable } from './measure.js';
import { benchMemoryStore } from './memory-store.js';
import { registryOn, roundTrip } from './send-tool.js';
import { type Contenders, measure, postgresContenders, sqliteContenders } from './sql.js';

/** The targets, in round trips per second. */
const TARGETS = { memory: 100_000, sqlite: 5_000, postgres: 1_000 } as const;

interface Row {
  readonly store: string;
  /** Median round trips per second. */
  readonly perSecond: number | undefined;
  /** The bare driver running the same statements, median per second, when there is a bare copy. */
  readonly bare: number | undefined;
  /** Ours over the bare copy, paired within each round, then the median. */
  readonly ratio: number | undefined;
  readonly target: number | undefined;
  readonly note: string;
}

/** Sequential round trips: a person invokes, confirms with the digest, the tool delivers. */
async function roundTrips(registry: ToolRegistry, count: number): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < count; n++) await roundTrip(registry, n);
  return (count / (performance.now() - started)) * 1_000;
}

/** The median of a few trials, like every other figure of the bench. */
async function medianOf(trials: number, run: () => Promise<number>): Promise<number> {
  const rates: number[] = [];
  for (let i = 0; i < trials; i++) rates.push(await run());
  return median(rates);
}

/** The registry's round trips against the bare driver doing the same statements, `lanes` at once. */
async function againstBare(
  contenders: Contenders,
  lanes: number,
  quick: boolean,
): Promise<Pick<Row, 'perSecond' | 'bare' | 'ratio'>> {
  const { rates, ratio } = await measure(contenders, lanes, quick ? 50 : 200, quick ? 3 : 7);
  return { perSecond: rates.registry, bare: rates.bareSame, ratio: ratio('registry', 'bareSame') };
}

async function prepare(registry: ToolRegistry, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const asked = (await registry.invoke('race.send', { n }, { actor: 'agent' })) as ConfirmRequired;
    ids.push(asked.confirmationId);
  }
  return ids;
}

interface Contention {
  readonly store: string;
  readonly confirmers: number;
  readonly confirmations: number;
  readonly seconds: number;
  readonly exactlyOnce: boolean;
}

/** `confirmers` in-process loops racing over the same ids (memory: one process is all it serves). */
async function memoryContention(confirmers: number, count: number): Promise<Contention> {
  const store = createMemoryStore({ maxRecords: 1_000_000 });
  let deliveries = 0;
  const registry = registryOn(store, 'race.send');
  registry.register(
    { ...registry.get('race.send'), prepare: (i: { n: number }) => i, deliver: () => ++deliveries } as never,
    { replace: true },
  );
  const ids = await prepare(registry, count);
  let won = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: confirmers }, async (_, c) => {
      const order = c % 2 === 0 ? ids : [...ids].reverse();
      for (const id of order) if ((await registry.confirm(id, { approvedBy: `c${c}` })).ok) won++;
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  return {
    store: 'memory',
    confirmers,
    confirmations: count,
    seconds,
    exactlyOnce: won === count && deliveries === count,
  };
}

/** `confirmers` OS processes racing over the same ids, one confirm at a time each. */
async function processContention(
  label: string,
  confirmers: number,
  count: number,
  setup: () => Promise<{
    registry: ToolRegistry;
    task: Parameters<typeof startApp>[0];
    delivered: () => Promise<number>;
    done: () => Promise<void>;
  }>,
  dir: string,
): Promise<Contention> {
  const { registry, task, delivered, done } = await setup();
  const ids = await prepare(registry, count);
  const idsFile = join(dir, `${label}-${confirmers}-ids.json`);
  writeFileSync(idsFile, JSON.stringify(ids));
  const apps = Array.from({ length: confirmers }, () => startApp({ ...task, idsFile, lanes: 1 }));
  await Promise.all(apps.map((app) => app.waitFor('ready')));
  const started = performance.now();
  for (const app of apps) app.child.stdin?.write('go\n');
  const summaries = await Promise.all(apps.map((app) => app.waitFor<{ won: string[] }>('done')));
  const seconds = (performance.now() - started) / 1_000;
  await Promise.all(apps.map((app) => app.exited));
  const won = summaries.reduce((sum, s) => sum + s.won.length, 0);
  const exactlyOnce = won === count && (await delivered()) === count;
  await done();
  return { store: label, confirmers, confirmations: count, seconds, exactlyOnce };
}

const fmt = (n: number | undefined) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));

/** Runs the confirmation benchmark and prints its tables. */
export async function benchConfirm(options: { readonly quick?: boolean } = {}): Promise<void> {
  const quick = options.quick === true;
  const dir = tempDir('graded-tools-bench-');
  const probe = await probePostgres();
  const [load1] = loadavg();
  console.log(
    `\n## Confirmations (node ${process.version}, ${availableParallelism()} CPUs, load ${load1?.toFixed(2)}${quick ? ', quick' : ''})\n`,
  );
  console.log(
    'invoke → confirm (with digest) → deliver, one after another unless noted; medians. Baseline: the same\n' +
      "statements run directly on better-sqlite3 / pg (bench/sql.ts's bare copies), paired round by round.\n",
  );

  const rows: Row[] = [];
  try {
    const memory = registryOn(createMemoryStore({ maxRecords: 1_000_000 }));
    await roundTrips(memory, 2_000);
    rows.push({
      store: 'memory',
      perSecond: await medianOf(5, () => roundTrips(memory, quick ? 5_000 : 20_000)),
      bare: undefined,
      ratio: undefined,
      target: TARGETS.memory,
      note: 'no bare copy here: the memory store against a Map is the next table',
    });

    for (const synchronous of ['decisions', 'normal'] as const) {
      const sqlite = sqliteContenders(dir.path, synchronous);
      rows.push({
        store: `sqlite (synchronous=${synchronous})`,
        ...(await againstBare(sqlite.contenders, 1, quick)),
        target: TARGETS.sqlite,
        note: {
          decisions: 'default: claims and decisions synced, the rest ride along',
          normal: 'survives crashes, not power loss',
        }[synchronous],
      });
      sqlite.close();
    }
    const full = createSqliteStore({ path: join(dir.path, 'round-trips-full.db'), synchronous: 'full' });
    const fullRegistry = registryOn(full);
    await roundTrips(fullRegistry, 200);
    rows.push({
      store: 'sqlite (synchronous=full)',
      perSecond: await medianOf(5, () => roundTrips(fullRegistry, quick ? 300 : 1_000)),
      bare: undefined,
      ratio: undefined,
      target: TARGETS.sqlite,
      note: 'every commit synced; no bare copy at this setting',
    });
    full.close();

    if (probe.url === undefined) {
      rows.push({
        store: 'postgres',
        perSecond: undefined,
        bare: undefined,
        ratio: undefined,
        target: TARGETS.postgres,
        note: `skipped: ${probe.reason}`,
      });
    } else {
      const postgres = await postgresContenders(probe.url);
      rows.push({
        store: 'postgres (127.0.0.1)',
        ...(await againstBare(postgres.contenders, 1, quick)),
        target: TARGETS.postgres,
        note: 'default: only the claim waits for the WAL flush',
      });
      rows.push({
        store: 'postgres, 8 callers at once',
        ...(await againstBare(postgres.contenders, 8, quick)),
        target: TARGETS.postgres,
        note: 'commits from several connections share a WAL flush',
      });
      await postgres.close();
    }

    printTable(
      [
        'store',
        'round trips/s',
        'bare driver, same statements/s',
        'ours / bare',
        'target',
        'verdict',
        'note',
      ],
      rows.map((r) => [
        r.store,
        fmt(r.perSecond),
        fmt(r.bare),
        r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
        `≥ ${fmt(r.target)}`,
        r.perSecond === undefined ? 'not run' : r.perSecond >= (r.target ?? 0) ? 'meets' : 'below',
        r.note,
      ]),
    );

    await benchMemoryStore({ quick });

    console.log(
      '\nThe claim under contention: every confirmer tries every confirmation; exactly one may win each.\n',
    );
    const results: Contention[] = [];
    const count = quick ? 200 : 500;
    for (const confirmers of [2, 8]) results.push(await memoryContention(confirmers, quick ? 2_000 : 5_000));
    for (const confirmers of [2, 8]) {
      results.push(
        await processContention(
          'sqlite',
          confirmers,
          count,
          async () => {
            const path = join(dir.path, `contention-${confirmers}.db`);
            const deliveries = join(dir.path, `contention-${confirmers}.txt`);
            writeFileSync(deliveries, '');
            const store = createSqliteStore({ path });
            return {
              registry: raceRegistry(store),
              task: {
                mode: 'race',
                store: { kind: 'sqlite', path },
                deliveries: { kind: 'file', path: deliveries },
              },
              delivered: async () => {
                const { readFileSync } = await import('node:fs');
                return readFileSync(deliveries, 'utf8').split('\n').filter(Boolean).length;
              },
              done: async () => store.close(),
            };
          },
          dir.path,
        ),
      );
    }
    if (probe.url !== undefined) {
      const url = probe.url;
      for (const confirmers of [2, 8]) {
        results.push(
          await processContention(
            'postgres',
            confirmers,
            count,
            async () => {
              const table = uniqueTable('gt_bench_race');
              const deliveryTable = `${table}_deliveries`;
              const admin = new pg.Pool({ connectionString: url, max: 1 });
              await admin.query(
                `CREATE TABLE ${deliveryTable} (confirmation_id text NOT NULL, pid integer NOT NULL)`,
              );
              const store = createPostgresStore({ connectionString: url, table });
              await store.migrate();
              return {
                registry: raceRegistry(store),
                task: {
                  mode: 'race',
                  store: { kind: 'postgres', url, table },
                  deliveries: { kind: 'table', url, table: deliveryTable },
                },
                delivered: async () =>
                  (await admin.query(`SELECT count(*)::int AS n FROM ${deliveryTable}`)).rows[0].n as number,
                done: async () => {
                  await admin.query(`DROP TABLE IF EXISTS ${table}, ${deliveryTable}`);
                  await admin.end();
                  await store.close();
                },
              };
            },
            dir.path,
          ),
        );
      }
    }
    printTable(
      ['store', 'confirmers', 'confirmations', 'decided/s', 'attempts/s', 'exactly once'],
      results.map((r) => [
        r.store === 'memory' ? 'memory (async, 1 process)' : `${r.store} (OS processes)`,
        String(r.confirmers),
        String(r.confirmations),
        fmt(r.confirmations / r.seconds),
        fmt((r.confirmations * r.confirmers) / r.seconds),
        r.exactlyOnce ? 'yes' : 'NO',
      ]),
    );
    if (probe.url === undefined) console.log(`\npostgres contention skipped: ${probe.reason}`);
    console.log(
      '\nProcesses each run one confirm at a time; a win includes the delivery (a file line or a table row).',
    );
  } finally {
    dir.remove();
  }
}

/** The registry the contention runs prepare with: the racers' tool, never delivering here. */
function raceRegistry(store: ConfirmationStore): ToolRegistry {
  return new ToolRegistry({ confirmations: store }).register(
    defineTool({
      name: 'race.send',
      description: 'Send a numbered message.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      prepare: (input: { n: number }) => ({ n: input.n, text: `message ${input.n}` }),
      deliver: () => {
        throw new Error('the bench process itself never delivers');
      },
    }),
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await benchConfirm({ quick: process.argv.includes('--quick') });
}
