// What agent runs cost (#24): a call made without a run must not pay for runs at all, and a call within
// one pays for remembering what it read (a read) or for finding where its destination came from (a
// proposal). All on the model's exit or `propose` with the memory store, in paired rounds.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/runs.ts [--quick]` after `npm run build`.
import { join } from 'node:path';
import { ToolRegistry } from 'graded-tools';
import { createPostgresStore } from 'graded-tools/postgres';
import { createSqliteStore } from 'graded-tools/sqlite';
import type { ConfirmationStore } from 'graded-tools/store';
import { probePostgres, storeTables, uniqueTable } from '../test/helpers/postgres.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { comparePaired, formatRate, median, verdict } from './measure.js';
import { searchArgs, searchRun, searchSchema } from './search-tool.js';

/** "Nothing of this slows a call made without a run": within noise of the same tool before #24. */
const TARGET_WITHOUT_RUN = 1.05;

const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

const search = (name: string, extra: object = {}) => ({
  name,
  description: 'Search.',
  sideEffect: 'read' as const,
  inputSchema: searchSchema,
  run: searchRun,
  ...extra,
});

const mailSchema = {
  type: 'object',
  properties: { to: { type: 'string' }, text: { type: 'string' } },
  required: ['to', 'text'],
} as const;

const mail = (name: string, extra: object = {}) => ({
  name,
  description: 'Sends an email.',
  sideEffect: 'send' as const,
  inputSchema: mailSchema,
  prepare: (input: unknown) => input,
  deliver: () => 'sent',
  ...extra,
});

async function benchReads(quick: boolean): Promise<string[]> {
  const registry = new ToolRegistry()
    .register(search('kb.plain'))
    .register(search('kb.marked', { destinations: ['query'] }));
  const started = await registry.beginRun({
    request: 'Find the refund policy',
    trusted: ['ana@example.com'],
  });
  if (!started.ok) throw new Error(started.error);
  const run = started.id;
  const { rates, timeRatios } = await comparePaired(
    {
      plain: () => registry.invokeReadOnly('kb__plain', searchArgs),
      marked: () => registry.invokeReadOnly('kb__marked', searchArgs),
      inRun: () => registry.invokeReadOnly('kb__plain', searchArgs, { run }),
    },
    { batch: quick ? 1_000 : 2_000, rounds: quick ? 11 : 31 },
  );
  const marked = timeRatios('marked', 'plain');
  const inRun = timeRatios('inRun', 'plain');
  return [
    '## Agent runs on the model exit: invokeReadOnly of the search tool (paired rounds; median, spread)',
    `  no run                                  ${formatRate(rates.plain)}`,
    `  no run, a tool with destinations        ${formatRate(rates.marked)}`,
    `  within a run (its result remembered)    ${formatRate(rates.inRun)}`,
    `  without a run: ${median(marked).toFixed(2)}x (${spread(marked)}; target <= ${TARGET_WITHOUT_RUN}x: ${verdict(median(marked) <= TARGET_WITHOUT_RUN)})`,
    `  within a run: ${median(inRun).toFixed(2)}x the time of the same read without one (${spread(inRun)})`,
  ];
}

async function benchProposals(quick: boolean): Promise<string[]> {
  const registry = new ToolRegistry()
    .register(mail('mail.plain'))
    .register(mail('mail.marked', { destinations: ['to'] }));
  const started = await registry.beginRun({ request: 'Email ana@example.com the report' });
  if (!started.ok) throw new Error(started.error);
  const run = started.id;
  const input = { to: 'ana@example.com', text: 'The report.' };
  const { rates, timeRatios } = await comparePaired(
    {
      plain: () => registry.propose('mail.plain', input),
      marked: () => registry.propose('mail.marked', input),
      inRun: () => registry.propose('mail.marked', input, { run }),
    },
    { batch: quick ? 500 : 1_000, rounds: quick ? 11 : 21 },
  );
  const marked = timeRatios('marked', 'plain');
  const inRun = timeRatios('inRun', 'plain');
  return [
    '## Agent runs on propose (memory store): a send with destinations (paired rounds; median, spread)',
    `  no run                                  ${formatRate(rates.plain)}`,
    `  no run, a tool with destinations        ${formatRate(rates.marked)}`,
    `  within a run (origins recorded)         ${formatRate(rates.inRun)}`,
    `  without a run: ${median(marked).toFixed(2)}x (${spread(marked)}; target <= ${TARGET_WITHOUT_RUN}x: ${verdict(median(marked) <= TARGET_WITHOUT_RUN)})`,
    `  within a run: ${median(inRun).toFixed(2)}x the time of the same proposal without one (${spread(inRun)})`,
  ];
}

/**
 * Runs kept by a SQL store (#31): a read within a run (one readRun, the tool, one rememberRead) and a
 * proposal within one (one readRun with its keys, then the confirmation) against the same call without
 * a run, on one registry over the store, in paired rounds.
 */
async function benchStore(label: string, store: ConfirmationStore, quick: boolean): Promise<string[]> {
  const registry = new ToolRegistry({ confirmations: store })
    .register(search('kb.plain'))
    .register(mail('mail.marked', { destinations: ['to'] }));
  const started = await registry.beginRun({
    request: 'Email ana@example.com the refund policy',
    trusted: { contacts: ['li@example.com'] },
  });
  if (!started.ok) throw new Error(started.error);
  const run = started.id;
  const input = { to: 'ana@example.com', text: 'The policy.' };
  const { rates, timeRatios } = await comparePaired(
    {
      read: () => registry.invokeReadOnly('kb__plain', searchArgs),
      readInRun: () => registry.invokeReadOnly('kb__plain', searchArgs, { run }),
      propose: () => registry.propose('mail.marked', input),
      proposeInRun: () => registry.propose('mail.marked', input, { run }),
    },
    { batch: quick ? 100 : 300, rounds: quick ? 5 : 11 },
  );
  const read = timeRatios('readInRun', 'read');
  const propose = timeRatios('proposeInRun', 'propose');
  return [
    `## Agent runs kept by ${label} (paired rounds; median, spread)`,
    `  read, no run                            ${formatRate(rates.read)}`,
    `  read within a run (read + remembered)   ${formatRate(rates.readInRun)}`,
    `  propose, no run                         ${formatRate(rates.propose)}`,
    `  propose within a run (origins)          ${formatRate(rates.proposeInRun)}`,
    `  read within a run: ${median(read).toFixed(2)}x the time of the same read without one (${spread(read)})`,
    `  propose within a run: ${median(propose).toFixed(2)}x the time of the same proposal without one (${spread(propose)})`,
  ];
}

async function benchStores(quick: boolean): Promise<string[]> {
  const dir = tempDir();
  const lines: string[] = [];
  try {
    const sqlite = createSqliteStore({ path: join(dir.path, 'runs-bench.db') });
    lines.push(...(await benchStore('SQLite (better-sqlite3, a file)', sqlite, quick)));
    sqlite.close();
  } finally {
    dir.remove();
  }
  const probe = await probePostgres();
  if (probe.url === undefined)
    return [...lines, `## Agent runs kept by PostgreSQL: skipped (${probe.reason})`];
  const table = uniqueTable('gt_bench_runs');
  const postgres = createPostgresStore({ connectionString: probe.url, table });
  try {
    await postgres.migrate();
    lines.push(...(await benchStore('PostgreSQL (same host)', postgres, quick)));
  } finally {
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: probe.url });
    await admin.connect();
    await admin.query(`DROP TABLE IF EXISTS ${storeTables(table)}`);
    await admin.end();
    await postgres.close();
  }
  return lines;
}

export async function benchRuns(options: { quick: boolean }): Promise<string[]> {
  return [
    ...(await benchReads(options.quick)),
    ...(await benchProposals(options.quick)),
    ...(await benchStores(options.quick)),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchRuns({ quick: process.argv.includes('--quick') })) console.log(line);
}
