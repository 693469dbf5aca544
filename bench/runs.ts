// What agent runs cost (#24): a call made without a run must not pay for runs at all, and a call within
// one pays for remembering what it read (a read) or for finding where its destination came from (a
// proposal). All on the model's exit or `propose` with the memory store, in paired rounds.
// Run alone: `npx tsx --tsconfig bench/tsconfig.json bench/runs.ts [--quick]` after `npm run build`.
import { ToolRegistry } from 'graded-tools';
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

export async function benchRuns(options: { quick: boolean }): Promise<string[]> {
  return [...(await benchReads(options.quick)), ...(await benchProposals(options.quick))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchRuns({ quick: process.argv.includes('--quick') })) console.log(line);
}
